// Security round 3 for the waitlist: invisible characters in emails (database CHECK and the local backend
// over HTTP), the anon-key guard, and the 0600 modes of files the waitlist writes.
import type { PGlite } from '@electric-sql/pglite';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWaitlistBackend, type WaitlistBackend } from '../../plugins/waitlist/backend.ts';
import { createWaitlistClient } from '../../plugins/waitlist/client.ts';
import { anonKeyProblem, waitlistConfig } from '../../plugins/waitlist/guards.ts';
import { applyMigrations, openWaitlistDb } from '../../plugins/waitlist/db.ts';
import { EXTRA_INVISIBLE, INVISIBLE_MIGRATION, invisibleMigrationSql } from '../../plugins/waitlist/invisible.ts';
import { LOCAL_ANON_KEY } from '../../plugins/waitlist/keys.ts';
import { runExport, writeServerFile } from '../../plugins/waitlist/local.ts';
import { ensureServiceKey, newServiceKey, serviceKeyFile } from '../../plugins/waitlist/serviceKey.ts';
import { classifyError, isInputError } from '../../templates/lib/waitlist.ts';
import { emptyDatabase } from '../helpers/waitlistTemplate.ts';
import { scratchDir } from '../helpers/scratchRoot.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MIGRATIONS = path.join(ROOT, 'supabase/migrations');


/** The characters the review found stored as lookalikes, each refused everywhere. */
const REPORTED = [0x00ad, 0x2062, 0xe0000, 0xe0001, 0xe007f, 0x180e, 0x034f, 0x3164, 0x115f, 0x2800, 0x00a0, 0x206a, 0xfff9, 0xfe0f];
const hex = (c: number) => c.toString(16).toUpperCase().padStart(4, '0');
const withChar = (c: number, local = 'admin') => `${local.slice(0, 3)}${String.fromCodePoint(c)}${local.slice(3)}@example.com`;

/** The property set, written here independently of invisible.ts: what the migration's class must equal. */
const PROPERTY = /[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Cf}]/u;
function propertySet(): Set<number> {
  const set = new Set<number>(EXTRA_INVISIBLE);
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (PROPERTY.test(String.fromCodePoint(c))) set.add(c);
  }
  return set;
}

/** The code points of the bracket class in the invisible CHECK of a migration's text (\uXXXX and \UXXXXXXXX escapes). */
function classOfMigration(sql: string): Set<number> {
  const m = sql.match(/add constraint waitlist_email_invisible check \(\s*email !~ '\[([^\]']*)\]'/);
  expect(m, 'the migration adds waitlist_email_invisible as email !~ \'[…]\'').not.toBeNull();
  const body = m![1]!;
  const item = /\\(?:u([0-9A-F]{4})|U([0-9A-F]{8}))(?:-\\(?:u([0-9A-F]{4})|U([0-9A-F]{8})))?/gy;
  const set = new Set<number>();
  let end = 0;
  for (let r; (r = item.exec(body));) {
    const from = parseInt(r[1] ?? r[2]!, 16);
    const to = r[3] ?? r[4] ? parseInt(r[3] ?? r[4]!, 16) : from;
    for (let c = from; c <= to; c++) set.add(c);
    end = item.lastIndex;
  }
  expect(end, 'the class holds only escapes and ranges').toBe(body.length);
  return set;
}

