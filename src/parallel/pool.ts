// pool: worker threads for the content and render stages. A worker starts as soon as the build knows the
// site is big enough, runs the engine's worker program (workerEntry.ts: plain JS, no tsx), loads the compiled
// site module (at once when it is cached) and runs workerMain (batch.ts). Tasks are small batches taken by whoever is free — each worker keeps two
// in flight so it never waits on the main thread, and the main thread takes batches too, so on 2 cores
// one worker plus the main thread use both. Results come back in task order.
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import Module from 'node:module';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { WorkerTask } from './batch.ts';
import { engineSettings } from '../core/settings.ts';
import { ENGINE_DIR, PACKAGE_DIR, SITEGEN_CACHE } from '../site/paths.ts';
import { keyOf, stampFiles } from '../cache/index.ts';
import { VENDOR_SHIMS, vendorAliases } from '../site/vendor.ts';

/** Up to this many workers, however many cores: beyond it, start-up and copies of the content outweigh. */
export const MAX_WORKERS = 7;

export type TaskBody = WorkerTask extends infer T ? T extends { id: number } ? Omit<T, 'id'> : never : never;

export interface Pool {
  size: number;
  /** Tells the workers which compiled site module to load (they load the engine until then). */
  load(moduleFile: string): void;
  /**
   * Runs the tasks on the workers and, through `inline`, on this thread; results in task order. `owners`,
   * when given, is filled with who ran each task: a worker's index, or -1 for this thread; `done` is told
   * each task as it ends, wherever it ran (progress).
   */
  map<R>(tasks: TaskBody[], inline: (task: TaskBody) => Promise<R>, owners?: number[], done?: (task: TaskBody) => void): Promise<R[]>;
  /** Sends one task to every worker (setup, flush); a function makes each worker's own task. */
  broadcast(task: TaskBody | ((worker: number) => TaskBody)): Promise<void>;
  /** Sends one task to one worker (its index in the pool); resolves with the worker's answer. */
  sendTo<R = unknown>(worker: number, task: TaskBody): Promise<R>;
  /** Resolves when worker `w` has imported the site module and takes tasks. */
  ready(worker: number): Promise<void>;
  /** Set once every worker holds the whole content (after a pooled load; see stages.ts). */
  contentReady: boolean;
  /** Tasks run so far, by type: how many in all and how many on this thread (reported by `build --json`). */
  stats: PoolStats;
  close(): Promise<void>;
}

export interface PoolStats { workers: number; tasks: Record<string, { total: number; onMain: number }> }

/** Thrown when a result or the content cannot cross to or from a worker (not structured-cloneable). */
export class CloneError extends Error {}

/**
 * The worker's program as plain JS. The CLI bundle and lib/ have it beside this code, as their `worker` entry;
 * running from the sources (tests, SITEGEN_TSX), it is bundled from workerEntry.ts once per state of the
 * engine's sources into node_modules/.cache/sitegen/worker/, with the packages of the vendor bundle as the CLI
 * bundle's worker has them (site/vendor.ts vendorAliases; the others left to Node).
 * The page writer thread (output/writers.ts) runs it too.
 */
let workerProgram: string | null = null;
export function workerFile(): string {
  if (workerProgram) return workerProgram;
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.js');
  if (fs.existsSync(beside)) return (workerProgram = beside);
  const sources = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|tsx)$/.test(e.name) ? [path.join(dir, e.name)] : []));
  const file = path.join(SITEGEN_CACHE, 'worker', `worker-${keyOf([process.version, stampFiles(sources(ENGINE_DIR))])}.mjs`);
  if (!fs.existsSync(file)) {
    const esbuild = Module.createRequire(path.join(PACKAGE_DIR, 'package.json'))('esbuild') as typeof import('esbuild');
    const tmp = `${file}.${process.pid}.tmp`;
    const alias = vendorAliases(path.join(path.dirname(file), VENDOR_SHIMS));
    esbuild.buildSync({ entryPoints: [path.join(ENGINE_DIR, 'parallel', 'workerEntry.ts')], bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', alias, jsx: 'automatic', outfile: tmp, logLevel: 'silent' });
    fs.renameSync(tmp, file);
  }
  return (workerProgram = file);
}

/**
 * Below this many content files, the build runs in-process. Measured on 2 cores (1 worker + main): at
 * 1,000 pages the worker's start-up, its own JIT warm-up and the copy of the content cost as much as it
 * saves (1.93 s in-process vs 2.04 s); at 10,000 it saves a fifth (12.5 s → 9.9 s).
 */
// (the default of the parallelMin setting, src/core/settings.ts)

/** Starts the workers when the site is big enough (before the site module exists: see above). */
export function maybeStartPool(files: number): Pool | null {
  const size = defaultWorkers();
  if (files < engineSettings().parallelMin || size < 1) return null;
  return startPool(size);
}

/** Workers besides the main thread (which takes batches too): one per further core; the workers setting overrides. */
export function defaultWorkers(): number {
  const set = engineSettings().workers;
  if (set !== undefined) return Math.min(set, MAX_WORKERS);
  return Math.min(os.availableParallelism() - 1, MAX_WORKERS);
}

interface Slot { worker: Worker; ready: Promise<void>; pending: Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }> }

