// `sitegen waitlist export` through the real CLI against a running `sitegen preview`, and its errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixture, sitegen, startServer } from '../helpers/cli.ts';
import { LOCAL_ANON_KEY } from '../../plugins/waitlist/keys.ts';

const root = fixture('basic');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-export-'));
let server: Awaited<ReturnType<typeof startServer>>;

async function signUp(email: string, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${server.url}/rest/v1/waitlist`, {
    method: 'POST',
    headers: { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${LOCAL_ANON_KEY}`, 'Content-Type': 'application/json', Prefer: 'return=minimal' },
    body: JSON.stringify({ email, ...extra }),
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'dist/index.html'))) expect(sitegen(['build', '--root', root, '-q']).code).toBe(0);
  server = await startServer(['preview', '--root', root, '--port', '0'], { env: { SITEGEN_WAITLIST_DIR: dataDir } });
  await signUp('first@example.com', { utm_source: 'news, letter', metadata: { note: 'says "hi"' } });
  await signUp('second@example.com', { referrer: '=HYPERLINK("http://evil")' });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('sitegen waitlist export', () => {
  it('prints every row as CSV from the running local server', () => {
    const r = sitegen(['waitlist', 'export', '--root', root]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\r\n'); // RFC 4180 rows end in CRLF
    expect(lines[0]).toBe('id,created_at,email,utm_source,utm_medium,utm_campaign,utm_term,utm_content,referrer,user_agent,metadata');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('first@example.com,"news, letter"');
    expect(lines[1]).toContain('"{""note"":""says \\""hi\\""""}"');
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('prints JSON and writes to a file with --output', () => {
    const out = path.join(dataDir, 'rows.json');
    const r = sitegen(['waitlist', 'export', '--root', root, '--format', 'json', '--output', out]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(rows.map((x: any) => x.email)).toEqual(['first@example.com', 'second@example.com']);
    expect(rows[0].metadata).toEqual({ note: 'says "hi"' });
  });

  it('refuses an unknown format', () => {
    const r = sitegen(['waitlist', 'export', '--root', root, '--format', 'xml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--format must be csv or json, not "xml"');
  });

  it('says what to do when there is no waitlist to export', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-nosrv-'));
    const r = sitegen(['waitlist', 'export', '--root', empty], { env: { SUPABASE_URL: '' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no waitlist to export: start `sitegen preview` or `sitegen dev`');
  });

  it('needs the service-role key for a remote project', () => {
    const r = sitegen(['waitlist', 'export', '--root', root, '--url', 'https://project.supabase.example'], { env: { SUPABASE_SERVICE_ROLE_KEY: '' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SUPABASE_SERVICE_ROLE_KEY is not set');
  });
});

describe('one server per waitlist database', () => {
  it('refuses a second server on the same data folder, clearly, and takes over a stale lock', async () => {
    const second = await startServer(['preview', '--root', root, '--port', '0'], { env: { SITEGEN_WAITLIST_DIR: dataDir } }).catch((e: Error) => e);
    expect(second).toBeInstanceOf(Error);
    expect(String(second)).toContain('exited with 1');
    expect(String(second)).toMatch(/is in use by another sitegen server \(pid \d+\): stop it, run this one with --no-backend, or give it its own SITEGEN_WAITLIST_DIR/);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-lock-'));
    fs.writeFileSync(`${other}.lock`, '999999'); // a process that does not exist
    const third = await startServer(['preview', '--root', root, '--port', '0'], { env: { SITEGEN_WAITLIST_DIR: other } });
    expect(fs.readFileSync(`${other}.lock`, 'utf8')).toBe(String(third.proc.pid));
    await third.stop();
    expect(fs.existsSync(`${other}.lock`)).toBe(false);
    fs.rmSync(other, { recursive: true, force: true });
  });
});
