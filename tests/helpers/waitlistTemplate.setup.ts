// An empty waitlist database on disk, copied for each `sitegen preview`/`dev` a test starts. A new database
// costs its server seconds of CPU (Postgres' initdb in WASM, then the bootstrap and the migrations); copying
// a folder made by the same code costs a tenth of that, and the server then opens it as it opens any existing
// database: bootstrap and migrations run again, modes are tightened again. Creating a database stays covered
// where it is the point: in process in waitlist-db, through the CLI in the e2e setup.
//
// This file is the site project's vitest globalSetup. The template is kept between runs in
// node_modules/.cache/sitegen-tests/waitlist-template/<key>/db, the key a hash of everything that makes it
// (plugins/waitlist/db.ts, the migrations, the PGlite version, Node's version): a run after one with the same
// inputs finds it made. Otherwise a child process makes it (waitlistTemplate.make.ts), with --liftoff-only
// as the site's workers: in vitest's own process, Postgres' start blocked the main thread, and so every
// worker's first file, for seconds. This returns at once; copyEmptyDatabase (waitlistTemplate.ts, in a
// worker) waits for the template and copies it.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type {} from './waitlistTemplate.ts'; // the type of the provided value

const REPO = path.resolve(import.meta.dirname, '../..');
const MIGRATIONS = path.join(REPO, 'supabase/migrations');
const CACHE = path.join(REPO, 'node_modules/.cache/sitegen-tests/waitlist-template');

function key(): string {
  const hash = createHash('sha256').update(process.version);
  hash.update(fs.readFileSync(path.join(REPO, 'node_modules/@electric-sql/pglite/package.json')));
  hash.update(fs.readFileSync(path.join(REPO, 'plugins/waitlist/db.ts')));
  for (const name of fs.readdirSync(MIGRATIONS).sort()) hash.update(`\0${name}\0`).update(fs.readFileSync(path.join(MIGRATIONS, name)));
  return hash.digest('hex').slice(0, 16);
}

export default function setup(project: TestProject): () => Promise<void> {
  const k = key();
  const home = path.join(CACHE, k);
  project.provide('waitlistTemplateHome', home);
  if (fs.existsSync(path.join(home, 'db'))) return async () => {};
  // Templates of other inputs are never used again.
  for (const old of fs.existsSync(CACHE) ? fs.readdirSync(CACHE) : []) if (old !== k) fs.rmSync(path.join(CACHE, old), { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  fs.rmSync(path.join(home, 'error'), { force: true }); // a failed run's reason; this run tries again
  const making = fs.mkdtempSync(path.join(home, 'making-'));
  const child = spawn(process.execPath, ['--liftoff-only', '--import', 'tsx', path.join(import.meta.dirname, 'waitlistTemplate.make.ts'), making, home], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const made = new Promise<void>((resolve) => child.once('close', (code, signal) => {
    // A child that died before it could say why (killed, tsx missing): say it for it.
    if (code !== 0 && !fs.existsSync(path.join(home, 'error'))) fs.writeFileSync(path.join(home, 'error'), `the template's process ended (${code ?? signal}):\n${stderr}`);
    resolve();
  }));
  return async () => { await made; };
}
