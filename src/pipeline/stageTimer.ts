// The stage timer of a build or check: each stage's time into the result (a stage run twice adds up), the
// stages a cache served, and progress for the CLI.
import type { BuildResult } from '../core/types.ts';
import { engineSettings } from '../core/settings.ts';
import type { StageHook } from './session.ts';
import type { BuildOptions } from './build.ts';

/** Times each stage into the result (a stage run twice adds up); `extraMs` on a value is time spent on its behalf before. */
export function stageTimer(result: BuildResult, opts: Pick<BuildOptions, 'onStage'>): StageHook {
  return async (name, fn) => {
    const t = performance.now();
    let value: Awaited<ReturnType<typeof fn>> | undefined;
    try { return value = await fn(); } finally {
      const v = value as { hit?: boolean; extraMs?: number } | undefined;
      const ms = Math.round((performance.now() - t + (v?.extraMs ?? 0) + (result.timings[name] ?? 0)) * 10) / 10;
      result.timings[name] = ms;
      const hit = !!v?.hit;
      if (hit) result.cached.push(name);
      if (engineSettings().debugMemory) { const m = process.memoryUsage(); process.stderr.write(`mem after ${name}: rss ${(m.rss / 1048576).toFixed(0)} MB, heap ${(m.heapUsed / 1048576).toFixed(0)}/${(m.heapTotal / 1048576).toFixed(0)} MB, external ${(m.external / 1048576).toFixed(0)} MB\n`); }
      opts.onStage?.(name, ms, hit ? 'cached' : undefined);
    }
  };
}
