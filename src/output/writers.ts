// writers: how rendered pages reach a folder. A Writer takes files one by one and reports the first failure
// at `flush`. Three forms, chosen by who writes and how much, never by timing the disk: synchronous on the
// calling thread (small renders, and each render worker into the shared folder), on a writer thread of its
// own (a render on one thread of WRITER_THREAD_MIN files or more: the other core writes while this one
// renders), or nowhere (`sitegen check`). Every file is written by output/writeOver.ts.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { engineSettings } from '../core/settings.ts';
import { workerFile } from '../parallel/pool.ts';
import { writeOver } from './writeOver.ts';
import type { WriterBatch, WriterFailure } from './writerThread.ts';

export interface Writer {
  write(rel: string, data: string | Uint8Array): Promise<void>;
  /** The folders (relative) of the files to come, in the order of their files, which a writer may make
   *  ahead (the writer thread does, a bounded number ahead of the pages: see createThreadWriter). */
  folders?(rels: Iterable<string>): void;
  flush(): Promise<void>;
}

/** The writer of a render whose output goes nowhere (`sitegen check`): the pages are rendered, their links
 *  kept by the renderer, and the HTML dropped. */
export const discardWriter = (): Writer => ({ async write() {}, async flush() {} });

/**
 * Writes files into `dir` synchronously on this thread (for small files a fifth of the CPU time of Node's
 * asynchronous writeFile: 1,000 pages of 8 KB, 20 ms against 100-180 ms, time taken from rendering on 2
 * cores). Folders are created once each; another writer (a render worker) creating the same folder at the
 * same time is fine. A failure is kept and thrown by `flush`. `fresh`: the folder was made empty (write.ts
 * Staging.fresh).
 */
export function createWriter(dir: string, fresh = false): Writer {
  const folders = new Set<string>();
  let failure: unknown = null;
  return {
    async write(rel, data) {
      const abs = path.join(dir, rel);
      try {
        const d = path.dirname(abs);
        if (!folders.has(d)) { fs.mkdirSync(d, { recursive: true }); folders.add(d); }
        writeOver(abs, data, fresh);
      } catch (e) {
        failure ??= e;
      }
    },
    async flush() {
      if (failure) throw failure;
    },
  };
}

/**
 * At least this many files for a build rendering on one thread to write them from a thread of its own
 * (createThreadWriter). Measured warm at 10,000 pages: the main thread spent 0.52 s of its 2.1 s in
 * mkdir and writeFileSync; a thread costs ~20 ms to start, more than a 100-page site's writes.
 */
const WRITER_THREAD_MIN = 1000;

/**
 * The writer for `files` files rendered on this thread: a writer thread from WRITER_THREAD_MIN files, else
 * createWriter's; the writes setting forces one ('thread' or 'sync').
 */
export function pageWriter(dir: string, files: number, fresh = false): Writer {
  const writes = engineSettings().writes;
  return writes === 'thread' || (!writes && files >= WRITER_THREAD_MIN) ? createThreadWriter(dir, fresh) : createWriter(dir, fresh);
}

/** Files per message to the writer thread, and bytes of page text queued before `write` waits. */
const THREAD_BATCH_FILES = 64;
const THREAD_QUEUE_BYTES = 16 * 1024 * 1024;
/** Folders the writer thread makes ahead of the pages (in the slack while the first pages render). */
const FOLDERS_AHEAD = 256;

// No environment: it runs no site code (and a copy of process.env would list it all: envRecord.ts trackEnv).
const startWriterThread = () => new Worker(workerFile(), { workerData: { sitegenWriter: true }, env: {} });

/**
 * A writer thread started ahead of the render that will take it (prestartWriter). A thread takes 0.1-0.15 s
 * to start, on this project's 2-core machine: started at the render, a cold build of 1,000 pages waited that
 * long for its last writes after its last page rendered; started while the content is parsed (the other core
 * idle), it is ready when the first page is. Unreferenced until taken, so it never keeps a process alive.
 */
let spare: Worker | null = null;

/** When the writer threads of this thread started and were taken (performance.now()), for the tests. */
export const writerThreadLog: { started: number[]; taken: number[] } = { started: [], taken: [] };

/**
 * Starts the writer thread of a render to come that will write `files` pages or more from this thread (the
 * caller's estimate: pageWriter decides with the real count). Nothing when pageWriter would not take one.
 */
