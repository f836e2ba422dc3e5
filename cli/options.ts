// The one place the CLI turns flags and environment variables into the engine's typed settings
// (src/core/settings.ts). SITEGEN_* variables are for benchmarks and tests; users have the flags.
import type { EngineSettings } from '../src/core/settings.ts';

type Env = Readonly<Record<string, string | undefined>>;

const count = (v: string | undefined): number | undefined => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isInteger(n) && n >= 0 ? n : undefined;
};

/**
 * Engine settings for a command: `--no-cache` or SITEGEN_NO_CACHE=1 turn the build caches off;
 * SITEGEN_WORKERS, SITEGEN_PARALLEL_MIN, SITEGEN_POOL_MAIN=0, SITEGEN_POOL_RENDER=0|1, SITEGEN_WRITES=sync|thread
 * SITEGEN_PATCH_MAX (0: no build patches the output in place or is skipped as up to date),
 * SITEGEN_DISK_BODIES_MIN (content files from which Markdown bodies wait on disk), SITEGEN_BIG_HEAP_MIN (content files
 * from which the heap grows slowly: core/heap.ts), SITEGEN_REPLAY=0 (no build replays an edit of
 * bodies alone: pipeline/replay.ts), SITEGEN_PROBE_MIN (output files from which a
 * build stamps the live output on another thread while it loads, and a new whole output there while it writes the replay's record) and SITEGEN_DEBUG_MEM tune the worker pool and page writes.
 */
export function engineSettingsFrom(flags: { cache?: boolean }, env: Env): Partial<EngineSettings> {
  const s: Partial<EngineSettings> = { cache: flags.cache !== false && env.SITEGEN_NO_CACHE !== '1' };
  const workers = count(env.SITEGEN_WORKERS);
  if (workers !== undefined) s.workers = workers;
  const min = count(env.SITEGEN_PARALLEL_MIN);
  if (min !== undefined) s.parallelMin = min;
  if (env.SITEGEN_POOL_MAIN === '0') s.mainTakesTasks = false;
  if (env.SITEGEN_POOL_RENDER === '0' || env.SITEGEN_POOL_RENDER === '1') s.renderOnWorkers = env.SITEGEN_POOL_RENDER === '1';
  if (env.SITEGEN_WRITES === 'sync' || env.SITEGEN_WRITES === 'thread') s.writes = env.SITEGEN_WRITES;
  const patchMax = count(env.SITEGEN_PATCH_MAX);
  if (patchMax !== undefined) s.patchMax = patchMax;
  const disk = count(env.SITEGEN_DISK_BODIES_MIN);
  if (disk !== undefined) s.diskBodiesMin = disk;
  const probe = count(env.SITEGEN_PROBE_MIN);
  if (probe !== undefined) s.probeMin = probe;
  const big = count(env.SITEGEN_BIG_HEAP_MIN);
  if (big !== undefined) s.bigHeapMin = big;
  if (env.SITEGEN_DEBUG_MEM) s.debugMemory = true;
  if (env.SITEGEN_REPLAY === '0') s.replay = false;
  return s;
}
