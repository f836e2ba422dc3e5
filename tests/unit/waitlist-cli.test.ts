// The waitlist plugin through the real CLI: `sitegen waitlist export` against a running `sitegen preview` of
// a site that registers the plugin (tests/fixtures/waitlist), where the key may go, the local database's
// key, lock and folder, the build guards, and that a site without the plugin starts no database. The export's
// refusals (a bad format, no server, no key, plain http, a redirect) run the command's code in this process
// (the same function `sitegen waitlist export` calls); the CLI itself exports CSV and JSON. Likewise a second
// `sitegen preview` on the database is refused by the CLI, and the other servers of the lock and folder tests
// run the engine's preview() in this process, beside the CLI's server.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fixture, sitegen, startServer, writeWaitlistSite } from '../helpers/cli.ts';
import { LOCAL_ANON_KEY } from '../../plugins/waitlist/keys.ts';
import { runExport, type ExportFlags } from '../../plugins/waitlist/local.ts';
import { siteAt } from '../helpers/site.ts';
import { preview, ServerStartError } from '../../src/server/preview.ts';
import { copyEmptyDatabase } from '../helpers/waitlistTemplate.ts';
import { scratchDir } from '../helpers/scratchRoot.ts';

const root = fixture('waitlist');
const tmp = fs.realpathSync(scratchDir('sitegen-export-'));
const dataDir = path.join(tmp, 'db');
let server: Awaited<ReturnType<typeof startServer>>;

/**
 * `sitegen waitlist export --root <site>` run in this process: the plugin command's code with the flags as
 * the CLI passes them (--format defaults to csv) and what it prints.
 */
async function exportIn(site: string, flags: Partial<ExportFlags>, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { stdout += String(s); return true; });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s) => { stderr += String(s); return true; });
  try {
    const code = await runExport({ root: site, env: { ...process.env, NO_COLOR: '1', ...env } }, { format: 'csv', ...flags });
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

async function signUp(email: string, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${server.url}/rest/v1/waitlist`, {
    method: 'POST',
    headers: { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${LOCAL_ANON_KEY}`, 'Content-Type': 'application/json', Prefer: 'return=minimal' },
    body: JSON.stringify({ email, ...extra }),
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  const built = await siteAt(root).build({ quiet: true, env: { SUPABASE_URL: '' } });
  expect(built.code, built.stderr).toBe(0);
  await copyEmptyDatabase(dataDir);
  server = await startServer(['preview', '--root', root, '--port', '0'], { env: { SITEGEN_WAITLIST_DIR: dataDir } });
  await signUp('first@example.com', { utm_source: 'news, letter', metadata: { note: 'says "hi"' } });
  await signUp('second@example.com', { referrer: '=HYPERLINK("http://evil")' });
});

afterAll(async () => {
  await server?.stop();
});

