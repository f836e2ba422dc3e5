// An empty waitlist database on disk for a test's `sitegen preview`/`dev`, copied from the one the site
// project's globalSetup makes once per run (see waitlistTemplate.setup.ts for why).
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { scratchDir } from './scratchRoot.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder that holds `db` (the template) once it is made, or `error` (why it could not be). */
    waitlistTemplateHome: string;
  }
}

/** Resolves once `home` holds `db` or `error`, watching the folder rather than polling it. */
function templateReady(home: string, timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const settle = (): boolean => {
      if (fs.existsSync(path.join(home, 'db'))) { done(); resolve(path.join(home, 'db')); return true; }
      if (fs.existsSync(path.join(home, 'error'))) {
        done();
        reject(new Error(`the template waitlist database could not be made:\n${fs.readFileSync(path.join(home, 'error'), 'utf8')}`));
        return true;
      }
      return false;
    };
    const watcher = fs.watch(home, () => { settle(); });
    const timer = setTimeout(() => { done(); reject(new Error(`no template waitlist database in ${home} after ${timeoutMs} ms`)); }, timeoutMs);
    function done() { watcher.close(); clearTimeout(timer); }
    settle(); // made before the watcher started
  });
}

/** The template database itself (to be copied, never opened: bench/waitlist-load.mjs --db-from copies it). */
export async function templateDatabase(): Promise<string> {
  const home = inject('waitlistTemplateHome');
  if (!home) throw new Error('templateDatabase: no template; run this file in the `site` project of vitest.config.ts (its globalSetup makes it)');
  return templateReady(home);
}

/**
 * Makes `target` (which must not exist) an empty waitlist database: bootstrapped and migrated, no rows, as
 * the first start of a server leaves one. Only for files of the `site` project, whose globalSetup makes it.
 */
export async function copyEmptyDatabase(target: string): Promise<void> {
  const template = await templateDatabase();
  fs.cpSync(template, target, { recursive: true, errorOnExist: true, force: false });
  fs.chmodSync(target, 0o700);
}

/**
 * A new empty database in a folder of its own (copyEmptyDatabase), made with scratchDir(), so it goes when the
 * test file ends: a copy, not a new database, which Postgres' initdb would make (seconds
 * of CPU; making one is tested in waitlist-db). In memory where the machine has /dev/shm: a copy is 39 MB in
 * ~1,000 files, 0.4 s of CPU on this repository's disk, 0.08 s there.
 */
export async function emptyDatabase(): Promise<string> {
  const db = path.join(scratchDir('sitegen-waitlist-db-'), 'db');
  await copyEmptyDatabase(db);
  return db;
}
