// keptListing: the kept output (write.ts Recycling: the output the last build replaced, which the next
// staged build writes over) listed on another thread while the build loads its content and runs routes(),
// for a build that will likely stage a whole output (the config, a template, a stylesheet or an island
// changed), from the end of its content stage (before, the site module's compile and the content's load
// keep both cores busy: a list made from the start cost them as much as it saved). Its staging stage then prunes from the list (write.ts pruneTo) instead of reading every folder on
// the main thread (10,000 bench pages: 10,000 folders and their files, ~150 ms). The list is made after the
// build took the build lock and read before the folder is moved, so no other build changes it meanwhile; a
// list that could not be made is null, and the folder is read as before.
import fs from 'node:fs';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { whenStageEnds, type StageListener } from '../core/progress.ts';

/** Every path below the folder in the order a depth-first read meets them (a folder before what it holds),
 *  relative, joined by \0; per path four numbers: 1 a file, 2 a folder, 0 anything else (a link); then, for a
 *  file, its lstat's nlink, mode and uid. */
export interface KeptListing { paths: string; nums: Float64Array }

// The thread's program: plain CommonJS, as write.ts pruneTo reads the folder (the entry's type from the
// folder read, an lstat for each plain file).
const PROGRAM = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { dir, port } = workerData;
const paths = [], nums = [];
const walk = (d, rel) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const r = rel + e.name, p = d + path.sep + e.name;
    paths.push(r);
    if (e.isDirectory()) { nums.push(2, 0, 0, 0); walk(p, r + path.sep); }
    else if (e.isFile()) { const s = fs.lstatSync(p); nums.push(1, s.nlink, s.mode, s.uid); }
    else nums.push(0, 0, 0, 0);
  }
};
let out = null;
try { walk(dir, ''); out = { paths: paths.join('\\0'), nums: Float64Array.from(nums) }; } catch {}
port.postMessage(out);
`;

/** Starts listing `dir` on a thread (null at once when it is not a folder); resolves to the listing, or null. */
export function listKept(dir: string): Promise<KeptListing | null> | null {
  try { if (!fs.lstatSync(dir).isDirectory()) return null; } catch { return null; }
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(PROGRAM, { eval: true, workerData: { dir, port: port2 }, transferList: [port2] });
  // (kept referenced: a build awaiting the answer must not end for want of anything else to wait for; after a
  // build that did not stage, the process waits for the thread to finish its read before it exits)
  return new Promise((resolve) => {
    const done = (l: KeptListing | null) => { port1.close(); void worker.terminate(); resolve(l); };
    port1.once('message', (l: KeptListing | null) => done(l));
    worker.once('error', () => done(null));
    // (the thread's end may be told before its message: the message is taken off the channel then)
    worker.once('exit', () => { const m = receiveMessageOnPort(port1); done(m ? m.message as KeptListing | null : null); });
  });
}

/** Lists `dir` (null: nothing to list) once the stage named `stage` has ended: `after` wraps a build's onStage
 *  hook to start it then; `listed` is the listing started by then, or null. */
export function keptLister(dir: string | null, stage: string): { after(onStage?: StageListener): StageListener | undefined; listed(): Promise<KeptListing | null> | null } {
  let listed: Promise<KeptListing | null> | null = null;
  return {
    after: (onStage) => (dir === null ? onStage : whenStageEnds(stage, () => { listed ??= listKept(dir); }, onStage)),
    listed: () => listed,
  };
}
