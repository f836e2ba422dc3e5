// The local PostgREST stand-in over real HTTP, driven by supabase-js the way
// the site and `sitegen waitlist export` drive it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWaitlistBackend, type WaitlistBackend } from '../../plugins/waitlist/backend.ts';
import { exportWaitlist } from '../../plugins/waitlist/export.ts';
import { createWaitlistClient } from '../../plugins/waitlist/client.ts';
import { LOCAL_ANON_KEY } from '../../plugins/waitlist/keys.ts';
import { newServiceKey } from '../../plugins/waitlist/serviceKey.ts';
import { roleFromRequest } from '../../plugins/waitlist/http.ts';
import { emptyDatabase } from '../helpers/waitlistTemplate.ts';
import { scratchDir } from '../helpers/scratchRoot.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../supabase/migrations');
/** This test's database key (random, as every local database's is). */
const LOCAL_SERVICE_ROLE_KEY = newServiceKey();

interface Served {
  backend: WaitlistBackend;
  server: http.Server;
  url: string;
  log: string[];
}

async function serve(dataDir: string): Promise<Served> {
  const log: string[] = [];
  const backend = createWaitlistBackend({ dataDir, migrationsDir: MIGRATIONS, serviceKey: LOCAL_SERVICE_ROLE_KEY, log: (line) => log.push(line) });
  const server = http.createServer((req, res) => {
    void backend.handle(req, res).then((answered) => {
      if (!answered) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('static 404');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { backend, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}

async function stop({ backend, server }: Served): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await backend.close();
}

// Opening a copy of the empty database still takes its bootstrap and migrations, so the requests of the first
// test still wait for it.

let site: Served;
let readySettled = false;
let firstStaticResponseBeforeReady: boolean | undefined;
let earlyRequests: Promise<[string, number][]>;

beforeAll(async () => {
  site = await serve(await emptyDatabase());
  void site.backend.ready.then(() => { readySettled = true; });
  // Sent while the database is still starting, so they all wait in the queue
  // and are released at the same moment: the hardest case for keeping each
  // request in its own transaction.
  earlyRequests = Promise.all(Array.from({ length: 40 }, (_, i) => {
    const [kind, key, init]: [string, string, RequestInit] =
      i % 4 === 0 ? ['duplicate', LOCAL_ANON_KEY, { method: 'POST', body: '{"email":"early.dup@example.com"}' }]
      : i % 4 === 1 ? ['insert', LOCAL_ANON_KEY, { method: 'POST', body: JSON.stringify({ email: `early${i}@example.com` }) }]
      : i % 4 === 2 ? ['anon read', LOCAL_ANON_KEY, { method: 'GET' }]
      : ['service read', LOCAL_SERVICE_ROLE_KEY, { method: 'GET' }];
    const query = init.method === 'GET' ? '?select=email&limit=1' : '';
    return fetch(`${site.url}/rest/v1/waitlist${query}`, {
      ...init, headers: { apikey: key, 'content-type': 'application/json' },
    }).then((res): [string, number] => [kind, res.status]);
  }));
  // The site must be served while the database is still starting.
  const res = await fetch(`${site.url}/index.html`);
  expect(await res.text()).toBe('static 404');
  firstStaticResponseBeforeReady = !readySettled;
});

afterAll(async () => {
  if (site) await stop(site);
});

const anon = () => createWaitlistClient(site.url, LOCAL_ANON_KEY);
const service = () => createWaitlistClient(site.url, LOCAL_SERVICE_ROLE_KEY);

function rest(pathAndQuery: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const key = init.key === undefined ? LOCAL_ANON_KEY : init.key;
  if (key !== null) headers.set('apikey', key);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${site.url}${pathAndQuery}`, { ...init, headers });
}

async function allRows(select = '*'): Promise<Record<string, unknown>[]> {
  const res = await rest(`/rest/v1/waitlist?select=${select}&order=created_at.asc,id.asc`, { key: LOCAL_SERVICE_ROLE_KEY });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>[];
}

const rowCount = async () => (await allRows('id')).length;

describe('waitlist backend over HTTP', () => {
  it('serves the site while the database starts, then answers queued requests one transaction each', async () => {
    expect(firstStaticResponseBeforeReady).toBe(true);
    const results = await earlyRequests;
    const statuses = (kind: string) => results.filter(([k]) => k === kind).map(([, s]) => s).sort();
    expect(statuses('duplicate')).toEqual([201, ...Array(9).fill(409)]);
    expect(statuses('insert')).toEqual(Array(10).fill(201));
    expect(statuses('anon read')).toEqual(Array(10).fill(401));
    expect(statuses('service read')).toEqual(Array(10).fill(200));
    expect(await rowCount()).toBe(11);
    const { error, status } = await anon().from('waitlist').insert({ email: 'first@example.com' });
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(readySettled).toBe(true);
  });

  it('inserts as anon without select and keeps every field', async () => {
    const row = {
      email: 'Full.Row@Example.com', utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch',
      utm_term: 'cofounder', utm_content: 'hero', referrer: 'https://example.org/post', user_agent: 'Mozilla/5.0 test',
      metadata: { page: '/for-consumers/online/saas' },
    };
    const { error, status, data } = await anon().from('waitlist').insert(row);
    expect([error, status, data]).toEqual([null, 201, null]);
    const stored = (await allRows()).find((r) => r.email === row.email);
    expect(stored).toMatchObject(row);
    expect(stored?.id).toEqual(expect.any(Number));
    expect(new Date(String(stored?.created_at)).getTime()).not.toBeNaN();
  });

  it('reports a duplicate in another letter case as 23505 / 409', async () => {
    const { error, status } = await anon().from('waitlist').insert({ email: 'FIRST@example.COM' });
    expect(status).toBe(409);
    expect(error?.code).toBe('23505');
    expect(error?.message).toContain('waitlist_email_lower_key');
  });

  it('refuses a wrong or missing key with 401 Invalid API key', async () => {
    const wrong = createWaitlistClient(site.url, 'not-a-key');
    const { error, status } = await wrong.from('waitlist').insert({ email: 'wrongkey@example.com' });
    expect(status).toBe(401);
    expect(error?.message).toContain('Invalid API key');
    const missing = await rest('/rest/v1/waitlist', { method: 'POST', key: null, body: '{"email":"nokey@example.com"}' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' });
    // A valid apikey does not excuse a forged bearer token.
    const forged = await rest('/rest/v1/waitlist?select=email', { headers: { authorization: 'Bearer forged' }, key: LOCAL_ANON_KEY });
    expect(forged.status).toBe(401);
    expect((await allRows('email')).map((r) => r.email)).not.toContain('wrongkey@example.com');
  });

  it('refuses anon any read, including reading its own insert back', async () => {
    const read = await anon().from('waitlist').select('*');
    expect(read.status).toBe(401);
    expect(read.error?.code).toBe('42501');
    expect(read.data).toBeNull();
    const readBack = await anon().from('waitlist').insert({ email: 'readback@example.com' }).select();
    expect(readBack.status).toBe(401);
    expect(readBack.error?.code).toBe('42501');
    // The failed RETURNING rolled the insert back.
    expect((await allRows('email')).map((r) => r.email)).not.toContain('readback@example.com');
  });

  it('lets the service role read, order and page', async () => {
    const { data, error, count } = await service().from('waitlist')
      .select('email', { count: 'exact' }).order('created_at', { ascending: false }).order('id', { ascending: false }).range(0, 0);
    expect(error).toBeNull();
    expect(data).toEqual([{ email: 'Full.Row@Example.com' }]);
    expect(count).toBe(await rowCount());
    const representation = await service().from('waitlist').insert({ email: 'svc@example.com' }).select('email, metadata').single();
    expect(representation.error).toBeNull();
    expect(representation.data).toEqual({ email: 'svc@example.com', metadata: {} });
  });

  it('maps constraint failures to 400 with the Postgres code', async () => {
    const bad = await anon().from('waitlist').insert({ email: 'not an email' });
    expect([bad.status, bad.error?.code]).toEqual([400, '23514']);
    const long = await anon().from('waitlist').insert({ email: 'long@example.com', utm_source: 'x'.repeat(257) });
    expect([long.status, long.error?.code]).toEqual([400, '23514']);
    const arrayMeta = await anon().from('waitlist').insert({ email: 'meta@example.com', metadata: [1] });
    expect([arrayMeta.status, arrayMeta.error?.code]).toEqual([400, '23514']);
  });

  it('refuses a body over 16 KB with 413, a non-JSON type with 415, an unknown column with 400', async () => {
    const before = await rowCount();
    const big = await rest('/rest/v1/waitlist', {
      method: 'POST', body: JSON.stringify({ email: 'big@example.com', metadata: { blob: 'x'.repeat(17 * 1024) } }),
    });
    expect(big.status).toBe(413);
    const text = await rest('/rest/v1/waitlist', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"email":"t@example.com"}' });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ code: 'PGRST107' });
    const unknown = await anon().from('waitlist').insert({ email: 'col@example.com', is_admin: true });
    expect([unknown.status, unknown.error?.code]).toEqual([400, 'PGRST204']);
    expect(unknown.error?.message).toContain("'is_admin'");
    const invalidJson = await rest('/rest/v1/waitlist', { method: 'POST', body: '{"email":' });
    expect(invalidJson.status).toBe(400);
    expect(await rowCount()).toBe(before);
  });

  it('refuses oversized batches whole, and honours ?columns and missing=default', async () => {
    const before = await rowCount();
    const huge = await anon().from('waitlist').insert(Array.from({ length: 10_000 }, (_, i) => ({ email: `bulk${i}@example.com` })));
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    const justOver = await service().from('waitlist').insert(Array.from({ length: 101 }, (_, i) => ({ email: `b${i}@x.io` })));
    expect([justOver.status, justOver.error?.code]).toEqual([400, 'PGRST102']);
    // The public key adds one row per request, as the hosted database's trigger enforces; with or without
    // missing=default (which this backend runs as one statement per row).
    const pair = [{ email: 'pair1@example.com' }, { email: 'pair2@example.com' }];
    for (const defaultToNull of [true, false]) {
      const two = await anon().from('waitlist').insert(pair, { defaultToNull });
      expect([two.status, two.error?.code, two.error?.message]).toEqual([400, '23514', 'the public key may add one row per request']);
    }
    expect(await rowCount()).toBe(before);
    // supabase-js sends ?columns=...; without missing=default absent keys are NULL, as in PostgREST.
    const mixed = [{ email: 'mixed1@example.com' }, { email: 'mixed2@example.com', metadata: { a: 1 } }];
    const nullMeta = await service().from('waitlist').insert(mixed);
    expect([nullMeta.status, nullMeta.error?.code]).toEqual([400, '23502']);
    const defaults = await service().from('waitlist').insert(mixed, { defaultToNull: false });
    expect(defaults.error).toBeNull();
    expect(await rowCount()).toBe(before + 2);
  });

  it.each([
    ['GET', '/rest/v1/pg_user'],
    ['GET', '/rest/v1/pg_catalog.pg_shadow?select=*'],
    ['GET', '/rest/v1/rpc/version'],
    ['GET', '/rest/v1/waitlist?select=*,x:pg_shadow(*)'],
    ['GET', '/rest/v1/waitlist?select=email,(select%20passwd%20from%20pg_shadow)'],
    ['GET', '/rest/v1/waitlist?select=email::text'],
    ['GET', '/rest/v1/waitlist?order=created_at;drop%20table%20waitlist'],
    ['GET', '/rest/v1/waitlist?order=(select%201)'],
    ['GET', '/rest/v1/waitlist?limit=1;select%201'],
    ['GET', '/rest/v1/waitlist?email=eq.first@example.com'],
    ['GET', '/rest/v1/waitlist?or=(id.gt.0)'],
    ['PATCH', '/rest/v1/waitlist?email=eq.first@example.com'],
    ['DELETE', '/rest/v1/waitlist'],
    ['PUT', '/rest/v1/waitlist'],
  ])('refuses %s %s with a 4xx, even for the service role', async (method, url) => {
    const before = await allRows();
    const res = await rest(url, { method, key: LOCAL_SERVICE_ROLE_KEY, body: method === 'GET' || method === 'DELETE' ? undefined : '{"email":"x@y.zz"}' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await res.json()).toHaveProperty('message');
    expect(await allRows()).toEqual(before);
  });

  it('answers CORS for the site\'s own origin only, and leaves other paths to the site', async () => {
    const preflight = (origin: string) => fetch(`${site.url}/rest/v1/waitlist`, {
      method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'apikey, content-type' },
    });
    const own = await preflight(site.url);
    expect(own.status).toBe(204);
    expect(own.headers.get('access-control-allow-origin')).toBe(site.url);
    expect(own.headers.get('access-control-allow-headers')).toContain('apikey');
    const other = await preflight('http://elsewhere.test');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    // A page elsewhere cannot read rows with the service key either: no CORS grant on the answer.
    const read = await rest('/rest/v1/waitlist?select=email&limit=1', { key: LOCAL_SERVICE_ROLE_KEY, headers: { origin: 'http://elsewhere.test' } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${site.url}/rest/v1`)).status).toBe(404);
    expect(await (await fetch(`${site.url}/rest/v1`)).text()).toBe('static 404');
  });

  it('keeps 500 concurrent inserts apart: exactly 500 new rows, roles and failures never mixed', async () => {
    const before = await rowCount();
    const post = (email: string, utm: string) =>
      rest('/rest/v1/waitlist', { method: 'POST', body: JSON.stringify({ email, utm_source: utm }) }).then((res) => res.status);
    const get = (key: string) => rest('/rest/v1/waitlist?select=email&limit=1', { key }).then((res) => res.status);
    // Failing duplicates and reads as both roles are interleaved with the good
    // inserts: if two requests ever shared a transaction, an aborted one would
    // take good rows with it, or a read would run under the other role.
    const jobs: Promise<[string, number]>[] = [];
    for (let i = 0; i < 500; i++) {
      jobs.push(post(`concurrent${i}@example.com`, `c${i}`).then((s) => ['insert', s]));
      if (i % 5 === 0) jobs.push(post('FIRST@example.com', 'dup').then((s) => ['duplicate', s]));
      if (i % 10 === 0) jobs.push(get(LOCAL_ANON_KEY).then((s) => ['anon read', s]));
      if (i % 10 === 5) jobs.push(get(LOCAL_SERVICE_ROLE_KEY).then((s) => ['service read', s]));
    }
    const results = await Promise.all(jobs);
    const statuses = (kind: string) => [...new Set(results.filter(([k]) => k === kind).map(([, s]) => s))];
    expect(statuses('insert')).toEqual([201]);
    expect(statuses('duplicate')).toEqual([409]);
    expect(statuses('anon read')).toEqual([401]);
    expect(statuses('service read')).toEqual([200]);
    const rows = await allRows('email,utm_source');
    expect(rows.length).toBe(before + 500);
    const concurrent = rows.filter((r) => String(r.email).startsWith('concurrent'));
    expect(new Set(concurrent.map((r) => r.email)).size).toBe(500);
    expect(concurrent.every((r) => r.email === `concurrent${String(r.utm_source).slice(1)}@example.com`)).toBe(true);
  });

  it('exports every row, across pages, to JSON and to CSV with proper quoting', async () => {
    // Enough rows that the 1000-row pages must be followed.
    for (let batch = 0; (await rowCount()) <= 1000; batch++) {
      const { error } = await service().from('waitlist').insert(Array.from({ length: 100 }, (_, i) => ({ email: `page${batch}-${i}@example.com` })));
      expect(error).toBeNull();
    }
    const tricky = { email: 'tricky@example.com', utm_source: 'a,b', utm_medium: 'say "hi"', utm_campaign: 'line1\nline2', utm_term: '=HYPERLINK("http://evil")', metadata: { note: 'x,"y"' } };
    expect((await anon().from('waitlist').insert(tricky)).error).toBeNull();
    const total = await rowCount();
    expect(total).toBeGreaterThan(1000);

    const json = JSON.parse(await exportWaitlist({ url: site.url, serviceKey: LOCAL_SERVICE_ROLE_KEY, format: 'json' })) as Record<string, unknown>[];
    expect(json).toHaveLength(total);
    expect(new Set(json.map((r) => r.id)).size).toBe(total);
    expect(json.find((r) => r.email === 'tricky@example.com')).toMatchObject(tricky);

    const csv = await exportWaitlist({ url: site.url, serviceKey: LOCAL_SERVICE_ROLE_KEY, format: 'csv' });
    const records = parseCsv(csv);
    expect(records[0]).toEqual(['id', 'created_at', 'email', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'referrer', 'user_agent', 'metadata']);
    expect(records).toHaveLength(total + 1);
    const row = records.find((r) => r[2] === 'tricky@example.com')!;
    expect(row.slice(3, 7)).toEqual(['a,b', 'say "hi"', 'line1\nline2', `'=HYPERLINK("http://evil")`]);
    expect(JSON.parse(row[10]!)).toEqual({ note: 'x,"y"' });
    expect(csv).toContain(`"a,b","say ""hi""","line1\nline2","'=HYPERLINK(""http://evil"")",,,,`);
  });

  it('logged no internal errors along the way', () => {
    expect(site.log.filter((line) => !line.includes('database ready'))).toEqual([]);
  });

  it('refuses the export with a wrong key', async () => {
    await expect(exportWaitlist({ url: site.url, serviceKey: LOCAL_ANON_KEY, format: 'json' })).rejects.toThrow(/42501/);
    await expect(exportWaitlist({ url: site.url, serviceKey: 'nope', format: 'csv' })).rejects.toThrow(/Invalid API key/);
  });
});