describe('invisible characters: the generated migration', () => {
  const file = path.join(MIGRATIONS, INVISIBLE_MIGRATION);
  const text = () => fs.readFileSync(file, 'utf8');

  it('is a new migration that runs after the first one, and is exactly what the generator writes', () => {
    const names = fs.readdirSync(MIGRATIONS).filter((n) => n.endsWith('.sql')).sort();
    expect(names.indexOf(INVISIBLE_MIGRATION)).toBeGreaterThan(names.indexOf('20250801000000_waitlist.sql'));
    expect(text(), `${INVISIBLE_MIGRATION} is stale: if Node's Unicode changed, write a NEW migration with scripts/waitlist-invisible.ts`).toBe(invisibleMigrationSql());
  });

  it('refuses exactly the Default_Ignorable_Code_Point, White_Space and Format characters plus the Hangul fillers and U+2800', () => {
    const inFile = classOfMigration(text());
    const expected = propertySet();
    const missing = [...expected].filter((c) => !inFile.has(c)).map(hex);
    const extra = [...inFile].filter((c) => !expected.has(c)).map(hex);
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    for (const c of REPORTED) expect(inFile.has(c), `U+${hex(c)}`).toBe(true);
  });
});

describe('invisible characters: the database CHECK', () => {
  let db: PGlite;
  beforeAll(async () => { db = await openWaitlistDb({ dataDir: await emptyDatabase(), migrationsDir: MIGRATIONS }); });
  afterAll(async () => { await db?.close(); });

  const asAnon = (email: string) => db.transaction(async (tx) => {
    await tx.query(`select set_config('role', 'anon', true)`);
    await tx.query('insert into public.waitlist (email) values ($1)', [email]);
  });
  const sqlstate = (p: Promise<unknown>) => p.then(() => 'stored', (e: { code?: string }) => String(e.code));

  it.each(REPORTED.map((c) => [hex(c), c] as const))('refuses an email holding U+%s', async (_h, c) => {
    expect(await sqlstate(asAnon(withChar(c, `check${hex(c)}`)))).toBe('23514');
  });

  it('refuses both ends of every range of the class and stores the characters just outside it', async () => {
    const set = propertySet();
    const refused: string[] = [];
    const stored: string[] = [];
    for (const c of set) {
      if (set.has(c - 1) && set.has(c + 1)) continue; // inner code points: the ends stand for the range
      if ((await sqlstate(asAnon(withChar(c, `edge${hex(c)}`)))) !== '23514') refused.push(hex(c));
      for (const n of [c - 1, c + 1]) {
        // Outside the set and allowed by the shape check (no ASCII control, '@' or surrogate).
        if (set.has(n) || n < 0x21 || n === 0x40 || n === 0x7f || (n >= 0x80 && n < 0xa0) || (n >= 0xd800 && n <= 0xdfff) || n > 0x10ffff) continue;
        if ((await sqlstate(asAnon(withChar(n, `near${hex(n)}`)))) !== 'stored') stored.push(hex(n));
      }
    }
    expect({ notRefused: refused, notStored: stored }).toEqual({ notRefused: [], notStored: [] });
  });

  it('keeps rows stored before the check widened, refuses new ones, and applies again cleanly', async () => {
    // A row from before: the constraint as the first migration had it, then the lookalike stored.
    await db.exec(`alter table public.waitlist drop constraint waitlist_email_invisible`);
    await db.exec(`alter table public.waitlist add constraint waitlist_email_invisible check (email !~ '[\\u200B-\\u200D]')`);
    await db.query('insert into public.waitlist (email) values ($1)', [withChar(0xad, 'stored')]);
    try {
      expect(await applyMigrations(db, MIGRATIONS)).toContain(INVISIBLE_MIGRATION);
      const rows = await db.query('select email from public.waitlist where email = $1', [withChar(0xad, 'stored')]);
      expect(rows.rows).toHaveLength(1);
      expect(await sqlstate(asAnon(withChar(0xad, 'other')))).toBe('23514');
    } finally {
      await db.query('delete from public.waitlist where email = $1', [withChar(0xad, 'stored')]);
    }
  });
});

/** One local backend (in-memory PGlite behind the PostgREST-compatible handler) for the tests that need HTTP. */
const serviceKey = newServiceKey();
let local: Promise<{ url: string; close: () => Promise<void> }> | null = null;
function localBackend(): Promise<{ url: string; close: () => Promise<void> }> {
  local ??= (async () => {
    const backend: WaitlistBackend = createWaitlistBackend({ dataDir: await emptyDatabase(), migrationsDir: MIGRATIONS, serviceKey, log: () => {} });
    const server = http.createServer((req, res) => { void backend.handle(req, res); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await backend.ready;
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await backend.close();
      },
    };
  })();
  return local;
}
afterAll(async () => { if (local) await (await local).close(); });

