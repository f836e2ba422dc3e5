// outputProbe: the live output's files and folders stamped on another thread while the build loads its
// content and runs routes(), for a build over a big output its last build recorded (upToDate.ts starts it
// when the inputs changed). A one-file build then asks its answers instead of an lstat per page on the main
// thread (100,000 bench pages: 100,000 files and 11 folders, ~0.9 s of the main thread). The stamps are
// taken after this build took the build lock, as the main thread's own would be: a file changed by hand
// since is seen as changed either way. A path the output had not (a file added since) is undefined, and the
// caller stats it itself. A whole build of probeMin output files or more that writes a replay record stamps its new
// output here too, for its record, while the main thread writes the replay's (patchStamps.ts stampOutput).
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { below } from './patchStamps.ts';

/** A file's size, mtime and inode, or a folder's mtime and inode; null: none there (or not that kind). */
export interface OutputProbe {
  file(rel: string): { size: number; mtimeMs: number; ino: number } | null | undefined;
  dir(rel: string): { mtimeMs: number; ino: number } | null | undefined;
  /** Whether every folder and file has the numbers a record of them has, in their order (upToDate.ts: a
   *  folder's mtime and inode, a file's size, mtime and inode): no lookup by path. */
  matches(recorded: Float64Array, nd: number, nf: number): boolean;
}

// The thread's program: plain CommonJS, given the folders' and files' paths as two texts joined by \0. Each
// path's answer is four numbers: 1 a file, 2 a folder, 0 neither; then size (files), mtime, inode.
const PROGRAM = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { base, dirs, files, port } = workerData;
const list = (t) => (t === null ? [] : t.split('\\0'));
const paths = [...list(dirs), ...list(files)];
const out = new Float64Array(paths.length * 4);
paths.forEach((p, i) => {
  let st = null;
  try { st = fs.lstatSync(p ? base + p : base.slice(0, -1)); } catch {}
  const j = 4 * i;
  if (st) { out[j] = st.isFile() ? 1 : st.isDirectory() ? 2 : 0; out[j + 1] = st.size; out[j + 2] = st.mtimeMs; out[j + 3] = st.ino; }
});
port.postMessage(out, [out.buffer]);
`;

/**
 * Starts stamping `dirs` and `files` (paths below `outDir`, each list joined by \0, null for none) on a
 * thread; resolves to the probe once it has answered (null if it failed). A build awaits it only when it
 * compares, after it loaded its content and ran routes(): a big output's answer is in long before.
 */
export function probeOutput(outDir: string, dirs: string | null, files: string | null): Promise<OutputProbe | null> {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(PROGRAM, { eval: true, workerData: { base: below(outDir), dirs, files, port: port2 }, transferList: [port2] });
  // (kept referenced: a build awaiting the answer must not end for want of anything else to wait for; a build
  // that stops first waits for the thread to finish, a second at most at 100,000 pages)
  return new Promise((resolve) => {
    const done = (probe: OutputProbe | null) => { port1.close(); void worker.terminate(); resolve(probe); };
    port1.once('message', (nums: Float64Array) => done(answer(nums, dirs, files)));
    worker.once('error', () => done(null));
    // (the thread's end may be told before its message: the message is taken off the channel then)
    worker.once('exit', () => { const m = receiveMessageOnPort(port1); done(m ? answer(m.message as Float64Array, dirs, files) : null); });
  });
}

function answer(nums: Float64Array, dirs: string | null, files: string | null): OutputProbe {
  // Each path's place in the answer (the folders first, then the files), made when a path is first asked.
  let dirAt: Map<string, number> | undefined, fileAt: Map<string, number> | undefined;
  const places = () => {
    dirAt = new Map(); fileAt = new Map();
    let j = 0;
    if (dirs !== null) for (const p of dirs.split('\0')) { dirAt.set(p, j); j += 4; }
    if (files !== null) for (const p of files.split('\0')) { fileAt.set(p, j); j += 4; }
  };
  const seen = (k: number | undefined, kind: 1 | 2) => (k === undefined ? undefined : nums[k] === kind ? k : null);
  return {
    file(rel) { if (!fileAt) places(); const k = seen(fileAt!.get(rel), 1); return k == null ? k : { size: nums[k + 1], mtimeMs: nums[k + 2], ino: nums[k + 3] }; },
    dir(rel) { if (!dirAt) places(); const k = seen(dirAt!.get(rel), 2); return k == null ? k : { mtimeMs: nums[k + 2], ino: nums[k + 3] }; },
    matches(recorded, nd, nf) {
      if (nums.length !== 4 * (nd + nf) || recorded.length !== 2 * nd + 3 * nf) return false;
      for (let i = 0; i < nd; i++) { const k = 4 * i; if (nums[k] !== 2 || nums[k + 2] !== recorded[2 * i] || nums[k + 3] !== recorded[2 * i + 1]) return false; }
      for (let i = 0, r = 2 * nd; i < nf; i++, r += 3) { const k = 4 * (nd + i); if (nums[k] !== 1 || nums[k + 1] !== recorded[r] || nums[k + 2] !== recorded[r + 1] || nums[k + 3] !== recorded[r + 2]) return false; }
      return true;
    },
  };
}