describe('sitegen waitlist export (a command of the waitlist plugin)', () => {
  it('prints every row as CSV from the running local server, with that database\'s own key', () => {
    const r = sitegen(['waitlist', 'export', '--root', root], { env: { SUPABASE_URL: '' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\r\n'); // RFC 4180 rows end in CRLF
    expect(lines[0]).toBe('id,created_at,email,utm_source,utm_medium,utm_campaign,utm_term,utm_content,referrer,user_agent,metadata');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('first@example.com,"news, letter"');
    expect(lines[1]).toContain('"{""note"":""says \\""hi\\""""}"');
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('keeps the local service key random, private (0600) beside the database, and prints it', () => {
    const keyFile = `${dataDir}.service-key`;
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = fs.readFileSync(keyFile, 'utf8').trim();
    expect(key).toMatch(/^[\w-]+\.[\w-]+\.[\w-]{43}$/);
    expect(server.output()).toContain(key);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('prints JSON and writes to a file with --output', () => {
    const out = path.join(tmp, 'rows.json');
    const r = sitegen(['waitlist', 'export', '--root', root, '--format', 'json', '--output', out], { env: { SUPABASE_URL: '' } });
    expect(r.code).toBe(0);
    const rows = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(rows.map((x: any) => x.email)).toEqual(['first@example.com', 'second@example.com']);
    expect(rows[0].metadata).toEqual({ note: 'says "hi"' });
  });

  it('refuses an unknown format', async () => {
    const r = await exportIn(root, { format: 'xml' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--format must be csv or json, not "xml"');
  });

  it('says what to do when there is no waitlist to export', async () => {
    const empty = path.join(tmp, 'no-server');
    writeWaitlistSite(empty);
    const r = await exportIn(empty, {}, { SUPABASE_URL: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no waitlist to export: start `sitegen preview` or `sitegen dev`');
  });

  it('needs the service-role key for a remote project', async () => {
    const r = await exportIn(root, { url: 'https://project.supabase.example' }, { SUPABASE_SERVICE_ROLE_KEY: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SUPABASE_SERVICE_ROLE_KEY is not set');
  });

  it('sends a key to another machine only over https (exit 1, nothing sent)', async () => {
    for (const url of ['http://project.supabase.example', 'http://10.0.0.5:54321']) {
      const r = await exportIn(root, { url }, { SUPABASE_SERVICE_ROLE_KEY: 'service-secret' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('refusing to send the service-role key over plain http');
    }
    const bad = await exportIn(root, {}, { SUPABASE_URL: 'not a url', SUPABASE_SERVICE_ROLE_KEY: 'service-secret' });
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('"not a url" is not a URL')]);
  });

  it('never follows a redirect with the key: exit 1 naming it, and the target never sees the key', async () => {
    const seen: unknown[] = [];
    const target = http.createServer((req, res) => { seen.push([req.headers.apikey, req.headers.authorization]); res.end('[]'); });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const redirector = http.createServer((req, res) => { res.writeHead(307, { Location: `${targetUrl}${req.url}` }); res.end(); });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    try {
      const r = await exportIn(root, { url: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}` }, { SUPABASE_SERVICE_ROLE_KEY: 'service-secret' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`answered with a redirect (307 to ${targetUrl}/rest/v1/waitlist`);
      expect(seen).toEqual([]);
    } finally {
      redirector.close();
      target.close();
    }
  });
});

describe('one server per waitlist database, and only a real one', () => {
  // The CLI refuses a second server (exit 1 and the reason); the other servers here run the same preview()
  // in this process, the one the CLI runs, beside the `sitegen preview` process of beforeAll.
  const previewIn = (env: NodeJS.ProcessEnv, host?: string) => preview({ root, port: 0, host, backend: true, env: { ...process.env, ...env } });
  /** Why preview() did not start: its error and the located messages the CLI prints. */
  const refusal = (e: unknown) => (e instanceof ServerStartError ? [e.message, ...e.messages.map((m) => m.text)].join('\n') : `not a ServerStartError: ${e}`);
  const IN_USE = /is in use by another sitegen server \(pid \d+\): stop it, run this one with --no-backend, or give it its own SITEGEN_WAITLIST_DIR/;

  it('refuses a second server on the same data folder, also through a symlink, takes over a stale lock, and on --host 0.0.0.0 warns and keeps the service key to this machine', async () => {
    const second = await startServer(['preview', '--root', root, '--port', '0'], { env: { SITEGEN_WAITLIST_DIR: dataDir } }).catch((e: Error) => e);
    expect(second).toBeInstanceOf(Error);
    expect(String(second)).toContain('exited with 1');
    expect(String(second)).toMatch(IN_USE);
    const link = path.join(tmp, 'link-to-db');
    fs.symlinkSync(dataDir, link);
    const throughLink = await previewIn({ SITEGEN_WAITLIST_DIR: link }).then(async (s) => { await s.close(); return null; }, (e: unknown) => e);
    expect(refusal(throughLink)).toMatch(IN_USE);
    expect(refusal(throughLink)).toContain(`(pid ${server.proc.pid})`);

    const other = path.join(tmp, 'other');
    await copyEmptyDatabase(other);
    fs.writeFileSync(`${other}.lock`, '999999'); // a process that does not exist
    // (On all interfaces: the server warns that it is not loopback-only, and still refuses foreign Host names.)
    const third = await previewIn({ SITEGEN_WAITLIST_DIR: other }, '0.0.0.0');
    let closed = false;
    try {
      expect(fs.readFileSync(`${other}.lock`, 'utf8')).toBe(String(process.pid));
      expect(third.banner.join('\n')).toContain('warning: listening on 0.0.0.0, not loopback');
      const port = new URL(third.url).port;
      const status = (host: string) => new Promise<number>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/rest/v1/waitlist?select=email', headers: { host, apikey: LOCAL_ANON_KEY } }, (res) => { res.resume(); resolve(res.statusCode!); }).on('error', reject);
      });
      expect(await status(`rebind.evil.example:${port}`)).toBe(421);
      expect(await status(`localhost:${port}`)).not.toBe(421);
      // The service key works from this machine's loopback, and is refused from another address (this machine's
      // own LAN address stands in for a neighbour: the server sees a peer that is not loopback).
      const serviceKey = fs.readFileSync(`${other}.service-key`, 'utf8').trim();
      const read = (address: string) => new Promise<{ code: number; body: string }>((resolve, reject) => {
        http.get({ host: address, port, path: '/rest/v1/waitlist?select=email', headers: { host: `localhost:${port}`, apikey: serviceKey, authorization: `Bearer ${serviceKey}` } }, (res) => {
          let body = ''; res.on('data', (d) => { body += d; }); res.on('end', () => resolve({ code: res.statusCode!, body }));
        }).on('error', reject);
      });
      const fromLoopback = await read('127.0.0.1');
      expect(fromLoopback.code, fromLoopback.body).toBe(200);
      const lan = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
      if (lan) {
        const fromLan = await read(lan.address);
        expect(fromLan.code, fromLan.body).toBe(403);
        expect(fromLan.body).toContain('accepted only from this machine');
      } else {
        console.log('no non-loopback IPv4 address on this machine: the service key from a LAN peer is checked by waitlist-http only');
      }
      await third.close();
      closed = true;
      expect(fs.existsSync(`${other}.lock`)).toBe(false);
    } finally {
      if (!closed) await third.close();
    }
  });

  it('refuses to start on a folder that is not a valid database instead of re-creating it empty', async () => {
    const damaged = path.join(tmp, 'damaged');
    fs.mkdirSync(path.join(damaged, 'base'), { recursive: true });
    fs.writeFileSync(path.join(damaged, 'postgresql.conf'), '# rows were here\n');
    const r = await previewIn({ SITEGEN_WAITLIST_DIR: damaged }).then(async (s) => { await s.close(); return null; }, (e: unknown) => e);
    expect(refusal(r)).toContain('exists but is not a valid database (no PG_VERSION); refusing to start');
    expect(fs.readdirSync(damaged).sort()).toEqual(['base', 'postgresql.conf']);
  });
});
