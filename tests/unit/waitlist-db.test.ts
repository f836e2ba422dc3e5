// The migration on PGlite: what anon may and may not do, the constraints,
// and that running it twice changes nothing.
import type { PGlite } from '@electric-sql/pglite';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, openWaitlistDb } from '../../plugins/waitlist/db.ts';
import { scratchDir } from '../helpers/scratchRoot.ts';
import { emptyDatabase } from '../helpers/waitlistTemplate.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../supabase/migrations');
let db: PGlite;

beforeAll(async () => {
  // A copy of the site project's empty database (creating one is the last describe's test).
  db = await openWaitlistDb({ dataDir: await emptyDatabase(), migrationsDir: MIGRATIONS });
  // openWaitlistDb ran the migrations once; a second run must be harmless.
  expect(await applyMigrations(db, MIGRATIONS)).toContain('20250801000000_waitlist.sql');
});

afterAll(async () => {
  await db?.close();
});

type Role = 'anon' | 'authenticated' | 'service_role';

/** Runs one statement in its own transaction as `role`, as the backend does. */
async function as<T = Record<string, unknown>>(role: Role, sql: string, params: unknown[] = []): Promise<T[]> {
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('role', $1, true)`, [role]);
    return (await tx.query<T>(sql, params)).rows;
  });
}

async function sqlstate(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return String((error as { code?: string }).code);
  }
  return 'no error';
}

let counter = 0;
const fresh = () => `person${++counter}@example.com`;
const insertAsAnon = (fields: Record<string, unknown>) => {
  const columns = Object.keys(fields);
  const placeholders = columns.map((column, i) => (column === 'metadata' ? `$${i + 1}::jsonb` : `$${i + 1}`));
  return as('anon', `insert into public.waitlist (${columns.join(', ')}) values (${placeholders.join(', ')})`,
    columns.map((column) => (column === 'metadata' ? JSON.stringify(fields[column]) : fields[column])));
};
const countByEmail = async (email: string) =>
  (await db.query<{ n: number }>('select count(*)::int as n from public.waitlist where email = $1', [email])).rows[0]!.n;

describe('waitlist migration', () => {
  it('is idempotent: after two runs there is one policy and the same grants', async () => {
    const policies = await db.query<{ policyname: string; cmd: string; roles: string[] }>(
      `select policyname, cmd, roles from pg_policies where schemaname = 'public' and tablename = 'waitlist'`);
    expect(policies.rows).toEqual([{ policyname: 'waitlist_insert_anyone', cmd: 'INSERT', roles: ['anon', 'authenticated'] }]);
    const rls = await db.query<{ relrowsecurity: boolean }>(`select relrowsecurity from pg_class where oid = 'public.waitlist'::regclass`);
    expect(rls.rows[0]!.relrowsecurity).toBe(true);
    const privileges = await db.query<Record<string, boolean>>(`select
      has_table_privilege('anon', 'public.waitlist', 'SELECT') as anon_select,
      has_table_privilege('anon', 'public.waitlist', 'UPDATE') as anon_update,
      has_table_privilege('anon', 'public.waitlist', 'DELETE') as anon_delete,
      has_table_privilege('authenticated', 'public.waitlist', 'SELECT') as authenticated_select,
      has_column_privilege('anon', 'public.waitlist', 'email', 'INSERT') as anon_insert_email,
      has_column_privilege('anon', 'public.waitlist', 'metadata', 'INSERT') as anon_insert_metadata,
      has_column_privilege('anon', 'public.waitlist', 'id', 'INSERT') as anon_insert_id,
      has_column_privilege('anon', 'public.waitlist', 'created_at', 'INSERT') as anon_insert_created_at,
      has_sequence_privilege('anon', pg_get_serial_sequence('public.waitlist', 'id'), 'SELECT') as anon_read_sequence,
      has_table_privilege('service_role', 'public.waitlist', 'SELECT') as service_select`);
    expect(privileges.rows[0]).toEqual({
      anon_select: false, anon_update: false, anon_delete: false, authenticated_select: false,
      anon_insert_email: true, anon_insert_metadata: true, anon_insert_id: false, anon_insert_created_at: false,
      anon_read_sequence: false, service_select: true,
    });
  });

  it('lets anon and authenticated insert, and service_role read the rows back', async () => {
    const a = fresh();
    const b = fresh();
    await insertAsAnon({ email: a, utm_source: 'newsletter', metadata: { plan: 'founder' } });
    await as('authenticated', 'insert into public.waitlist (email) values ($1)', [b]);
    const rows = await as<{ email: string; utm_source: string | null; metadata: unknown; created_at: Date }>(
      'service_role', 'select email, utm_source, metadata, created_at from public.waitlist where email = any($1) order by id', [[a, b]]);
    expect(rows.map((row) => [row.email, row.utm_source, row.metadata])).toEqual([[a, 'newsletter', { plan: 'founder' }], [b, null, {}]]);
    expect(rows[0]!.created_at).toBeInstanceOf(Date);
  });

  it('refuses anon every read and change, including reading an insert back', async () => {
    const email = fresh();
    await insertAsAnon({ email });
    expect(await sqlstate(as('anon', 'select * from public.waitlist'))).toBe('42501');
    expect(await sqlstate(as('anon', 'select count(*) from public.waitlist'))).toBe('42501');
    expect(await sqlstate(as('anon', `update public.waitlist set utm_source = 'x'`))).toBe('42501');
    expect(await sqlstate(as('anon', 'delete from public.waitlist'))).toBe('42501');
    expect(await sqlstate(as('anon', 'truncate public.waitlist'))).toBe('42501');
    expect(await sqlstate(as('anon', 'insert into public.waitlist (email) values ($1) returning id', [fresh()]))).toBe('42501');
    expect(await sqlstate(as('anon', 'insert into public.waitlist (id, email) values (999999, $1)', [fresh()]))).toBe('42501');
    expect(await sqlstate(as('anon', `select last_value from ${'public.waitlist_id_seq'}`))).toBe('42501');
    expect(await countByEmail(email)).toBe(1);
  });

  it('enforces the role with SET LOCAL ROLE as well as set_config', async () => {
    const code = await sqlstate(db.transaction(async (tx) => {
      await tx.exec('set local role anon');
      await tx.query('select email from public.waitlist');
    }));
    expect(code).toBe('42501');
    // The role ends with the transaction; the connection is back to the owner.
    expect((await db.query<{ current_user: string }>('select current_user')).rows[0]!.current_user).toBe('postgres');
  });

  it('hides rows from anon through RLS even if a SELECT grant slipped in', async () => {
    await insertAsAnon({ email: fresh() });
    const seen = await db.transaction(async (tx) => {
      await tx.exec('grant select on public.waitlist to anon');
      await tx.query(`select set_config('role', 'anon', true)`);
      const rows = (await tx.query('select * from public.waitlist')).rows;
      await tx.rollback();
      return rows.length;
    });
    expect(seen).toBe(0);
    expect(await sqlstate(as('anon', 'select * from public.waitlist'))).toBe('42501');
  });

  it.each(['no-at-sign', 'a@b', 'a b@c.com', '', ' a@b.co', 'a@b.co ', 'a@@b.co', 'a@b.c', 'tab\t@b.co', 'a@b.co\n'])(
    'refuses the malformed email %j', async (email) => {
      expect(await sqlstate(insertAsAnon({ email }))).toBe('23514');
    });

  it('accepts an email of 254 characters and refuses one of 255', async () => {
    const at254 = 'a'.repeat(254 - '@example.com'.length) + '@example.com';
    await insertAsAnon({ email: at254 });
    expect(await countByEmail(at254)).toBe(1);
    expect(await sqlstate(insertAsAnon({ email: 'b' + at254 }))).toBe('23514');
    expect(await sqlstate(as('anon', 'insert into public.waitlist (email) values (null)'))).toBe('23502');
  });

  it.each([
    ['utm_source', 256], ['utm_medium', 256], ['utm_campaign', 256], ['utm_term', 256], ['utm_content', 256],
    ['referrer', 2048], ['user_agent', 1024],
  ] as const)('caps %s at %i characters', async (column, max) => {
    await insertAsAnon({ email: fresh(), [column]: 'x'.repeat(max) });
    expect(await sqlstate(insertAsAnon({ email: fresh(), [column]: 'x'.repeat(max + 1) }))).toBe('23514');
  });

  it('requires metadata to be a JSON object of at most 4096 bytes', async () => {
    expect(await sqlstate(insertAsAnon({ email: fresh(), metadata: [1, 2] }))).toBe('23514');
    expect(await sqlstate(insertAsAnon({ email: fresh(), metadata: 'text' }))).toBe('23514');
    expect(await sqlstate(insertAsAnon({ email: fresh(), metadata: { blob: 'x'.repeat(5000) } }))).toBe('23514');
    expect(await sqlstate(as('anon', 'insert into public.waitlist (email, metadata) values ($1, null)', [fresh()]))).toBe('23502');
    await insertAsAnon({ email: fresh(), metadata: { blob: 'x'.repeat(4000) } });
  });

  it('treats the same address in another letter case as a duplicate', async () => {
    await insertAsAnon({ email: 'Case.Test@Example.com' });
    expect(await sqlstate(insertAsAnon({ email: 'case.test@example.COM' }))).toBe('23505');
    expect(await countByEmail('case.test@example.COM')).toBe(0);
  });

  it('stores SQL-looking input as inert text', async () => {
    // No spaces, so the address passes the shape check and reaches the table.
    const email = `x');drop/**/table/**/waitlist;--@example.com`;
    const sneaky = `'); drop table public.waitlist; --`;
    await insertAsAnon({ email, utm_source: sneaky, referrer: `' or 1=1 --`, metadata: { q: `"; delete from waitlist; --` } });
    const rows = await as<{ utm_source: string; referrer: string; metadata: unknown }>(
      'service_role', 'select utm_source, referrer, metadata from public.waitlist where email = $1', [email]);
    expect(rows).toEqual([{ utm_source: sneaky, referrer: `' or 1=1 --`, metadata: { q: `"; delete from waitlist; --` } }]);
    const table = await db.query(`select to_regclass('public.waitlist') as t`);
    expect(table.rows[0]).toEqual({ t: 'waitlist' });
    expect((await db.query<{ n: number }>('select count(*)::int as n from public.waitlist')).rows[0]!.n).toBeGreaterThan(5);
  });

  it('restores dropped constraints, policy and trigger when it runs again', async () => {
    await db.exec(`alter table public.waitlist drop constraint waitlist_email_shape;
      alter table public.waitlist drop constraint waitlist_metadata_size;
      drop policy waitlist_insert_anyone on public.waitlist;
      drop trigger waitlist_one_row_per_insert on public.waitlist;`);
    await insertAsAnon({ email: fresh() }).catch(() => {}); // no policy: refused, nothing else changes
    await applyMigrations(db, MIGRATIONS);
    expect(await sqlstate(insertAsAnon({ email: 'no-at-sign' }))).toBe('23514');
    expect(await sqlstate(insertAsAnon({ email: fresh(), metadata: { blob: 'x'.repeat(5000) } }))).toBe('23514');
    await insertAsAnon({ email: fresh() }); // the policy is back
    expect(await sqlstate(as('anon', 'insert into public.waitlist (email) values ($1), ($2)', [fresh(), fresh()]))).toBe('23514');
  });

  it('lets anon add one row per insert statement; service_role may add many', async () => {
    const [a, b] = [fresh(), fresh()];
    expect(await sqlstate(as('anon', 'insert into public.waitlist (email) values ($1), ($2)', [a, b]))).toBe('23514');
    expect(await sqlstate(as('authenticated', 'insert into public.waitlist (email) select x from unnest($1::text[]) x', [[a, b]]))).toBe('23514');
    expect(await countByEmail(a) + await countByEmail(b)).toBe(0);
    await as('service_role', 'insert into public.waitlist (email) values ($1), ($2)', [a, b]);
    expect(await countByEmail(a) + await countByEmail(b)).toBe(2);
  });

  it.each([0x202a, 0x202e, 0x2066, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff].map((c) => [c.toString(16).toUpperCase().padStart(4, '0'), c] as const))(
    'refuses an email holding the invisible character U+%s', async (_hex, code) => {
      const email = `pay${String.fromCodePoint(code)}pal@example.com`;
      expect(await sqlstate(insertAsAnon({ email }))).toBe('23514');
    });
});

