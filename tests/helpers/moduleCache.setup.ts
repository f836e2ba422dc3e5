// The unit suite's globalSetup: the tests start with the module cache a fresh clone has, without what earlier
// runs left in it (tests/helpers/moduleCache.ts). Modules over a minute old go, `sitegen dev`'s too: a dev
// server of another process in this checkout that has run that long has its module loaded already.
import { MODULE_CACHE, sweepModuleCache } from './moduleCache.ts';

export default function setup(): void {
  sweepModuleCache(MODULE_CACHE, { minAgeMs: 60_000, dev: true });
}
