// The install's module cache (node_modules/.cache/sitegen/server, src/cache/registry.ts `module`) without what
// the suite's throwaway sites left in it.
//
// Every compile of a site prunes that folder (src/cache/prune.ts) and stats each entry it does not keep; a
// site module that no record names is removed only once it is over an hour old. A run of this suite compiles
// a couple of hundred sites in temporary folders and leaves some 700 such files: a run within the hour after
// others started with thousands, and every compile paid for them (from 2,800 entries: the engine project's
// ~300 prunes took 25 s, 11 s with the sweep; incremental-build 12.0 -> 9.5 s of CPU). The sweep removes the
// same entries the prune would, without the hour: the records of sites whose folder is gone, and the modules
// no record names that are older than `minAgeMs` (a younger one may be a compile whose record is not written
// yet: it is written once the module imported).
import fs from 'node:fs';
import path from 'node:path';
import { installCachePath } from '../../src/cache/registry.ts';
import { SITEGEN_CACHE } from '../../src/site/paths.ts';

export const MODULE_CACHE = installCachePath(SITEGEN_CACHE, 'module');

/** A compiled site module, its source map or its code cache (src/site/options.ts names them). */
const MODULE = /^site-(dev-)?[^.]*\.c?js(\.map|\.v8cache)?$/;

/**
 * Sweeps `dir` as described above; `dev: false` leaves `sitegen dev`'s modules (no record names the module a
 * running dev server loaded). Returns how many entries went.
 */
export function sweepModuleCache(dir: string, opts: { minAgeMs: number; dev: boolean }, now = Date.now()): number {
  let names: string[];
  try { names = fs.readdirSync(dir); } catch { return 0; }
  let removed = 0;
  const rm = (name: string) => { fs.rmSync(path.join(dir, name), { force: true }); removed++; };
  const named = new Set<string>();
  for (const n of names.filter((f) => f.startsWith('build-') && f.endsWith('.json'))) {
    let record: { file?: string; root?: string };
    try { record = JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')); } catch { continue; } // being written
    if (record.root && !fs.existsSync(record.root)) rm(n);
    else if (record.file) named.add(path.basename(record.file));
  }
  for (const n of names) {
    const m = MODULE.exec(n);
    if (!m || (m[1] && !opts.dev) || named.has(n.replace(/\.(map|v8cache)$/, ''))) continue;
    const st = fs.statSync(path.join(dir, n), { throwIfNoEntry: false });
    if (st && now - st.mtimeMs > opts.minAgeMs) rm(n);
  }
  return removed;
}
