// Opens the local waitlist database: PGlite (Postgres compiled to WASM),
// prepared to look like a hosted Supabase project, with every migration in
// supabase/migrations applied.
//
// In:  dataDir -- a folder to persist to (created if missing), or null for a
//      throwaway in-memory database (tests).
// Out: the ready PGlite instance. The caller owns it and should close() it
//      for a clean shutdown (after a crash, Postgres recovers from its WAL).
//      Only one process may open a given dataDir at a time; PGlite does not
//      lock it.

import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/** supabase/migrations, found relative to this file so the cwd does not matter. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../supabase/migrations/', import.meta.url));

// What a hosted Supabase project already has and the migrations rely on:
// the three API roles (service_role bypasses RLS there too) and the default
// privileges that hand every new public table to them -- reproduced so the
// migration's REVOKE is exercised locally, not silently unnecessary.
// PGlite's session user is the superuser `postgres`, which owns what it creates.
const SUPABASE_BOOTSTRAP_SQL = `
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
`;

export interface OpenWaitlistDbOptions {
  dataDir: string | null;
}

export async function openWaitlistDb({ dataDir }: OpenWaitlistDbOptions): Promise<PGlite> {
  let db: PGlite;
  if (dataDir === null) {
    db = new PGlite();
  } else {
    const dir = path.resolve(dataDir);
    await mkdir(dir, { recursive: true });
    db = new PGlite(dir);
  }
  try {
    await db.waitReady;
    await db.exec(SUPABASE_BOOTSTRAP_SQL);
    await applyMigrations(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}

/**
 * Runs every .sql file in name order (the timestamp prefix), every time: the
 * migrations are written to be idempotent, and re-running them re-asserts the
 * grants and policy on a database that may have drifted.
 */
export async function applyMigrations(db: PGlite, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  for (const file of files) {
    const sql = await readFile(path.join(dir, file), 'utf8');
    try {
      // One simple-protocol message is one implicit transaction: a failing
      // migration leaves nothing half-applied.
      await db.exec(sql);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`migration ${file} failed: ${message}`, { cause: error });
    }
  }
  return files;
}
