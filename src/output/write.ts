// write: the build goes into a temporary folder beside the output and is swapped in only when the whole
// build succeeded, so a failed build leaves the previous output untouched, byte for byte.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { engineSettings } from '../core/settings.ts';

export interface Staging {
  dir: string;
  /**
   * The folder was made empty (no output kept from the last build in it): every file written there is new,
   * so writers truncate at open as writeFile does (O_TRUNC on an empty file frees nothing), one call fewer
   * than writing over and cutting to length (10,000 new pages: the ftruncate calls were 48 ms of the writer
   * thread's 0.6 s, and that thread sets the pace of a cold build's render stage). Pass it to the writers
   * of this folder; a file written twice is cut to length either way, so a writer told false is right too.
   */
  fresh: boolean;
  write(rel: string, data: string | Uint8Array): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** Files written at once: enough to keep the disk busy, far below any open-files limit. */
export const MAX_WRITES_IN_FLIGHT = 32;

/**
 * Writes `data` to `file` over what the file held, without truncating it first: a file kept from the
 * previous output (stageOutput's recycling) keeps its blocks when its length does not shrink, where
 * truncating frees them all and writing allocates them again. Measured on this project's disk (ext4 mounted
 * with `discard`): 10,000 pages written over in 0.12 s, against 1.0-1.2 s with writeFile's truncation.
 * A new file is created as writeFile would (mode 0o666 less the umask).
 */
export function writeOverSync(file: string, data: string | Uint8Array, fresh = false): void {
  if (fresh) { fs.writeFileSync(file, data); return; }
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o666);
  try {
    fs.writeFileSync(fd, bytes);
    fs.ftruncateSync(fd, bytes.byteLength);
  } finally {
    fs.closeSync(fd);
  }
}

/** writeOverSync on the thread pool. */
export async function writeOver(file: string, data: string | Uint8Array, fresh = false): Promise<void> {
  if (fresh) return fsp.writeFile(file, data);
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const h = await fsp.open(file, fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o666);
  try {
    await h.writeFile(bytes);
    await h.truncate(bytes.byteLength);
  } finally {
    await h.close();
  }
}

/**
 * Writes files into `dir`. While the disk is fast (tmpfs, an SSD: a file in well under a quarter of a
 * millisecond) each write is synchronous: for small files that costs a fifth of the CPU time of Node's
 * asynchronous writeFile (measured: 1,000 pages of 8 KB, 20 ms against 100-180 ms), which on 2 cores is
 * time taken from rendering. When the first writes show a slow disk (this project's VM disk pays ~1 ms per
 * file created), the rest go to the thread pool: `write` then resolves as soon as the file is under way,
 * waiting only while MAX_WRITES_IN_FLIGHT writes are in flight, so rendering goes on while the disk works.
 * `flush` waits for the rest and throws the first write error. Folders are created once each; another
 * writer (a render worker) creating the same folder at the same time is fine. The engine setting `writes`
 * (src/core/settings.ts) forces one way. `fresh`: see Staging.fresh.
 */
export interface Writer {
  write(rel: string, data: string | Uint8Array): Promise<void>;
  flush(): Promise<void>;
}

/** The writer of a render whose output goes nowhere (`sitegen check`): the pages are rendered, their links
 *  kept by the renderer, and the HTML dropped. */
export const discardWriter = (): Writer => ({ async write() {}, async flush() {} });

/** Mean time per synchronous write (folder + file) above which writes move to the thread pool. */
const SLOW_WRITE_MS = 0.25;
const PROBE_WRITES = 16;

