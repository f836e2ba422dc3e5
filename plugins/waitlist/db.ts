// Opens the local waitlist database: PGlite (Postgres compiled to WASM),
// prepared to look like a hosted Supabase project, with every migration in
// the site's supabase/migrations applied.
//
// In:  dataDir -- a folder to persist to (created, mode 0700, if missing);
//      migrationsDir.
// Out: the ready PGlite instance. The caller owns it and should close() it
//      for a clean shutdown (after a crash, Postgres recovers from its WAL).
//      Only one process may open a given dataDir at a time; PGlite does not
//      lock it (local.ts does).
//
// PGlite is imported when a database is opened, never at module load: this
// file is compiled into the site module, which every build loads.
//
// A new database on disk is created (Postgres' initdb, seconds of CPU) on a
// worker thread, then opened here like any existing one: the dev server and
// preview go on answering requests meanwhile, where initdb on their own thread
// held every page for seconds on a fresh clone's first `sitegen dev`.

import fs from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';

/** A data folder that holds something other than a database: never replaced, never served half. */
export class DamagedDatabaseError extends Error {
  override name = 'DamagedDatabaseError';
}

/**
 * What is in dataDir: nothing yet (a new database is created there), or a database (PG_VERSION present).
 * Anything else -- files but no PG_VERSION, a file instead of a folder -- is refused: creating a fresh,
 * empty database over it would silently lose the rows a damaged one still holds.
 */
export function inspectDataDir(dataDir: string): 'new' | 'database' {
  let entries: string[];
  try {
    if (!fs.statSync(dataDir).isDirectory()) throw new DamagedDatabaseError(`${dataDir} is not a folder, so it cannot hold the waitlist database`);
    entries = fs.readdirSync(dataDir);
  } catch (e: any) {
    if (e?.code === 'ENOENT') return 'new';
    throw e;
  }
  if (entries.length === 0) return 'new';
  if (entries.includes('PG_VERSION')) return 'database';
  throw new DamagedDatabaseError(`${dataDir} exists but is not a valid database (no PG_VERSION); refusing to start rather than replace it with an empty one. Restore it from a backup, or move it away to start a new database.`);
}

/** Removes group and other access below dir: Postgres writes files 0666 minus the umask. */
function makePrivate(dir: string): void {
  fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath ?? (entry as any).path, entry.name);
    try { fs.chmodSync(file, entry.isDirectory() ? 0o700 : 0o600); } catch { /* removed meanwhile */ }
  }
}

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
  dataDir: string;
  /** The folder of .sql migrations (the site's supabase/migrations). */
  migrationsDir: string;
}

export async function openWaitlistDb({ dataDir, migrationsDir }: OpenWaitlistDbOptions): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = path.resolve(dataDir);
  if (inspectDataDir(dir) === 'new') {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    await initdbOffThread(dir, migrationsDir);
  }
  fs.chmodSync(dir, 0o700);
  const db = new PGlite(dir);
  try {
    await db.waitReady;
    await db.exec(SUPABASE_BOOTSTRAP_SQL);
    await applyMigrations(db, migrationsDir);
    makePrivate(dir);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}

// The worker's whole program: Postgres' initdb in a new folder, and nothing else (the bootstrap and the
// migrations run when the database is opened, as on every open).
const INITDB = `const { workerData, parentPort } = require('node:worker_threads');
const { PGlite } = require(workerData.pglite);
(async () => { const db = new PGlite(workerData.dir); await db.waitReady; await db.close(); })()
  .then(() => parentPort.postMessage(null), (e) => parentPort.postMessage(String((e && e.stack) || e)));`;

/**
 * Creates a new database in the empty folder `dir` on a worker thread: in a folder beside it, moved into
 * place whole, so a database that is there is never half made. PGlite is the one the site resolves (from
 * its migrations folder up). If the worker cannot do it, nothing is left of its attempt and the open
 * creates the database itself, on this thread.
 */
async function initdbOffThread(dir: string, migrationsDir: string): Promise<void> {
  const tmp = `${dir}.new-${process.pid}-${Date.now().toString(36)}`;
  try {
    const pglite = createRequire(path.join(migrationsDir, 'index.js')).resolve('@electric-sql/pglite');
    fs.mkdirSync(tmp, { mode: 0o700 });
    const failed = await new Promise<string | null>((resolve) => {
      const worker = new Worker(INITDB, { eval: true, workerData: { pglite, dir: tmp } });
      worker.once('message', (m: string | null) => resolve(m));
      worker.once('error', (e) => resolve(String(e?.stack ?? e)));
      worker.once('exit', (code) => resolve(`the worker exited (${code})`));
    });
    if (failed === null) fs.renameSync(tmp, dir); // over the empty folder
  } catch { /* created below, on this thread */ }
  fs.rmSync(tmp, { recursive: true, force: true });
}

/**
 * Runs every .sql file in name order (the timestamp prefix), every time: the
 * migrations are written to be idempotent, and re-running them re-asserts the
 * grants and policy on a database that may have drifted.
 */
export async function applyMigrations(db: PGlite, dir: string): Promise<string[]> {
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
