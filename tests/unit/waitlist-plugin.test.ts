// The waitlist is a plugin of the site: a site without it starts no database and has no `waitlist`
// command (the CLI); a site with it gets the local API in dev, and the build guards of its `config` hook.
// Servers and builds run in this process, with the server plugins on as the CLI starts them.
import { afterAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, fixture, sitegen } from '../helpers/cli.ts';
import { EventEmitter } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { LOCAL_ANON_KEY } from '../../plugins/waitlist/keys.ts';
import { OPEN_WHEN_IDLE_MS, openWhenIdle, runExport } from '../../plugins/waitlist/local.ts';
import { createWaitlistBackend } from '../../plugins/waitlist/backend.ts';
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
  it('`sitegen dev` serves the local API, opens its database once pages are served, prints the keys, and `waitlist export` reads it', async () => {
    const dataDir = path.join(tmp, 'db-dev');
    await copyEmptyDatabase(dataDir);
    const env = { SITEGEN_WAITLIST_DIR: dataDir, SUPABASE_URL: '' };
    // The backend's own lines go to the process's stderr (the server's output has the banner).
    let stderr = '';
    const write = process.stderr.write.bind(process.stderr);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((s, ...rest: any[]) => { stderr += String(s); return write(s, ...rest); });
    const server = await siteAt(site).dev({ backend: true, env });
    try {
      expect(server.code, server.output()).toBe(0);
      // The database opens by itself once the first page asked for is served (no waitlist request needed).
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      await vi.waitFor(() => expect(stderr).toContain('waitlist: database ready'), { timeout: 60_000, interval: 50 });
      err.mockRestore();
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
      err.mockRestore();
      await server.close();
    }
  });
});

describe('the local database opens once pages are served', () => {
  // Opening it holds the server's thread about half a second: pages asked for at start are not held behind it.
  it('opens once the server has answered a request and been idle for a moment (no request in flight, the thread free), once', async () => {
    vi.useFakeTimers();
    try {
      const backend = { open: vi.fn(async () => {}) };
      const idle = openWhenIdle(backend);
      const response = () => new EventEmitter() as unknown as ServerResponse;
      const close = (res: ServerResponse) => (res as unknown as EventEmitter).emit('close');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(backend.open).not.toHaveBeenCalled(); // no request yet: nothing needs it
      const page = response(), css = response();
      idle.request(page);
      await vi.advanceTimersByTimeAsync(OPEN_WHEN_IDLE_MS * 10);
      idle.request(css);
      close(page);
      await vi.advanceTimersByTimeAsync(OPEN_WHEN_IDLE_MS * 10);
      expect(backend.open).not.toHaveBeenCalled(); // a request in flight
      close(css);
      await vi.advanceTimersByTimeAsync(OPEN_WHEN_IDLE_MS - 1);
      expect(backend.open).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(backend.open).toHaveBeenCalledTimes(1);
      const later = response();
      idle.request(later);
      close(later);
      await vi.advanceTimersByTimeAsync(OPEN_WHEN_IDLE_MS * 10);
      expect(backend.open).toHaveBeenCalledTimes(1);

      // A wait that ends late (the thread was busy: requests may be queued unread) waits again.
      const busy = { open: vi.fn(async () => {}) };
      const first = response();
      openWhenIdle(busy).request(first);
      close(first);
      vi.setSystemTime(Date.now() + 2_000); // the clock moves on while no timer runs: a blocked thread
      await vi.advanceTimersByTimeAsync(OPEN_WHEN_IDLE_MS);
      expect(busy.open).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(OPEN_WHEN_IDLE_MS);
      expect(busy.open).toHaveBeenCalledTimes(1);

      // Stopped (the server closing) before it was idle: never opened.
      const stopped = { open: vi.fn(async () => {}) };
      const other = openWhenIdle(stopped);
      const one = response();
      other.request(one);
      close(one);
      other.stop();
      await vi.advanceTimersByTimeAsync(OPEN_WHEN_IDLE_MS * 10);
      expect(stopped.open).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('`sitegen dev` stopped before any request never opens the database', async () => {
    const dataDir = path.join(tmp, 'db-unasked');
    await copyEmptyDatabase(dataDir);
    let stderr = '';
    const write = process.stderr.write.bind(process.stderr);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((s, ...rest: any[]) => { stderr += String(s); return write(s, ...rest); });
    try {
      const server = await siteAt(site).dev({ backend: true, env: { SITEGEN_WAITLIST_DIR: dataDir, SUPABASE_URL: '' } });
      expect(server.code, server.output()).toBe(0);
      expect(server.output()).toContain('waitlist API at /rest/v1/waitlist');
      // Closing waits for a database being opened; one that was opened at start would log its start by now.
      await server.close();
    } finally {
      err.mockRestore();
    }
    expect(stderr).not.toContain('waitlist: database');
  });

  it('a backend told to open later opens for the first request that needs it, and closes without having opened', async () => {
    const dataDir = path.join(tmp, 'db-later');
    await copyEmptyDatabase(dataDir);
    const log: string[] = [];
    const backend = createWaitlistBackend({ dataDir, migrationsDir: path.join(REPO, 'supabase/migrations'), openLater: true, log: (l) => log.push(l) });
    let settled = false;
    void backend.ready.then(() => { settled = true; });
    const server = createServer((req, res) => { void backend.handle(req, res); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as import('node:net').AddressInfo).port;
      const res = await fetch(`http://127.0.0.1:${port}/rest/v1/waitlist`, {
        method: 'POST', headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' }, body: '{"email":"later@example.com"}',
      });
      expect(res.status).toBe(201);
      expect(settled).toBe(true);
      expect(log.join('\n')).toContain('waitlist: database ready');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await backend.close();
    }
    // Closed while a request that needs it is still sending its body: the request answers 503 and the close
    // ends (it waits for the requests in flight, and they waited for the database).
    const racing = createWaitlistBackend({ dataDir: path.join(tmp, 'db-racing'), migrationsDir: path.join(REPO, 'supabase/migrations'), openLater: true, log: (l) => log.push(l) });
    let arrived!: () => void;
    const inFlight = new Promise<void>((r) => { arrived = r; });
    const slow = createServer((req, res) => { arrived(); void racing.handle(req, res); });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const port = (slow.address() as import('node:net').AddressInfo).port;
      const { request } = await import('node:http');
      const answered = new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/rest/v1/waitlist', method: 'POST', headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json', 'content-length': String('{"email":"slow@example.com"}'.length) } },
          (res) => { res.resume(); resolve(res.statusCode!); });
        req.on('error', reject);
        req.write('{"email":"slow@exa');
        void inFlight.then(() => { void racing.close(); req.end('mple.com"}'); });
      });
      expect(await answered).toBe(503);
      await racing.close();
      expect(fs.existsSync(path.join(tmp, 'db-racing'))).toBe(false);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
    // Never asked to open: closing it creates no database, and a request then answers 503.
    const never = createWaitlistBackend({ dataDir: path.join(tmp, 'db-never'), migrationsDir: path.join(REPO, 'supabase/migrations'), openLater: true, log: (l) => log.push(l) });
    await never.close();
    await never.ready;
    expect(fs.existsSync(path.join(tmp, 'db-never'))).toBe(false);
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