export function startPool(size: number): Pool {
  let nextId = 1;
  let failed: Error | null = null;
  const entry = workerFile();
  const slots: Slot[] = Array.from({ length: size }, () => {
    // A smaller young generation than V8's default, for the peak memory at 10,000 pages (a bigger one, 64 MB, did not
    // make a cold 10,000-page build faster: bench/RESULTS.md).
    const worker = new Worker(entry, { workerData: { sitegenWorker: true, settings: engineSettings() }, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    const pending: Slot['pending'] = new Map();
    let markReady!: () => void;
    let markFailed!: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => { markReady = res; markFailed = rej; });
    ready.catch(() => {});
    const fail = (e: Error) => {
      failed ??= e;
      markFailed(e);
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    };
    worker.on('message', (m: any) => {
      if (m.ready) return markReady();
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(m.clone ? new CloneError(m.error) : new Error(`render worker: ${m.error}`));
      else p.resolve(m.value);
    });
    worker.on('error', (e) => fail(e));
    worker.on('exit', (code) => fail(new Error(`render worker exited (code ${code})`)));
    return { worker, ready, pending };
  });

  const stats: PoolStats = { workers: size, tasks: {} };

  const send = (slot: Slot, task: TaskBody): Promise<any> => {
    if (failed) return Promise.reject(failed);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      try { slot.worker.postMessage({ ...task, id }); } catch (e: any) {
        slot.pending.delete(id);
        reject(e?.name === 'DataCloneError' ? new CloneError(e.message) : e);
      }
    });
  };

  return {
    size,
    load(moduleFile) {
      for (const s of slots) s.worker.postMessage({ file: moduleFile });
    },
    contentReady: false,
    stats,
    async map<R>(tasks: TaskBody[], inline: (task: TaskBody) => Promise<R>, owners: number[] = [], done?: (task: TaskBody) => void): Promise<R[]> {
      const results: R[] = new Array(tasks.length);
      let next = 0;
      const take = () => (next < tasks.length ? next++ : -1);
      let inlineCount = 0;
      let allTaken!: () => void;
      const taken = new Promise<void>((r) => { allTaken = r; });
      const loops: Promise<void>[] = slots.flatMap((slot, w) => [0, 1].map(async () => {
        // A worker still starting takes no task, and is not waited for once the main thread took them all.
        await Promise.race([slot.ready, taken]);
        for (let i = take(); i >= 0; i = take()) { owners[i] = w; results[i] = await send(slot, tasks[i]); done?.(tasks[i]); }
      }));
      // The mainTakesTasks setting off keeps every task on the workers (tests exercise them on tiny sites).
      const mainTakes = engineSettings().mainTakesTasks;
      loops.push((async () => {
        if (!mainTakes) { await Promise.all(slots.map((s) => s.ready)); allTaken(); return; }
        for (let i = take(); i >= 0; i = take()) {
          owners[i] = -1;
          results[i] = await inline(tasks[i]);
          done?.(tasks[i]);
          inlineCount++;
          await new Promise((r) => setImmediate(r)); // let workers' results and requests in
        }
        allTaken();
      })());
      await Promise.all(loops);
      if (tasks.length) {
        const s = (stats.tasks[tasks[0].type] ??= { total: 0, onMain: 0 });
        s.total += tasks.length;
        s.onMain += inlineCount;
      }
      return results;
    },
    async sendTo(w, task) {
      await slots[w].ready;
      return send(slots[w], task);
    },
    ready: (w) => slots[w].ready,
    async broadcast(task) {
      await Promise.all(slots.map(async (s, w) => { await s.ready; await send(s, typeof task === 'function' ? task(w) : task); }));
    },
    async close() {
      failed ??= new Error('pool closed');
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