export function prestartWriter(files: number): void {
  const writes = engineSettings().writes;
  if (spare || writes === 'sync' || (!writes && files < WRITER_THREAD_MIN)) return;
  const w = (spare = startWriterThread());
  w.unref();
  // One that failed to start is not taken: the render starts a thread of its own, which reports the failure.
  w.on('error', () => {});
  w.once('exit', () => { if (spare === w) spare = null; });
  writerThreadLog.started.push(performance.now());
}

/** Stops a started writer thread no render took (a build that stopped early, or wrote no page itself). */
export async function dropSpareWriter(): Promise<void> {
  const w = spare;
  spare = null;
  if (w) await w.terminate();
}

/**
 * Writes files into `dir` from a worker thread (the engine's worker program as a writer: writerThread.ts),
 * so that a main thread that renders spends no time in the file system: `write` queues the page (waiting
 * only while 16 MB are queued) and `flush` waits for the rest and throws the first write error. The thread
 * (the spare one prestartWriter started, else a new one) ends at `flush`.
 */
export function createThreadWriter(dir: string, fresh = false): Writer {
  let worker: Worker;
  if (spare) { worker = spare; spare = null; worker.ref(); } else { worker = startWriterThread(); writerThreadLog.started.push(performance.now()); }
  writerThreadLog.taken.push(performance.now());
  let batch: (string | Uint8Array)[] = [];
  let batchBytes = 0;
  let queuedBytes = 0;
  let nextId = 1;
  const sizes = new Map<number, number>();
  let failure: Error | null = null;
  let waiters: (() => void)[] = [];
  const wake = () => { for (const w of waiters.splice(0)) w(); };
  worker.on('message', (m: { id: number; failure: WriterFailure | null }) => {
    queuedBytes -= sizes.get(m.id) ?? 0;
    sizes.delete(m.id);
    if (m.failure && !failure) failure = Object.assign(new Error(m.failure.message), { code: m.failure.code, path: m.failure.path });
    wake();
  });
  worker.on('error', (e) => { failure ??= e; sizes.clear(); queuedBytes = 0; wake(); });
  worker.on('exit', () => { if (sizes.size) { failure ??= new Error('the page writer thread stopped'); sizes.clear(); queuedBytes = 0; } wake(); });
  // Folders of pages to come (folders()), made a bounded number ahead of the pages: a batch of pages takes
  // as many more, so the thread never spends long on folders while pages wait (10,000 folders at once held
  // back the first writes, and the render behind the queue's bound).
  const ahead: string[] = [];
  let aheadAt = 0;
  const nextDirs = (n: number): string[] | undefined => {
    if (aheadAt >= ahead.length) return undefined;
    const dirs = ahead.slice(aheadAt, aheadAt + n);
    aheadAt += dirs.length;
    return dirs;
  };
  const send = () => {
    if (!batch.length) return;
    const id = nextId++;
    sizes.set(id, batchBytes);
    worker.postMessage({ id, fresh, files: batch, dirs: nextDirs(batch.length / 2) } satisfies WriterBatch);
    batch = [];
    batchBytes = 0;
  };
  const settled = (done: () => boolean) => new Promise<void>((resolve) => {
    const check = () => (done() ? resolve() : waiters.push(check));
    check();
  });
  return {
    folders(rels) {
      const seen = new Set<string>(ahead);
      for (const rel of rels) { const d = path.join(dir, rel); if (!seen.has(d)) { seen.add(d); ahead.push(d); } }
      send();
      const dirs = nextDirs(FOLDERS_AHEAD);
      if (!dirs) return;
      const id = nextId++;
      sizes.set(id, 0);
      worker.postMessage({ id, fresh, files: [], dirs } satisfies WriterBatch);
    },
    async write(rel, data) {
      const bytes = typeof data === 'string' ? data.length : data.byteLength;
      batch.push(path.join(dir, rel), data);
      batchBytes += bytes;
      queuedBytes += bytes;
      if (batch.length >= THREAD_BATCH_FILES * 2) send();
      if (queuedBytes > THREAD_QUEUE_BYTES) {
        send();
        await settled(() => queuedBytes <= THREAD_QUEUE_BYTES / 2 || !!failure);
      }
    },
    async flush() {
      send();
      await settled(() => sizes.size === 0 || !!failure);
      await worker.terminate();
      if (failure) throw failure;
    },
  };
}
