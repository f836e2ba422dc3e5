// The incremental build's record on disk (pipeline/incremental.ts): one file per output it knows, the live
// output's (pages.json) and the one before's (pages-before.json, the output kept in .sitegen/cache/output/
// for a staged build). A patch of dist/ reads and writes only the first; a staged build turns the first
// into the second by a rename. Each page's links and islands are numbers into one list of the strings
// they name (every page of a site links much the same pages: 10,000 pages, 14.5 MB of JSON → a fraction),
// and an entry is decoded only when a build asks for it.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { siteCachePath } from '../cache/registry.ts';
import type { EnvRecord } from './envRecord.ts';

export interface Stamp { size: number; mtimeMs: number; ino: number }

export interface Entry {
  /** The route's (or alias page's) own key: the build key and the route's data. */
  key: string;
  /** The collections the render read, with their hashes then. */
  reads: [string, string][];
  islands: string[];
  links: string[];
  stamp: Stamp;
}

/** The stamp of each file of an output, and of each folder they are in ('' the output itself: mtime, inode),
 *  as the output went live: a file or folder changed, added or removed since (by hand) changes one of them. */
export interface OutputStamps { stamps: Record<string, [number, number, number]>; dirs: Record<string, [number, number]> }

/** One output: its files' entries (pages and alias pages by key, other files by the hash of their bytes:
 *  `key` then starts with "bytes:") and, when known, the list of every file it holds. */
export interface Generation extends Partial<OutputStamps> {
  entry(output: string): Entry | undefined;
  files?: string[];
  /** The environment its pages were rendered in (the variables they read, or the whole environment's hash). */
  env?: EnvRecord;
}

type Stored = [key: string, reads: [string, string][], islands: number[], links: number[], size: number, mtimeMs: number, ino: number];
interface StoredGeneration extends Partial<OutputStamps> { version: number; outDir: string; strings: string[]; entries: Record<string, Stored>; files?: string[]; env?: EnvRecord }

const VERSION = 4;
export const recordFiles = (root: string) => ({ live: siteCachePath(root, 'pages'), before: siteCachePath(root, 'pagesBefore') });

export const emptyGeneration = (): Generation => ({ entry: () => undefined });

/** The generation a record file holds for `outDir`, or null (none, unreadable, another version or output). */
export function readGeneration(file: string, outDir: string): Generation | null {
  let g: StoredGeneration;
  try { g = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredGeneration; } catch { return null; }
  if (g?.version !== VERSION || g.outDir !== outDir || !g.entries || !Array.isArray(g.strings)) return null;
  const { strings, entries } = g;
  const names = (ix: number[]) => ix.map((i) => strings[i]);
  return {
    entry(output) {
      const e = Object.hasOwn(entries, output) ? entries[output] : undefined;
      return e && { key: e[0], reads: e[1], islands: names(e[2]), links: names(e[3]), stamp: { size: e[4], mtimeMs: e[5], ino: e[6] } };
    },
    files: g.files, stamps: g.stamps, dirs: g.dirs, env: g.env,
  };
}

/** Writes a generation beside its file, then renames it into place. */
export async function writeGeneration(file: string, outDir: string, entries: Iterable<[string, Entry]>, rest: { files?: string[]; env?: EnvRecord } & Partial<OutputStamps> = {}): Promise<void> {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const ix = (list: string[]) => list.map((s) => { let i = index.get(s); if (i === undefined) { index.set(s, i = strings.length); strings.push(s); } return i; });
  const stored: Record<string, Stored> = {};
  for (const [output, e] of entries) stored[output] = [e.key, e.reads, ix(e.islands), ix(e.links), e.stamp.size, e.stamp.mtimeMs, e.stamp.ino];
  const g: StoredGeneration = { version: VERSION, outDir, strings, entries: stored, ...rest };
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await fsp.writeFile(tmp, JSON.stringify(g));
  await fsp.rename(tmp, file);
}
