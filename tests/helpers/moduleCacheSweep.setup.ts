// Runs before every unit test file: during a run, each worker sweeps the module cache (tests/helpers/
// moduleCache.ts) at most every 20 s, so what this run's finished sites left does not pile up for the
// compiles after them (a run leaves some 700 entries). Build modules only, over 20 s old and named by no
// record: a live site's is named from the moment it imported.
import { MODULE_CACHE, sweepModuleCache } from './moduleCache.ts';

const EVERY = 20_000;
const state = ((globalThis as { __sitegenModuleSweep?: { last: number } }).__sitegenModuleSweep ??= { last: 0 });
if (Date.now() - state.last > EVERY) {
  state.last = Date.now();
  sweepModuleCache(MODULE_CACHE, { minAgeMs: EVERY, dev: false });
}
