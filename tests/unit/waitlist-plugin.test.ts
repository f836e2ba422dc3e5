// The waitlist is a plugin of the site: a site without it starts no database and has no `waitlist`
// command; a site with it gets the build guards of its `config` hook through the real CLI.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO, fixture, sitegen, startServer } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { copyEmptyDatabase } from '../helpers/waitlistTemplate.ts';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-plugin-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * A private copy of tests/fixtures/waitlist (its config's relative imports made absolute): a server writes
 * <root>/.sitegen/server.json, and waitlist-cli.test.ts serves and exports the shared fixture meanwhile.
 */
function waitlistSite(): string {
  const dir = path.join(tmp, 'site');
  fs.cpSync(fixture('waitlist'), dir, { recursive: true, filter: (f) => !/[\\/](dist|\.sitegen)$/.test(f) });
  const config = path.join(dir, 'sitegen.config.ts');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replaceAll("'../../../", `'${REPO}/`));
  return dir;
}
const site = waitlistSite();

const serviceJwt = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.sig`;

describe('a site without the waitlist plugin (tests/fixtures/basic)', () => {
  const basic = fixture('basic');

  it.each(['preview', 'dev'])('`sitegen %s` starts no database and serves no /rest/v1', async (command) => {
    if (command === 'preview' && !fs.existsSync(path.join(basic, 'dist/index.html'))) expect((await siteAt(basic).build({ quiet: true })).code).toBe(0);
    const dataDir = path.join(tmp, `db-${command}`);
    const server = await startServer([command, '--root', basic, '--port', '0'], { env: { SITEGEN_WAITLIST_DIR: dataDir } });
    try {
      expect((await fetch(`${server.url}/rest/v1/waitlist`)).status).toBe(404);
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      expect(server.output()).not.toMatch(/database|rest\/v1|anon key/i);
    } finally {
      await server.stop();
    }
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('has no `waitlist` command', () => {
    const r = sitegen(['waitlist', 'export', '--root', basic]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("unknown command 'waitlist'");
  });
});

describe('a site with the waitlist plugin (tests/fixtures/waitlist)', () => {
  it('`sitegen dev` serves the local API, prints the keys, and `waitlist export` reads it', async () => {
    const dataDir = path.join(tmp, 'db-dev');
    await copyEmptyDatabase(dataDir);
    const server = await startServer(['dev', '--root', site, '--port', '0'], { env: { SITEGEN_WAITLIST_DIR: dataDir, SUPABASE_URL: '' } });
    try {
      const { LOCAL_ANON_KEY } = await import('../../plugins/waitlist/keys.ts');
      const res = await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST', headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' }, body: '{"email":"dev@example.com"}',
        signal: AbortSignal.timeout(90_000),
      });
      expect(res.status).toBe(201);
      const key = fs.readFileSync(`${dataDir}.service-key`, 'utf8').trim();
      expect(server.output()).toContain(key);
      const r = sitegen(['waitlist', 'export', '--root', site, '--format', 'json'], { env: { SUPABASE_URL: '' } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).map((row: { email: string }) => row.email)).toEqual(['dev@example.com']);
    } finally {
      await server.stop();
    }
  });
});

describe('build guards of the waitlist plugin (tests/fixtures/waitlist)', () => {
  const root = site;
  const out = 'dist-guard';
  const build = (env: NodeJS.ProcessEnv) => siteAt(root).build({ out, env: { SUPABASE_URL: '', SUPABASE_ANON_KEY: '', CI: '', ...env } });
  afterAll(() => fs.rmSync(path.join(root, out), { recursive: true, force: true }));

  it.each([
    ['a service-role JWT as the anon key', { SUPABASE_URL: 'https://p.supabase.co', SUPABASE_ANON_KEY: serviceJwt }, 'SUPABASE_ANON_KEY is a JWT for the role "service_role"'],
    ['a secret key as the anon key', { SUPABASE_URL: 'https://p.supabase.co', SUPABASE_ANON_KEY: 'sb_secret_0123456789' }, 'looks like a Supabase secret key'],
    ['SUPABASE_URL without a key', { SUPABASE_URL: 'https://p.supabase.co' }, 'SUPABASE_URL is set but SUPABASE_ANON_KEY is not'],
    ['an invalid SUPABASE_URL', { SUPABASE_URL: 'not a url', SUPABASE_ANON_KEY: 'sb_publishable_x' }, 'SUPABASE_URL "not a url" is not a URL'],
    ['plain http to another host', { SUPABASE_URL: 'http://p.supabase.co', SUPABASE_ANON_KEY: 'sb_publishable_x' }, 'SUPABASE_URL must be an https:// URL'],
  ])('refuses %s: exit 1, a clear message, nothing written', async (_name, env, text) => {
    const r = await build(env);
    expect(r.stderr).toContain(text);
    expect(r.stderr).not.toContain('crashed');
    expect(r.code).toBe(1);
    expect(fs.existsSync(path.join(root, out))).toBe(false);
  });

  it('warns loudly in CI that forms post to the local backend', async () => {
    const r = await build({ CI: 'true' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('SUPABASE_URL IS NOT SET IN CI');
  });
});
