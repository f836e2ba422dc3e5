// heap: how fast V8's old generation may grow in a build. The CLI starts a build with a slow growth
// (bin/sitegen.js: 15 % of what a full collection leaves), which keeps a big cold or warm build's peak memory
// near what it holds live. A build that patches a few pages of a big output holds the whole content and route
// table too, but allocates them once and renders little: there the slow growth only makes V8 collect the
// whole heap again and again while the content loads (100,000 pages: 21 full collections). Such a build
// grows by 40 % until it knows it must render a whole output, when the slow growth comes back before the
// render. Only a process the CLI started is touched (in-process callers keep their own flags), and never
// while a code cache is read or made: V8 stamps a code cache with the hash of the flags as they are then,
// and refuses one whose stamp differs, so every code cache is read and made under the CLI's flags.
import v8 from 'node:v8';
import { whenStageEnds, type StageListener } from './progress.ts';

/** The growth bin/sitegen.js starts a build with (its BUILD_FLAGS; tests/unit/package.test.ts holds the two the same). */
export const CLI_GROWING = 15;
const PATCH_GROWING = 40;
let cli = false;
let raised = false;
let likely = false;

/** Called by the CLI's entry (cli/main.ts): this process is a command bin/sitegen.js started, with its flags. */
export function startedByCli(): void {
  cli = true;
}

/** `true`: the build will likely patch a few pages (a record of the live output exists); `false`: back to the CLI's growth. */
export function patchHeap(on: boolean): void {
  if (!on) likely = false; // (the build's end, or a whole output to render)
  if (!cli || on === raised) return;
  v8.setFlagsFromString(`--heap-growing-percent=${on ? PATCH_GROWING : CLI_GROWING}`);
  raised = on;
}

/**
 * Runs `open` (the content cache's decode, the biggest allocation before the config is loaded: 100,000
 * pages, 8 of the build's 15 full collections at the slow growth) with a likely patch's growth, then goes
 * back to the CLI's before the site module's code cache is read. Nothing else reads or makes a code cache
 * meanwhile: the vendor bundle was loaded with the engine, and no worker has started.
 */
export async function withPatchHeap<T>(open: () => Promise<T>): Promise<T> {
  if (!cli || !likely || raised) return open();
  v8.setFlagsFromString(`--heap-growing-percent=${PATCH_GROWING}`);
  try { return await open(); } finally { v8.setFlagsFromString(`--heap-growing-percent=${CLI_GROWING}`); }
}

/** `onStage`, which raises the growth as stage `stage` ends when `likely` (the stages before it read the code caches). */
export function patchHeapAfter(stage: string, patch: boolean, onStage?: StageListener): StageListener | undefined {
  likely = patch; // (and the content cache opens with it: withPatchHeap)
  return patch ? whenStageEnds(stage, () => patchHeap(true), onStage) : onStage;
}