describe('invisible characters: the local backend over HTTP', () => {
  let url = '';
  beforeAll(async () => { url = (await localBackend()).url; });

  const post = (email: string) => fetch(`${url}/rest/v1/waitlist`, {
    method: 'POST', headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ email }),
  });

  it.each(REPORTED.map((c) => [hex(c), c] as const))('answers 400 (23514) for an email holding U+%s', async (_h, c) => {
    const res = await post(withChar(c, `http${hex(c)}`));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('23514');
  });

  it('does not store adm\\u00ADin as a second admin, and the form shows the spec\'s message for it', async () => {
    expect((await post('admin@example.com')).status).toBe(201);
    const { error, status } = await createWaitlistClient(url, LOCAL_ANON_KEY).from('waitlist').insert({ email: 'adm\u00ADin@example.com' });
    const outcome = classifyError(error, status);
    expect({ outcome, invalid: isInputError(error) }).toEqual({ outcome: 'generic', invalid: true });
    const messages = YAML.parse(fs.readFileSync(path.join(ROOT, 'content/site.yaml'), 'utf8'));
    const generic = JSON.stringify(messages).includes('"generic":"Something went wrong. Please try again."');
    expect(generic).toBe(true);
    const rows = await fetch(`${url}/rest/v1/waitlist?select=email`, { headers: { apikey: serviceKey } });
    const emails = ((await rows.json()) as { email: string }[]).map((r) => r.email).filter((e) => e.replace(/\u00AD/g, '') === 'admin@example.com');
    expect(emails).toEqual(['admin@example.com']);
  });
});

describe('the anon-key guard: exactly one publishable key or one anon JWT', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  const jwt = (payload: object, header: object = { alg: 'HS256', typ: 'JWT' }) => `${b64(JSON.stringify(header))}.${b64(JSON.stringify(payload))}.${b64('signature bytes')}`;
  const anonJwt = jwt({ iss: 'supabase', ref: 'p', role: 'anon' });
  const serviceJwt = jwt({ iss: 'supabase', ref: 'p', role: 'service_role' });
  const SECRET = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';
  const build = (key: string) => waitlistConfig({ mode: 'build', env: { SUPABASE_URL: 'https://p.supabase.co', SUPABASE_ANON_KEY: key } });

  it.each([
    ['sb_publishable_abc123'], ['sb_publishable_x'], ['sb_publishable_Ab3-Zz_09xYw8PqRs-7tUv_1a2b3c4d'], [anonJwt], [LOCAL_ANON_KEY],
    [`  ${anonJwt}\n`],
  ])('accepts %j', (key) => {
    expect(anonKeyProblem(key.trim())).toBeNull();
    const r = build(key);
    expect(r.errors ?? []).toEqual([]);
    expect(r.define?.__WAITLIST_ANON_KEY__).toBe(JSON.stringify(key.trim()));
  });

  it.each([
    ['a publishable key, a space and a secret key', `sb_publishable_x ${SECRET}`],
    ['a publishable key and a secret key with no separator', `sb_publishable_x${SECRET}`],
    ['a publishable key, a comma and a secret key', `sb_publishable_x,${SECRET}`],
    ['a publishable key, a newline and a secret key', `sb_publishable_x\n${SECRET}`],
    ['two publishable keys', 'sb_publishable_x sb_publishable_y'],
    ['two publishable keys with no separator', 'sb_publishable_xsb_publishable_y'],
    ['an anon JWT, a space and a secret key', `${anonJwt} ${SECRET}`],
    ['an anon JWT with a secret key after its signature', `${anonJwt}${SECRET}`],
    ['an anon JWT, a space and a service-role JWT', `${anonJwt} ${serviceJwt}`],
    ['an anon JWT glued to a service-role JWT', `${anonJwt}.${serviceJwt}`],
    ['an anon JWT with a fourth part', `${anonJwt}.${b64('more')}`],
    ['a JWT with a base64 (not base64url) payload', anonJwt.replace(/\./, '.+/')],
    ['a JWT whose header is not JSON', `${b64('not json')}.${anonJwt.split('.')[1]}.sig`],
    ['a JWT whose payload is a list', jwt(['anon'] as unknown as object)],
    ['a service-role JWT', serviceJwt],
    ['a secret key', SECRET],
    ['an upper-case publishable prefix', 'SB_PUBLISHABLE_x'],
    ['a publishable prefix alone', 'sb_publishable_'],
    ['a publishable key with a quote', 'sb_publishable_x"'],
    ['a publishable key with a non-ASCII letter', 'sb_publishable_xé'],
  ])('refuses %s, naming the variable and never echoing the value', (_name, key) => {
    expect(anonKeyProblem(key.trim())).not.toBeNull();
    const r = build(key);
    expect(r.define).toBeUndefined();
    expect(r.errors).toHaveLength(1);
    const text = r.errors![0]!.text;
    expect(text).toMatch(/^SUPABASE_ANON_KEY .*; refusing to compile it into public JavaScript$/);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(anonJwt.split('.')[1]);
  });

  it('says where the secret is in a value that starts like a publishable key', () => {
    expect(build(`sb_publishable_x ${SECRET}`).errors![0]!.text).toBe(
      'SUPABASE_ANON_KEY holds a Supabase secret key (sb_secret_…) at character 18; refusing to compile it into public JavaScript');
  });
});

