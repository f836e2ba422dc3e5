// The waitlist is a plugin of the site: a site without it starts no database and has no `waitlist`
// command (the CLI); a site with it gets the local API in dev, and the build guards of its `config` hook.
// Servers and builds run in this process, with the server plugins on as the CLI starts them.
import { afterAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, fixture, sitegen } from '../helpers/cli.ts';
import { runExport } from '../../plugins/waitlist/local.ts';
import { siteAt } from '../helpers/site.ts';
import { copyEmptyDatabase } from '../helpers/waitlistTemplate.ts';
import { scratchDir } from '../helpers/scratchRoot.ts';

const tmp = fs.realpathSync(scratchDir('sitegen-plugin-'));

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

  // In this process, with the site's server plugins on as the CLI starts them (its default): what the terminal
  // would show is dev's output, and for preview the lines it prints under the URL (its banner) and its warnings.
  it('`sitegen preview` starts no database and serves no /rest/v1', async () => {
    if (!fs.existsSync(path.join(basic, 'dist/index.html'))) expect((await siteAt(basic).build({ quiet: true })).code).toBe(0);
    const dataDir = path.join(tmp, 'db-preview');
    const server = await siteAt(basic).preview({ backend: true, env: { SITEGEN_WAITLIST_DIR: dataDir } });
    try {
      expect((await fetch(`${server.url}/rest/v1/waitlist`)).status).toBe(404);
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      expect(server.banner).toEqual([]);
      expect(server.warnings).toEqual([]);
    } finally {
      await server.close();
    }
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('`sitegen dev` starts no database and serves no /rest/v1', async () => {
    const dataDir = path.join(tmp, 'db-dev-basic');
    const server = await siteAt(basic).dev({ backend: true, env: { SITEGEN_WAITLIST_DIR: dataDir } });
    try {
      expect(server.code, server.output()).toBe(0);
      expect((await fetch(`${server.url}/rest/v1/waitlist`)).status).toBe(404);
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      expect(server.output()).toContain('http://127.0.0.1:');
      expect(server.output()).not.toMatch(/database|rest\/v1|anon key/i);
    } finally {
      await server.close();
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
  // dev and the export in this process (the export's code as `sitegen waitlist export` runs it; the command
  // itself is run by waitlist-cli.test.ts against a `sitegen preview`).
  it('`sitegen dev` serves the local API, prints the keys, and `waitlist export` reads it', async () => {
    const dataDir = path.join(tmp, 'db-dev');
    await copyEmptyDatabase(dataDir);
    const env = { SITEGEN_WAITLIST_DIR: dataDir, SUPABASE_URL: '' };
    const server = await siteAt(site).dev({ backend: true, env });
    try {
      expect(server.code, server.output()).toBe(0);
      const { LOCAL_ANON_KEY } = await import('../../plugins/waitlist/keys.ts');
      const res = await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST', headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' }, body: '{"email":"dev@example.com"}',
        signal: AbortSignal.timeout(90_000),
      });
      expect(res.status).toBe(201);
      const key = fs.readFileSync(`${dataDir}.service-key`, 'utf8').trim();
      expect(server.output()).toContain(key);
      let stdout = '';
      const out = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { stdout += String(s); return true; });
      const code = await runExport({ root: site, env: { ...process.env, NO_COLOR: '1', ...env } }, { format: 'json' }).finally(() => out.mockRestore());
      expect(code).toBe(0);
      expect(JSON.parse(stdout).map((row: { email: string }) => row.email)).toEqual(['dev@example.com']);
    } finally {
      await server.close();
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
