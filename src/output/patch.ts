// patch: a build that changes few files of the live output writes them into it in place, instead of staging
// a whole output and swapping it in (build.ts decides). Nothing is written until `commit`, which the build
// calls only once it knows there is no error (render, images, links): until then the files wait in memory.
// At commit the files the output no longer has are deleted first (and folders left empty), then each new or
// changed file is written beside its place and renamed over it, so a reader of the output sees the old file
// or the new one, never half of one. No symbolic link in the output is followed: one found where a folder
// is needed is removed as a link, as the staging folder's are (write.ts pruneTo).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { writeOver } from './writeOver.ts';
import type { Staging } from './write.ts';

type Pending = { data: string | Uint8Array } | { from: string };

// A planned path is normal already (no empty, `.` or `..` segment, no backslash) but for odd cases, and then
// path.normalize returns it as it is: asked only of the others (a one-file build calls it twice per output
// file: 35 ms of the commit's profile at 10,000 pages). tests/unit/security3-linear.test.ts holds the two alike.
const ODD = /\/\/|(?:^|\/)\.\.?(?:\/|$)|\\/;
export const normalized = (rel: string): string => (path.sep === '/' && rel !== '' && !ODD.test(rel) ? rel : path.normalize(rel));

/** Whether two lists hold the same items in the same order (a patch's lists of the output's files mostly do:
 *  then no set of either is needed to find what one adds to or removes from the other). */
export const sameList = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/**
 * The live output `outDir` as the folder a build writes into. `previous`: every file it holds now (the
 * incremental record's list); `planned()`: every file it holds after this build, asked at commit.
 */
export function patchOutput(outDir: string, previous: string[], planned: () => Iterable<string>): Staging & { pending: Map<string, string | Uint8Array>; touched: Set<string> } {
  const pending = new Map<string, Pending>();
  const touched = new Set<string>();
  // Rendered pages land here (a memory render target): moved into `pending` at commit.
  const pages = new Map<string, string | Uint8Array>();
  /** Makes the folders of `rel` below outDir, replacing a link or file found on the way by a folder. */
  const folders = new Set<string>([outDir]);
  const ensureDir = (abs: string) => {
    if (folders.has(abs)) return;
    ensureDir(path.dirname(abs));
    let st: fs.Stats | null = null;
    try { st = fs.lstatSync(abs); } catch (e: any) { if (e.code !== 'ENOENT') throw e; }
    if (st && !st.isDirectory()) { fs.rmSync(abs, { force: true }); st = null; }
    if (!st) fs.mkdirSync(abs);
    folders.add(abs);
  };
  /** Whether every folder from outDir down to `abs` is a folder (no link): a file below a link is not ours. */
  const real = new Map<string, boolean>([[outDir, true]]);
  const underFolders = (abs: string): boolean => {
    let r = real.get(abs);
    if (r === undefined) {
      r = underFolders(path.dirname(abs)) && !!fs.lstatSync(abs, { throwIfNoEntry: false })?.isDirectory();
      real.set(abs, r);
    }
    return r;
  };
  return {
    dir: outDir,
    fresh: false,
    inPlace: true,
    pending: pages,
    touched,
    async write(rel, data) { pending.set(rel, { data }); },
    async copy(rel, from) { pending.set(rel, { from }); },
    async commit() {
      for (const [rel, data] of pages) pending.set(rel, { data });
      const p = planned(), now = Array.isArray(p) ? p as string[] : [...p];
      // The same list as before (most patches): nothing to delete, and no set of 100,000 names to find that.
      const keep = sameList(previous, now) ? null : new Set(now.map(normalized));
      const emptied = new Set<string>();
      for (const rel of keep ? previous : []) {
        if (keep!.has(normalized(rel))) continue;
        const abs = path.join(outDir, rel);
        if (!underFolders(path.dirname(abs))) continue;
        await fsp.rm(abs, { force: true });
        touched.add(rel);
        emptied.add(path.dirname(abs));
      }
      // Folders left empty go, as a build into an empty folder would not make them (deepest first).
      for (const d of [...emptied].sort((a, b) => b.length - a.length)) {
        for (let p = d; p.length > outDir.length; p = path.dirname(p)) {
          try { fs.rmdirSync(p); } catch { break; } // not empty, or gone
        }
      }
      for (const [rel, what] of pending) {
        touched.add(rel);
        const abs = path.join(outDir, rel);
        ensureDir(path.dirname(abs));
        const tmp = `${abs}.sitegen-${process.pid}.tmp`;
        try {
          if ('data' in what) writeOver(tmp, what.data, true);
          else await fsp.copyFile(what.from, tmp, fs.constants.COPYFILE_FICLONE);
          // A folder where the file goes (an old output had one there): removed, as a clean build has none.
          const st = fs.lstatSync(abs, { throwIfNoEntry: false });
          if (st?.isDirectory()) await fsp.rm(abs, { recursive: true, force: true });
          await fsp.rename(tmp, abs);
        } catch (e) {
          await fsp.rm(tmp, { force: true });
          throw e;
        }
      }
    },
    async abort() { pending.clear(); pages.clear(); },
  };
}