describe('files the waitlist writes are 0600, also when they already existed with 0644', () => {
  const tmp = scratchDir('sitegen-sec3-');
  const mode = (file: string) => fs.statSync(file).mode & 0o777;
  const quiet = async <T>(fn: () => Promise<T>): Promise<T> => {
    const write = process.stderr.write;
    process.stderr.write = () => true;
    try { return await fn(); } finally { process.stderr.write = write; }
  };

  it('the service-role key file beside an existing database, kept as it was', () => {
    const dataDir = path.join(tmp, 'waitlist');
    const key = newServiceKey();
    fs.writeFileSync(serviceKeyFile(dataDir), `${key}\n`, { mode: 0o644 });
    fs.chmodSync(serviceKeyFile(dataDir), 0o644);
    expect(ensureServiceKey(dataDir)).toBe(key);
    expect(fs.readFileSync(serviceKeyFile(dataDir), 'utf8')).toBe(`${key}\n`);
    expect(mode(serviceKeyFile(dataDir)).toString(8)).toBe('600');
  });

  it('server.json, which `sitegen dev`/`preview` write over the one a previous server left', () => {
    const root = path.join(tmp, 'site');
    const file = path.join(root, '.sitegen', 'server.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"url":"http://127.0.0.1:1"}', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    writeServerFile(root, { url: 'http://127.0.0.1:2', pid: process.pid, dataDir: path.join(tmp, 'waitlist') });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).url).toBe('http://127.0.0.1:2');
    expect(mode(file).toString(8)).toBe('600');
  });

  it('`sitegen waitlist export -o` onto an existing 0644 file, leaving no temporary file', async () => {
    const { url } = await localBackend();
    const out = path.join(tmp, 'export.csv');
    fs.writeFileSync(out, 'old text', { mode: 0o644 });
    fs.chmodSync(out, 0o644);
    const code = await quiet(() => runExport({ root: tmp, env: { SUPABASE_SERVICE_ROLE_KEY: serviceKey } }, { format: 'csv', url, output: out }));
    expect(code).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/^id,created_at,email,/);
    expect(mode(out).toString(8)).toBe('600');
    expect(fs.readdirSync(tmp).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