describe('only this machine', () => {
  /** A raw request with any Host header (fetch would not let us set one). */
  function withHost(host: string, key: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${site.url}/rest/v1/waitlist?select=email&limit=1`, { headers: { host, apikey: key } }, (res) => { res.resume(); resolve(res.statusCode!); });
      req.on('error', reject);
      req.end();
    });
  }

  it('refuses a Host that is not a loopback name (DNS rebinding) with 421, whatever the key', async () => {
    const port = new URL(site.url).port;
    expect(await withHost(`evil.example:${port}`, LOCAL_SERVICE_ROLE_KEY)).toBe(421);
    expect(await withHost('192.168.1.20', LOCAL_SERVICE_ROLE_KEY)).toBe(421);
    expect(await withHost('localhost.evil.example', LOCAL_ANON_KEY)).toBe(421);
    for (const ok of [`localhost:${port}`, `127.0.0.1:${port}`, `127.1.2.3:${port}`, `[::1]:${port}`]) {
      expect(await withHost(ok, LOCAL_SERVICE_ROLE_KEY)).toBe(200);
    }
  });

  it('accepts the Host it was configured with (--host) besides loopback names', async () => {
    const backend = createWaitlistBackend({ dataDir: await emptyDatabase(), migrationsDir: MIGRATIONS, host: 'devbox.lan', log: () => {} });
    const answer = async (host: string) => {
      const res = { statusCode: 0, writeHead(status: number) { this.statusCode = status; }, end() {}, headersSent: false, destroyed: false } as any;
      await backend.handle({ url: '/rest/v1/waitlist', method: 'OPTIONS', headers: { host }, socket: { remoteAddress: '127.0.0.1' } } as any, res);
      return res.statusCode;
    };
    expect([await answer('devbox.lan:5173'), await answer('other.lan:5173')]).toEqual([204, 421]);
    await backend.close();
  });

  it('honours the service-role key only from a loopback peer', () => {
    const req = (remoteAddress: string) => ({ headers: { apikey: LOCAL_SERVICE_ROLE_KEY }, socket: { remoteAddress } }) as any;
    expect(roleFromRequest(req('127.0.0.1'), LOCAL_SERVICE_ROLE_KEY)).toBe('service_role');
    expect(roleFromRequest(req('::1'), LOCAL_SERVICE_ROLE_KEY)).toBe('service_role');
    expect(roleFromRequest(req('::ffff:127.0.0.1'), LOCAL_SERVICE_ROLE_KEY)).toBe('service_role');
    expect(() => roleFromRequest(req('192.168.1.7'), LOCAL_SERVICE_ROLE_KEY)).toThrow(/accepted only from this machine/);
    // The anon key works from anywhere (it can only insert).
    expect(roleFromRequest({ headers: { apikey: LOCAL_ANON_KEY }, socket: { remoteAddress: '192.168.1.7' } } as any, LOCAL_SERVICE_ROLE_KEY)).toBe('anon');
  });
});

describe('persistence and startup failure', () => {
  it('keeps data in a dataDir across close() and reopen', async () => {
    const db = await emptyDatabase();
    const first = await serve(db);
    const saved = await createWaitlistClient(first.url, LOCAL_ANON_KEY).from('waitlist').insert({ email: 'kept@example.com', metadata: { n: 1 } });
    expect(saved.error).toBeNull();
    await stop(first);
    const second = await serve(db);
    try {
      const { data, error } = await createWaitlistClient(second.url, LOCAL_SERVICE_ROLE_KEY).from('waitlist').select('email, metadata');
      expect(error).toBeNull();
      expect(data).toEqual([{ email: 'kept@example.com', metadata: { n: 1 } }]);
    } finally {
      await stop(second);
    }
  });

  it('answers 503 and logs when the database cannot start', async () => {
    const notADir = path.join(scratchDir('sitegen-waitlist-'), 'file');
    await writeFile(notADir, 'occupied');
    const broken = await serve(notADir);
    try {
      await expect(broken.backend.ready).rejects.toThrow();
      const res = await fetch(`${broken.url}/rest/v1/waitlist`, { method: 'POST', headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' }, body: '{"email":"a@b.co"}' });
      expect(res.status).toBe(503);
      expect(broken.log.join('\n')).toContain('failed to start');
    } finally {
      await stop(broken);
    }
  });
});

/** A strict RFC 4180 reader, so the test does not trust the writer's own logic. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (ch === '"') { quoted = false; i++; continue; }
      field += ch; i++; continue;
    }
    if (ch === '"' && field === '') { quoted = true; i++; continue; }
    if (ch === ',') { record.push(field); field = ''; i++; continue; }
    if (ch === '\r' && text[i + 1] === '\n') { record.push(field); records.push(record); record = []; field = ''; i += 2; continue; }
    if (ch === '"' || ch === '\n' || ch === '\r') throw new Error(`bare ${JSON.stringify(ch)} at ${i}`);
    field += ch; i++;
  }
  if (field !== '' || record.length > 0) throw new Error('missing final CRLF');
  return records;
}
