// The build caches' shared mechanics: when is a cached thing still valid (stamps: size and mtime of the
// files it was made from; fingerprints of folders and package versions), and how is it written so that a
// concurrent build reads all of the old or all of the new (write beside, then rename: the one swap idiom).
// Which caches there are, where they live and how they stay bounded: registry.ts and prune.ts. A cache is
// an optimisation only: none of these throws on a failed read.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';

/** What a cached thing was made from: absolute path, size and mtime of an input file. */
export type Stamp = [file: string, size: number, mtimeMs: number];

/** Sizes and mtimes of files (a missing file gets -1, so it never matches). */
export function stampFiles(files: string[]): Stamp[] {
  return files.map((f) => {
    try { const s = fs.statSync(f); return [f, s.size, s.mtimeMs]; } catch { return [f, -1, -1]; }
  });
}

/** Whether every stamped file still has its size and mtime (one stamped absent: is still absent). */
export function stampsMatch(stamps: Stamp[]): boolean {
  for (const [f, size, mtime] of stamps) {
    let s: fs.Stats;
    try { s = fs.statSync(f); } catch { if (size === -1) continue; return false; }
    if (s.size !== size || s.mtimeMs !== mtime) return false;
  }
  return true;
}

/** Feeds the path, size and mtime of every file under `dir` (sorted, recursive) into `hash`. */
export function hashFolder(hash: ReturnType<typeof createHash>, dir: string, only: RegExp = /./): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) hashFolder(hash, p, only);
    else if (only.test(e.name)) { const st = fs.statSync(p); hash.update(`${p}\0${st.size}\0${st.mtimeMs}\n`); }
  }
}

/**
 * "name@version" of installed packages ("name@?" when one is missing), found as Node finds them from a
 * package: its own node_modules, then each folder above (an installed sitegen's peers are hoisted there).
 */
export function packageVersions(packageDir: string, names: string[]): string[] {
  return names.map((p) => {
    for (let dir = packageDir; ; dir = path.dirname(dir)) {
      try { return `${p}@${JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', p, 'package.json'), 'utf8')).version}`; } catch { /* look further up */ }
      if (path.dirname(dir) === dir) return `${p}@?`;
    }
  });
}

/** A short hex key for a JSON-able value. */
export const keyOf = (value: unknown, length = 16): string => createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, length);

/**
 * Whether `dir` is reached from `root` through real folders only, `dir` included (no symbolic link on the
 * way): a cache folder that links out of the site is never read from or deleted in.
 */
export async function realFolderUnder(root: string, dir: string): Promise<boolean> {
  const rel = path.relative(root, dir);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return false;
  let d = root;
  for (const part of rel ? rel.split(path.sep) : []) {
    d = path.join(d, part);
    const st = await fsp.lstat(d).catch(() => null);
    if (!st || !st.isDirectory()) return false;
  }
  return true;
}

/** A name beside `target` that no other process or call uses. */
const tmpBeside = (target: string) => `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;

/** Writes a file beside the target and renames it, so a concurrent reader sees the old file or the new one. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = tmpBeside(file);
  try {
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => {});
    throw e;
  }
}

/** writeFileAtomic for a caller that must not yield (a first import waits for the file). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const tmp = tmpBeside(file);
  try {
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Fills a fresh folder beside `dir` and swaps it in whole, so a concurrent reader sees all old or all new.
 * Returns false (leaving `dir` as it was) when filling or swapping failed: a cache is an optimisation only.
 */
export async function replaceFolder(dir: string, fill: (tmp: string) => Promise<void>): Promise<boolean> {
  const tmp = tmpBeside(dir);
  const old = `${tmp}.old`;
  try {
    await fsp.mkdir(tmp, { recursive: true });
    await fill(tmp);
    const hadOld = await fsp.rename(dir, old).then(() => true, () => false);
    try { await fsp.rename(tmp, dir); } catch (e) { if (hadOld) await fsp.rename(old, dir).catch(() => {}); throw e; }
    await fsp.rm(old, { recursive: true, force: true });
    return true;
  } catch {
    await fsp.rm(tmp, { recursive: true, force: true }).catch(() => {});
    return false;
  }
}

/** The `.json` files of a folder (a cache's entries), the most recently used (mtime) first. */
export async function entriesByUse(dir: string): Promise<{ file: string; t: number }[]> {
  const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  const dated = await Promise.all(names.map(async (n) => ({ file: path.join(dir, n), t: (await fsp.stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
  return dated.sort((a, b) => b.t - a.t);
}
