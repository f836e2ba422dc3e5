// An empty waitlist database on disk, made once per test run and copied for each `sitegen preview`/`dev` a
// test starts. A new database costs its server seconds of CPU (Postgres' initdb in WASM, then the bootstrap
// and the migrations); copying a folder made by the same code costs a tenth of that, and the server then opens
// it as it opens any existing database: bootstrap and migrations run again, modes are tightened again.
// Creating a database through the CLI stays covered where it is the point (waitlist-load, waitlist-db).
//
// This file is the site project's vitest globalSetup: it starts making the template in the main process and
// returns at once, so the workers start their files meanwhile; copyEmptyDatabase (waitlistTemplate.ts, in a
// worker) waits for the template and copies it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openWaitlistDb } from '../../plugins/waitlist/db.ts';
import type {} from './waitlistTemplate.ts'; // the type of the provided value

const MIGRATIONS = path.resolve(import.meta.dirname, '../../supabase/migrations');

async function makeTemplate(home: string): Promise<void> {
  const making = path.join(home, 'making');
  try {
    const db = await openWaitlistDb({ dataDir: path.join(making, 'db'), migrationsDir: MIGRATIONS });
    await db.close();
    // One rename: a worker sees the whole folder or none of it.
    fs.renameSync(path.join(making, 'db'), path.join(home, 'db'));
  } catch (error) {
    fs.writeFileSync(path.join(making, 'error'), String((error as Error)?.stack ?? error));
    fs.renameSync(path.join(making, 'error'), path.join(home, 'error'));
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-waitlist-template-'));
  fs.mkdirSync(path.join(home, 'making'));
  project.provide('waitlistTemplateHome', home);
  const made = makeTemplate(home);
  return async () => {
    await made;
    fs.rmSync(home, { recursive: true, force: true });
  };
}

