// heap: how fast V8's old generation may grow in a build. A process the CLI starts keeps V8's own growth (a
// factor of up to 4 of what a full collection leaves), the fastest: a cold 10,000-page build spent 0.5–0.9 s
// of its main thread in full collections under a 15 % growth, and ran ~11 % longer. A build of a big content
// (the bigHeapMin setting: 40,000 files or more) grows by 30 % while it loads the content, and by 15 % from then
// on, when what it holds grows little and its peak memory comes (cold 100,000 pages: V8's own growth held 1,414
// MiB at the peak, 30 % throughout 919–970 MiB in single builds and 1,049 MB in a bench run, 15 % throughout 895 MiB for 61 s
// where V8's own took 45 s, most of the difference in the content stage). A big build that patches a few pages of
// a live output holds the whole content and route table too, but allocates them once and renders little: it grows
// by 40 % until it knows it must render a whole output. Only a process the CLI started is touched (in-process
// callers keep their own flags), and never while a code cache is read or made, on the main thread or a pool
// worker: V8 stamps a code cache with the hash of the process's flags as they are then, and refuses one whose
// stamp differs, so every code cache is read and made under V8's growth.
import v8 from 'node:v8';
import { whenStageEnds, type StageListener } from './progress.ts';
import { engineSettings } from './settings.ts';

/** The growth code caches are read and made under: V8's own (a flag of 0 is its default). */
export const CLI_GROWING = 0;
const BIG_LOADING = 30;
const BIG_HELD = 15;
const PATCH_GROWING = 40;

let cli = false;
let big = false;
let likely = false;
/** The stage that reads the main thread's code caches (config) has ended. */
let configEnded = false;
/** The content stage has ended: what the build holds grows little from here. */
let loaded = false;
/** Worker threads still loading (each reads the vendor bundle's and the site module's code caches). */
let loading = 0;
/** This build (a later build is not changed by an earlier one's workers). */
let build = 0;
let now = CLI_GROWING;
/** Every code cache of this build is read: the growth may change. */
const cachesRead = () => configEnded && loading === 0;

const apply = (growing: number) => {
  if (!cli || growing === now) return;
  v8.setFlagsFromString(`--heap-growing-percent=${growing}`);
  now = growing;
};
const wanted = () => (!big ? CLI_GROWING : likely ? PATCH_GROWING : loaded ? BIG_HELD : BIG_LOADING);

/** Called by the CLI's entry (cli/main.ts): this process is a command bin/sitegen.js started. */
export function startedByCli(): void {
  cli = true;
}

/** The number of content files, when the build knows it (its last build's record, or its walk of content/). */
export function heapForContent(files: number): void {
  big = files >= engineSettings().bigHeapMin;
  if (cachesRead()) apply(wanted());
}

/** The growth changes only once `ready` settles too (the pool's workers have read their code caches). */
export function heapAfterLoading(ready: Promise<unknown>): void {
  const of = build;
  loading++;
  void ready.then(() => {
    if (of !== build) return;
    loading--;
    if (cachesRead()) apply(wanted());
  });
}

/** A whole output renders: no patch (the growth of a big content, or V8's). */
export function wholeOutputHeap(): void {
  likely = false;
  if (cachesRead()) apply(wanted());
}

/** The build has ended: V8's growth again, for whatever the process does next. */
export function endBuildHeap(): void {
  big = likely = configEnded = loaded = false;
  loading = 0;
  build++;
  apply(CLI_GROWING);
}

/**
 * Runs `open` (the content cache's decode, the biggest allocation before the config is loaded: 100,000
 * pages, 8 of the build's 15 full collections at a slow growth) with a likely patch's or a big content's
 * growth, then goes back to V8's before the site module's code cache is read. Nothing else reads or makes a
 * code cache meanwhile: the vendor bundle was loaded with the engine, and no worker has started.
 */
export async function withPatchHeap<T>(open: () => Promise<T>): Promise<T> {
  if (!cli || configEnded || wanted() === CLI_GROWING) return open();
  apply(wanted());
  try { return await open(); } finally { apply(CLI_GROWING); }
}

/** Runs `save` (code caches made) under V8's growth, then goes back to the build's. */
export function withCacheHeap(save: () => void): void {
  const growing = now;
  apply(CLI_GROWING);
  try { save(); } finally { apply(growing); }
}

/** `onStage`, which sets the build's growth as stage `stage` ends (the stages before it read the main thread's
 *  code caches; the workers' are waited for too: heapAfterLoading); `patch`: the build will likely patch a live output. */
export function heapAfter(stage: string, patch: boolean, onStage?: StageListener): StageListener {
  likely = patch; // (and the content cache opens with it: withPatchHeap)
  const content = whenStageEnds('content', () => { loaded = true; if (cachesRead()) apply(wanted()); }, onStage);
  return whenStageEnds(stage, () => { configEnded = true; if (cachesRead()) apply(wanted()); }, content);
}