export function createWriter(dir: string, fresh = false): Writer {
  const folders = new Map<string, Promise<unknown>>();
  const ensureDir = (d: string) => {
    let p = folders.get(d);
    if (!p) { p = fsp.mkdir(d, { recursive: true }); folders.set(d, p); }
    return p;
  };
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  // 'thread' is pageWriter's choice of createThreadWriter; a writer made here (a render worker's) adapts.
  const setting = engineSettings().writes;
  const forced = setting === 'thread' ? undefined : setting;
  let sync = forced !== 'async';
  const adaptive = !forced;
  let syncMs = 0, syncCount = 0;
  return {
    async write(rel, data) {
      const abs = path.join(dir, rel);
      if (sync) {
        const t = performance.now();
        try {
          const d = path.dirname(abs);
          if (!folders.has(d)) { fs.mkdirSync(d, { recursive: true }); folders.set(d, Promise.resolve()); }
          writeOverSync(abs, data, fresh);
        } catch (e) {
          failure ??= e;
        }
        syncMs += performance.now() - t;
        if (adaptive && ++syncCount >= PROBE_WRITES && syncMs / syncCount > SLOW_WRITE_MS) sync = false;
        return;
      }
      while (inFlight.size >= MAX_WRITES_IN_FLIGHT) await Promise.race(inFlight);
      const p: Promise<void> = ensureDir(path.dirname(abs))
        .then(() => writeOver(abs, data, fresh))
        .catch((e) => { failure ??= e; })
        .finally(() => { inFlight.delete(p); });
      inFlight.add(p);
    },
    async flush() {
      await Promise.all(inFlight);
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
 * createWriter's; the writes setting forces one ('thread', or 'sync' / 'async' for createWriter).
 */
export function pageWriter(dir: string, files: number, fresh = false): Writer {
  const writes = engineSettings().writes;
  return writes === 'thread' || (!writes && files >= WRITER_THREAD_MIN) ? createThreadWriter(dir, fresh) : createWriter(dir, fresh);
}

// The writer thread: plain CommonJS, started with `eval` so that it needs no file beside the bundle. It
// writes each batch synchronously, folders first, and answers with the batch's id and the first failure;
// after a failure it writes nothing more.
const WRITER_THREAD_SOURCE = `
const fs = require('node:fs');
const path = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const fresh = !!(workerData && workerData.fresh);
const made = new Set();
let failure = null;
parentPort.on('message', (m) => {
  for (let i = 0; i < m.files.length && !failure; i += 2) {
    const file = m.files[i];
    try {
      const dir = path.dirname(file);
      if (!made.has(dir)) { fs.mkdirSync(dir, { recursive: true }); made.add(dir); }
      // As writeOverSync (write.ts): in a fresh folder as writeFile does, else over the file's old bytes,
      // then cut to length.
      const data = m.files[i + 1];
      if (fresh) { fs.writeFileSync(file, data); continue; }
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o666);
      try { fs.writeFileSync(fd, bytes); fs.ftruncateSync(fd, bytes.byteLength); } finally { fs.closeSync(fd); }
    } catch (e) {
      failure = { message: String(e && e.message || e), code: e && e.code, path: e && e.path };
    }
  }
  parentPort.postMessage({ id: m.id, failure });
});
`;

/** Files per message to the writer thread, and bytes of page text queued before `write` waits. */
const THREAD_BATCH_FILES = 64;
const THREAD_QUEUE_BYTES = 16 * 1024 * 1024;

/**
 * Writes files into `dir` from a worker thread, so that a main thread that renders spends no time in
 * the file system: `write` queues the page (waiting only while 16 MB are queued) and `flush` waits for
 * the rest and throws the first write error, as createWriter's do. The thread ends at `flush`.
 */
export function createThreadWriter(dir: string, fresh = false): Writer {
  const worker = new Worker(WRITER_THREAD_SOURCE, { eval: true, workerData: { fresh } });
  let batch: (string | Uint8Array)[] = [];
  let batchBytes = 0;
  let queuedBytes = 0;
  let nextId = 1;
  const sizes = new Map<number, number>();
  let failure: Error | null = null;
  let waiters: (() => void)[] = [];
  const wake = () => { for (const w of waiters.splice(0)) w(); };
  worker.on('message', (m: { id: number; failure: { message: string; code?: string; path?: string } | null }) => {
    queuedBytes -= sizes.get(m.id) ?? 0;
    sizes.delete(m.id);
    if (m.failure && !failure) failure = Object.assign(new Error(m.failure.message), { code: m.failure.code, path: m.failure.path });
    wake();
  });
  worker.on('error', (e) => { failure ??= e; sizes.clear(); queuedBytes = 0; wake(); });
  worker.on('exit', () => { if (sizes.size) { failure ??= new Error('the page writer thread stopped'); sizes.clear(); queuedBytes = 0; } wake(); });
  const send = () => {
    if (!batch.length) return;
    const id = nextId++;
    sizes.set(id, batchBytes);
    worker.postMessage({ id, files: batch });
    batch = [];
    batchBytes = 0;
  };
  const settled = (done: () => boolean) => new Promise<void>((resolve) => {
    const check = () => (done() ? resolve() : waiters.push(check));
    check();
  });
  return {
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

/** How a build may reuse the folder of the output before the previous one (see stageOutput). */
export interface Recycling {
  /** Where the replaced output is kept for the next build (on the output's file system, else it is deleted). */
  dir: string;
  /** Every file this build writes, relative to the output: what of the kept folder may stay to be overwritten. */
  planned: Iterable<string>;
  /**
   * The site root, when `dir` is inside it: the kept folder is used only when the folders from the root to
   * it are no links (a `.sitegen` linked elsewhere would have the build move and prune files out there).
   */
  root?: string;
}

/** `recycle` when its folder can be used: its parent reached from the root through no symbolic link. */
async function usable(recycle: Recycling | undefined): Promise<Recycling | undefined> {
  if (!recycle?.root) return recycle;
  const parent = path.dirname(path.resolve(recycle.dir));
  const rel = path.relative(path.resolve(recycle.root), parent);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  let d = path.resolve(recycle.root);
  for (const part of rel ? rel.split(path.sep) : []) {
    d = path.join(d, part);
    try {
      if (!(await fsp.lstat(d)).isDirectory()) return undefined;
    } catch (e: any) {
      if (e.code === 'ENOENT') return recycle; // made as a plain folder when the output is kept (keepFor)
      throw e;
    }
  }
  return recycle;
}

/**
 * A staging folder beside `outDir`, swapped in by `commit`. With `recycle`, the output that `commit`
 * replaces is moved to `recycle.dir` instead of being deleted, and the next build stages in that folder:
 * it keeps the files the new build will overwrite (prune) and writes over them. On disks where deleting
 * many files makes creating files slow for minutes after (ext4: see README, "Performance"), a build then
 * neither deletes its predecessor nor creates its files anew.
 *
 * No symbolic link is followed: a link found where the kept output should be (planted there, or an output
 * folder that was itself a link) is removed as a link, never its target's files, and the build starts
 * from an empty folder; links inside the kept output are removed by pruneTo. An output folder that is a
 * link is replaced by the new output, and the folder it pointed to is left as it was.
 */
export async function stageOutput(outDir: string, wanted?: Recycling): Promise<Staging> {
  const dir = `${outDir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  await fsp.rm(dir, { recursive: true, force: true });
  let reused = false;
  const recycle = await usable(wanted);
  if (recycle) {
    try {
      await fsp.rename(recycle.dir, dir);
      // What was moved is checked, not what the path named before: a link moves as a link.
      if ((await fsp.lstat(dir)).isDirectory()) {
        reused = true;
        pruneTo(dir, recycle.planned);
      } else await fsp.unlink(dir);
    } catch (e: any) {
      if (reused) await fsp.rm(dir, { recursive: true, force: true }); // half pruned: start empty instead
      else if (e.code !== 'ENOENT') await fsp.rm(recycle.dir, { recursive: true, force: true }).catch(() => {});
      reused = false;
    }
  }
  await fsp.mkdir(dir, { recursive: true });
  // Each folder is created once, parents first; concurrent writes into a new folder share the promise.
  const folders = new Map<string, Promise<void>>([[dir, Promise.resolve()]]);
  const ensureDir = (d: string): Promise<void> => {
    let p = folders.get(d);
    if (!p) {
      p = ensureDir(path.dirname(d)).then(() => fsp.mkdir(d).catch((e) => { if (e.code !== 'EEXIST') throw e; }));
      folders.set(d, p);
    }
    return p;
  };
  // A semaphore: callers may start any number of writes, at most MAX_WRITES_IN_FLIGHT files are open.
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const acquire = () => (inFlight < MAX_WRITES_IN_FLIGHT ? (inFlight++, Promise.resolve()) : new Promise<void>((r) => waiting.push(r)));
  const release = () => { const next = waiting.shift(); if (next) next(); else inFlight--; };
  return {
    dir,
    fresh: !reused,
    async write(rel, data) {
      const abs = path.join(dir, rel);
      await ensureDir(path.dirname(abs));
      await acquire();
      try { await writeOver(abs, data, !reused); } finally { release(); }
    },
    async commit() {
      const old = `${outDir}.old-${process.pid}-${Date.now().toString(36)}`;
      let hadOld = false;
      try { await fsp.rename(outDir, old); hadOld = true; } catch (e: any) { if (e.code !== 'ENOENT') throw e; }
      try {
        await fsp.rename(dir, outDir);
      } catch (e) {
        if (hadOld) await fsp.rename(old, outDir); // put the previous output back
        throw e;
      }
      if (!hadOld) return;
      // The output replaced may have been a link (to a web root, say): the link goes, its target stays.
      if (!(await fsp.lstat(old)).isDirectory()) await fsp.unlink(old);
      else if (!(recycle && await keepFor(old, recycle.dir))) await fsp.rm(old, { recursive: true, force: true });
    },
    async abort() {
      // A recycled folder goes back for the next build (it is pruned again then); a new one is deleted.
      if (!(reused && recycle && await keepFor(dir, recycle.dir))) await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Moves `from` to `to` for a later build; false when it cannot (another file system, `to` taken). */
async function keepFor(from: string, to: string): Promise<boolean> {
  try {
    await fsp.mkdir(path.dirname(to), { recursive: true });
    await fsp.rename(from, to);
    return true;
  } catch {
    return false;
  }
}

/** The mode and owner a file gets when it is created here (what a kept file must have to be written over). */
const newFileOwnership = () => ({ mode: 0o666 & ~process.umask(), uid: process.getuid?.() });

/**
 * Removes from `dir` everything the build will not write: files not planned, folders no planned file is in,
 * and anything that is not a plain file or folder (a symbolic link would make a write land elsewhere). A
 * planned file stays only if writing over it is the same as creating it: one link (a hard-linked copy of a
 * deployed output must not change under its owner) and a new file's mode. What stays is then overwritten
 * by the build, so the staged output holds exactly what a build into an empty folder holds.
 */
export function pruneTo(dir: string, planned: Iterable<string>): void {
  const files = new Set<string>();
  const folders = new Set<string>([dir]);
  for (const rel of planned) {
    const abs = path.join(dir, rel);
    files.add(abs);
    for (let d = path.dirname(abs); d.length > dir.length && !folders.has(d); d = path.dirname(d)) folders.add(d);
  }
  const created = newFileOwnership();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (folders.has(p)) walk(p);
        else fs.rmSync(p, { recursive: true, force: true });
      } else if (!(e.isFile() && files.has(p) && sameAsNew(fs.lstatSync(p), created))) fs.rmSync(p, { force: true });
    }
  };
  walk(dir);
}

const sameAsNew = (s: fs.Stats, created: ReturnType<typeof newFileOwnership>) => s.nlink === 1 && (s.mode & 0o7777) === created.mode && s.uid === (created.uid ?? s.uid);