describe('the database folder', () => {
  const tmp = scratchDir('sitegen-dbdir-');

  it('is created private (0700) with no file others can read, off the opening thread, and a damaged one is refused, not replaced', async () => {
    const dir = path.join(tmp, 'db');
    // The longest the thread did not get to run a 10 ms timer, against the whole open: creating the database
    // (Postgres' initdb, seconds) on this thread would be one block of nearly all of it. Made on a worker, the
    // thread goes on running meanwhile (a dev server serves pages).
    let last = performance.now(), longest = 0;
    const tick = setInterval(() => { const now = performance.now(); longest = Math.max(longest, now - last); last = now; }, 10);
    const t0 = performance.now();
    const first = await openWaitlistDb({ dataDir: dir, migrationsDir: MIGRATIONS });
    const total = performance.now() - t0;
    clearInterval(tick);
    expect(longest, `longest pause ${longest.toFixed(0)} ms of ${total.toFixed(0)} ms`).toBeLessThan(total / 2);
    expect(fs.readdirSync(tmp).filter((n) => n.startsWith('db.'))).toEqual([]); // nothing left beside it
    await first.query(`insert into public.waitlist (email) values ('kept@example.com')`);
    await first.close();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const readable = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => fs.statSync(path.join(dir, f)).mode & 0o077);
    expect(readable).toEqual([]);
    fs.rmSync(path.join(dir, 'PG_VERSION'));
    await expect(openWaitlistDb({ dataDir: dir, migrationsDir: MIGRATIONS })).rejects.toThrow(/exists but is not a valid database \(no PG_VERSION\); refusing to start/);
    expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(false); // nothing was re-created over it
  });

});
