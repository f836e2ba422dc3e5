// prestat: the live output's files and folders stamped on a thread of their own. When the up-to-date check
// finds that something changed (upToDate.ts), the build goes on to load content and run routes() on this
// thread, and only then asks which pages it may keep (incremental.ts): one lstat per page and per folder of
// the output (10,000 pages: ~20,000 calls, 0.1-0.2 s of this thread; 100,000: ~1.7 s). Started at once on
// the other core, the thread has them ready by then; the checks read them instead of calling lstat.
// The stamps are taken after the build lock, before the build writes anything into the live output (a patch
// writes at commit), so they are what the checks would read themselves.
import fs from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { Stamp } from './pageRecord.ts';
import { below } from './patchStamps.ts';
import { workerFile } from '../parallel/pool.ts';
import { engineSettings } from '../core/settings.ts';

/** The recorded output: its folders and files, each list one text of `n` paths joined by NUL. */
export interface OutputList { nd: number; nf: number; dirs: string; files: string }

/** The stamps now of the recorded folders and files; undefined: not in the list (the caller looks itself). */
export interface OutputNow {
  file(rel: string): Stamp | null | undefined;
  dir(rel: string): { mtimeMs: number; ino: number } | null | undefined;
}

/** Stamps the listed output on a thread: null when there is no list, a short one or one core. The thread
 *  keeps no process alive until its answer is asked for (`take`), which resolves to null when it failed
 *  (the checks then look themselves). */
export function prestatOutput(outDir: string, list: OutputList | null): (() => Promise<OutputNow | null>) | null {
  // (below engineSettings().prestatMin files, 2,000 by default, a thread's start costs more than the calls it saves)
  if (!list || list.nf < engineSettings().prestatMin || availableParallelism() < 2) return null;
  let worker: Worker;
  try {
    worker = new Worker(workerFile(), { workerData: { sitegenPrestat: { outDir, ...list } }, env: {} });
  } catch {
    return null;
  }
  worker.unref(); // a build that stops early does not wait for it
  const answer = new Promise<OutputNow | null>((resolve) => {
    worker.once('message', (nums: Float64Array) => resolve(nums.length === list.nd * 2 + list.nf * 3 ? lookup(list, nums) : null));
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null)); // (after a message: already resolved)
  });
  return () => { worker.ref(); return answer; };
}

const SEP = '\0';
function lookup(list: OutputList, nums: Float64Array): OutputNow {
  let dirs: Map<string, number> | undefined, files: Map<string, number> | undefined;
  const index = (text: string, n: number) => new Map((n ? text.split(SEP) : []).map((p, i) => [p, i]));
  return {
    dir(rel) {
      const i = (dirs ??= index(list.dirs, list.nd)).get(rel);
      if (i === undefined) return undefined;
      return Number.isNaN(nums[2 * i]) ? null : { mtimeMs: nums[2 * i], ino: nums[2 * i + 1] };
    },
    file(rel) {
      const i = (files ??= index(list.files, list.nf)).get(rel);
      if (i === undefined) return undefined;
      const j = list.nd * 2 + 3 * i;
      return Number.isNaN(nums[j]) ? null : { size: nums[j], mtimeMs: nums[j + 1], ino: nums[j + 2] };
    },
  };
}

/** The thread's program (parallel/workerEntry.ts): a folder's mtime and inode, a file's size, mtime and
 *  inode, NaN for one that is not there or not of its kind; posted back as one array. */
export function prestatMain(port: MessagePort, data: OutputList & { outDir: string }): void {
  const nums = new Float64Array(data.nd * 2 + data.nf * 3).fill(NaN);
  const base = below(data.outDir);
  const stat = (p: string) => { try { return fs.lstatSync(p); } catch { return null; } };
  let j = 0;
  for (const d of data.nd ? data.dirs.split(SEP) : []) {
    const st = stat(d ? base + d : data.outDir);
    if (st?.isDirectory()) { nums[j] = st.mtimeMs; nums[j + 1] = st.ino; }
    j += 2;
  }
  for (const f of data.nf ? data.files.split(SEP) : []) {
    const st = stat(base + f);
    if (st?.isFile()) { nums[j] = st.size; nums[j + 1] = st.mtimeMs; nums[j + 2] = st.ino; }
    j += 3;
  }
  port.postMessage(nums, [nums.buffer]);
}
