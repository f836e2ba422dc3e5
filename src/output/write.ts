// write: the build goes into a temporary folder beside the output and is swapped in only when the whole
// build succeeded, so a failed build leaves the previous output untouched, byte for byte.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { writeOver, writeOverChunks } from './writeOver.ts';
import type { KeptListing } from './keptListing.ts';

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
  /** The folder is the live output itself, patched at commit (output/patch.ts); pages render to memory. */
  inPlace?: boolean;
  /** After a patch's commit: the files it wrote or deleted (relative to the output). */
  touched?: Set<string>;
  write(rel: string, data: string | Uint8Array): Promise<void>;
  /** Writes a text given in pieces, one after another (a big host file, never held whole); without it, the
   *  pieces are joined and written. */
  writeChunks?(rel: string, chunks: Iterable<string>): Promise<void>;
  /** Copies a file in (from the build cache: a clone where the disk can, never a link). */
  copy(rel: string, from: string): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** A file of the output besides the pages: its bytes or text, a text made when written, or a text in pieces. */
export type OtherFile = string | Uint8Array | (() => string) | { chunks: () => Iterable<string> };

/**
 * Writes `made` as `rel`, unless `needs` (the build record) says the folder holds those bytes already. A
 * text in pieces is hashed in one pass and written in another, so it is never held whole.
 */
export async function writeOther(staging: Staging, rel: string, made: OtherFile, needs?: (rel: string, data: string | Uint8Array | { sha1: string }) => boolean): Promise<void> {
  if (typeof made === 'object' && !(made instanceof Uint8Array)) {
    if (needs) {
      const h = createHash('sha1');
      for (const c of made.chunks()) h.update(c);
      if (!needs(rel, { sha1: h.digest('base64url') })) return;
    }
    if (staging.writeChunks) await staging.writeChunks(rel, made.chunks());
    else await staging.write(rel, [...made.chunks()].join(''));
    return;
  }
  const data = typeof made === 'function' ? made() : made;
  if (!needs || needs(rel, data)) await staging.write(rel, data);
}

/** How a build may reuse the folder of the output before the previous one (see stageOutput). */
/** Writes image variants into `staging`: over a kept output, a variant it has (the same name, the same size)
 *  stays, checked with plain stat calls (thousands of promise-wrapped ones cost the main thread more than the
 *  calls themselves); one from the build cache is copied by the kernel (a clone where the disk can), never
 *  linked, so nothing done to dist/ afterwards can change the cache. */
export async function writeVariants<V extends { path: string; file?: string; cached?: boolean }>(staging: Staging, files: V[], bytes: (f: V) => Promise<Uint8Array>): Promise<void> {
  const size = (file: string) => { try { const st = fs.lstatSync(file); return st.isFile() ? st.size : -1; } catch { return -1; } };
  const toWrite = staging.fresh ? files : files.filter((f) => {
    if (!f.file) return true;
    const had = size(path.join(staging.dir, f.path));
    return had < 0 || had !== size(f.file);
  });
  await Promise.all(toWrite.map(async (f) => {
    if (f.cached && await staging.copy(f.path, f.file!).then(() => true, () => false)) return;
    await staging.write(f.path, await bytes(f));
  }));
}

export interface Recycling {
  /** Where the replaced output is kept for the next build (on the output's file system, else it is deleted). */
  dir: string;
  /** Every file this build writes, relative to the output: what of the kept folder may stay to be overwritten. */
  planned: Iterable<string>;
  /** The kept folder listed on another thread meanwhile (keptListing.ts), awaited before it is moved. */
  listed?: Promise<KeptListing | null> | null;
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
      const listed = await recycle.listed;
      await fsp.rename(recycle.dir, dir);
      // What was moved is checked, not what the path named before: a link moves as a link.
      if ((await fsp.lstat(dir)).isDirectory()) {
        reused = true;
        pruneTo(dir, recycle.planned, listed);
      } else await fsp.unlink(dir);
    } catch (e: any) {
      if (reused) await fsp.rm(dir, { recursive: true, force: true }); // half pruned: start empty instead
      else if (e.code !== 'ENOENT') await fsp.rm(recycle.dir, { recursive: true, force: true }).catch(() => {});
      reused = false;
    }
  }
  await fsp.mkdir(dir, { recursive: true });
  // Each folder is created once; the writes are synchronous (a few files: static, assets, host files).
  const folders = new Set<string>([dir]);
  /** The absolute path of `rel` in the staging folder, its folder made. */
  const placed = (rel: string) => {
    const abs = path.join(dir, rel);
    const d = path.dirname(abs);
    if (!folders.has(d)) { fs.mkdirSync(d, { recursive: true }); folders.add(d); }
    return abs;
  };
  return {
    dir,
    fresh: !reused,
    async write(rel, data) { writeOver(placed(rel), data, !reused); },
    async writeChunks(rel, chunks) { writeOverChunks(placed(rel), chunks, !reused); },
    async copy(rel, from) { await fsp.copyFile(from, placed(rel), fs.constants.COPYFILE_FICLONE); },
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
 * by the build, so the staged output holds exactly what a build into an empty folder holds. `listed`: the
 * folder as keptListing.ts read it (under the build lock, before it was moved to `dir`), read here instead.
 */
export function pruneTo(dir: string, planned: Iterable<string>, listed?: KeptListing | null): void {
  const files = new Set<string>();
  const folders = new Set<string>([dir]);
  for (const rel of planned) {
    const abs = path.join(dir, rel);
    files.add(abs);
    for (let d = path.dirname(abs); d.length > dir.length && !folders.has(d); d = path.dirname(d)) folders.add(d);
  }
  const created = newFileOwnership();
  if (listed) { pruneListed(dir, files, folders, created, listed); return; }
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

/** pruneTo's walk over a listing: the same answer for each path, a folder removed with all below it. */
function pruneListed(dir: string, files: Set<string>, folders: Set<string>, created: ReturnType<typeof newFileOwnership>, listed: KeptListing): void {
  const n = listed.nums;
  let gone: string | null = null; // a folder removed: the paths below it are skipped
  listed.paths.split('\0').forEach((rel, i) => {
    if (!rel || (gone !== null && rel.startsWith(gone))) return;
    const p = path.join(dir, rel), kind = n[4 * i];
    if (kind === 2) {
      if (!folders.has(p)) { fs.rmSync(p, { recursive: true, force: true }); gone = rel + path.sep; }
    } else if (!(kind === 1 && files.has(p) && sameAsNew({ nlink: n[4 * i + 1], mode: n[4 * i + 2], uid: n[4 * i + 3] }, created))) fs.rmSync(p, { force: true });
  });
}

const sameAsNew = (s: Pick<fs.Stats, 'nlink' | 'mode' | 'uid'>, created: ReturnType<typeof newFileOwnership>) => s.nlink === 1 && (s.mode & 0o7777) === created.mode && s.uid === (created.uid ?? s.uid);
