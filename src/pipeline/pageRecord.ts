// The incremental build's record on disk (pipeline/incremental.ts): one record per output it knows, the live
// output's (pages.json) and the one before's (pages-before.json, the output kept in .sitegen/cache/output/
// for a staged build). A patch of dist/ reads and writes only the first; a staged build turns the first
// into the second by a rename. Each page's links and islands are numbers into one list of the strings
// they name (every page of a site links much the same pages: 10,000 pages, 14.5 MB of JSON → a fraction),
// and an entry is decoded only when a build asks for it.
// A record is a base file and, beside it, a delta (pages-delta.json): what the builds that patched the
// output since the base was written changed in it (entries, files, stamps), tied to the base by a token.
// A one-file build writes its few changes into the delta instead of the whole base (10,000 pages: 4 MB of
// JSON made and written each time); once the delta grows past a part of the base, the next save writes a
// new base. A delta whose token is not its base's is ignored: the base alone then only makes pages render
// again (each kept page is checked against its file's stamp) or the build stage a whole output.
// The base's packed form is pagePack.ts's; the delta is JSON.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { siteCachePath } from '../cache/registry.ts';
import type { EnvRecord } from './envRecord.ts';
import { readBase, writeBase } from './pagePack.ts';

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
  /** The entry of a file (the same object each time it is asked). */
  entry(output: string): Entry | undefined;
  /** The key of a file's entry, without decoding the entry (most asked keys differ after a template edit). */
  key(output: string): string | undefined;
  /** Every file that has an entry (walked, not copied: 100,000 pages). */
  outputs(): Iterable<string>;
  files?: string[];
  /** The environment its pages were rendered in (the variables they read, or the whole environment's hash). */
  env?: EnvRecord;
  /** The digest of the link targets its build checked the pages' links against (linkScan.ts LinkTargets). */
  targets?: string;
}

type Stored = [key: string, reads: [string, string][], islands: number[], links: number[], size: number, mtimeMs: number, ino: number];
/** A delta: entries (0: gone), files added and removed, stamps and folders (0: gone) since the base. */
interface StoredDelta { version: number; outDir: string; token: string; unknown?: true; strings: string[]; entries: Record<string, Stored | 0>; added: string[]; removed: string[]; stamps: Record<string, [number, number, number] | 0>; dirs: Record<string, [number, number] | 0>; env?: EnvRecord; targets?: string }

const DELTA_VERSION = 5;
export interface RecordFile { base: string; delta: string }
export const recordFiles = (root: string): { live: RecordFile; before: RecordFile } => ({
  live: { base: siteCachePath(root, 'pages'), delta: siteCachePath(root, 'pagesDelta') },
  before: { base: siteCachePath(root, 'pagesBefore'), delta: siteCachePath(root, 'pagesBeforeDelta') },
});

export const emptyGeneration = (): Generation => ({ entry: () => undefined, key: () => undefined, outputs: () => [] });

/** What a read generation came from, for a delta written over it. */
interface Origin { token: string; baseEntries: number; baseFiles: () => Set<string>; delta: Map<string, Entry | null>; added: Set<string>; removed: Set<string>; stamps?: StoredDelta['stamps']; dirs?: StoredDelta['dirs'] }
const origins = new WeakMap<Generation, Origin>();

const readJson = <T>(file: string): T | null => { try { return JSON.parse(fs.readFileSync(file, 'utf8')) as T; } catch { return null; } };

const decoder = (strings: string[]) => (e: Stored): Entry => ({
  key: e[0], reads: e[1], islands: e[2].map((i) => strings[i]), links: e[3].map((i) => strings[i]), stamp: { size: e[4], mtimeMs: e[5], ino: e[6] },
});

/** The generation a record holds for `outDir`, or null (none, unreadable, another version or output, or
 *  marked unknown while its output was patched). */
export function readGeneration(file: RecordFile, outDir: string): Generation | null {
  const b = readBase(file.base, outDir);
  if (!b) return null;
  const g = b.header;
  let d = readJson<StoredDelta>(file.delta);
  if (d?.version !== DELTA_VERSION || d.outDir !== outDir || d.token !== g.token) d = null;
  if (d?.unknown) return null;
  let baseFiles: Set<string> | undefined;
  const origin: Origin = { token: g.token, baseEntries: g.n, baseFiles: () => (baseFiles ??= new Set(b.files ?? [])), delta: new Map(), added: new Set(), removed: new Set() };
  let files = b.files;
  if (d) {
    const fromDelta = decoder(d.strings);
    for (const [output, e] of Object.entries(d.entries)) origin.delta.set(output, e === 0 ? null : fromDelta(e));
    origin.added = new Set(d.added);
    origin.removed = new Set(d.removed);
    origin.stamps = d.stamps;
    origin.dirs = d.dirs;
    if (files) files = [...files.filter((f) => !origin.removed.has(f)), ...d.added];
    overlay(b.stamps, d.stamps);
    overlay(b.dirs, d.dirs);
  }
  const decoded = new Map<string, Entry>();
  const gen: Generation = {
    entry(output) {
      if (origin.delta.has(output)) return origin.delta.get(output) ?? undefined;
      let e = decoded.get(output);
      if (e === undefined) {
        const i = b.index.get(output);
        if (i !== undefined) decoded.set(output, (e = b.entry(i)));
      }
      return e;
    },
    key(output) {
      if (origin.delta.has(output)) return origin.delta.get(output)?.key;
      const i = b.index.get(output);
      return i === undefined ? undefined : b.key(i);
    },
    *outputs() {
      for (const o of b.outputs) if (!origin.delta.has(o)) yield o;
      for (const [o, e] of origin.delta) if (e) yield o;
    },
    files, stamps: b.stamps, dirs: b.dirs, env: d ? d.env : g.env, targets: d ? d.targets : g.targets,
  };
  origins.set(gen, origin);
  return gen;
}

function overlay<T>(to: Record<string, T> | undefined, from: Record<string, T | 0> | undefined): void {
  if (!to || !from) return;
  for (const [k, v] of Object.entries(from)) if (v === 0) delete to[k]; else to[k] = v;
}

/** The strings table and the stored form of entries (a delta's). */
function store(entries: Iterable<[string, Entry | null]>): { strings: string[]; stored: Record<string, Stored | 0> } {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const ix = (list: string[]) => list.map((s) => { let i = index.get(s); if (i === undefined) { index.set(s, i = strings.length); strings.push(s); } return i; });
  const stored: Record<string, Stored | 0> = {};
  for (const [output, e] of entries) stored[output] = e ? [e.key, e.reads, ix(e.islands), ix(e.links), e.stamp.size, e.stamp.mtimeMs, e.stamp.ino] : 0;
  return { strings, stored };
}

async function writeAtomic(file: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await fsp.writeFile(tmp, text);
  await fsp.rename(tmp, file);
}

/** Writes a whole generation (a new base, its delta dropped). */
export async function writeGeneration(file: RecordFile, outDir: string, entries: Iterable<[string, Entry]>, rest: { files?: string[]; env?: EnvRecord; targets?: string } & Partial<OutputStamps> = {}): Promise<void> {
  await writeBase(file.base, outDir, randomBytes(9).toString('base64url'), entries, rest);
  await fsp.rm(file.delta, { force: true });
}

/** Marks the generation `g` read from `file` unknown (before its output is patched), by its delta when it
 *  has a base; else an empty base. */
export async function markUnknown(file: RecordFile, outDir: string, g: Generation | null): Promise<void> {
  const origin = g && origins.get(g);
  if (!origin) { await writeGeneration(file, outDir, []); return; }
  const d: StoredDelta = { version: DELTA_VERSION, outDir, token: origin.token, unknown: true, strings: [], entries: {}, added: [], removed: [], stamps: {}, dirs: {} };
  await writeAtomic(file.delta, JSON.stringify(d));
}

/** What a patch changed in a generation: entries (null: gone), files, stamps and folders. */
export interface Change {
  entries: Map<string, Entry | null>;
  added: string[];
  removed: string[];
  stamps: Record<string, [number, number, number] | 0>;
  dirs: Record<string, [number, number] | 0>;
  env: EnvRecord;
  targets?: string;
}

/** Writes `change` as the delta over the base `g` was read from, merged with the delta it had. False (and
 *  nothing written) when the delta would be too big a part of the base: then write a whole generation. */
export async function writeDelta(file: RecordFile, outDir: string, g: Generation, change: Change): Promise<boolean> {
  const origin = origins.get(g);
  if (!origin) return false;
  const entries = new Map(origin.delta);
  for (const [o, e] of change.entries) entries.set(o, e);
  if (entries.size > Math.max(16, origin.baseEntries / 8)) return false;
  const added = new Set(origin.added), removed = new Set(origin.removed);
  for (const f of change.removed) if (!added.delete(f) && origin.baseFiles().has(f)) removed.add(f);
  for (const f of change.added) if (!removed.delete(f) && !origin.baseFiles().has(f)) added.add(f);
  const { strings, stored } = store(entries);
  const d: StoredDelta = {
    version: DELTA_VERSION, outDir, token: origin.token, strings, entries: stored, added: [...added], removed: [...removed],
    stamps: { ...origin.stamps, ...change.stamps }, dirs: { ...origin.dirs, ...change.dirs }, env: change.env, targets: change.targets,
  };
  await writeAtomic(file.delta, JSON.stringify(d));
  return true;
}

/** Moves the record `from` to `to` (a staged build: the live output's record becomes the one before's). */
export async function moveRecord(from: RecordFile, to: RecordFile): Promise<void> {
  await fsp.rename(from.base, to.base);
  await fsp.rename(from.delta, to.delta).catch(() => fsp.rm(to.delta, { force: true }));
}

export async function removeRecord(file: RecordFile): Promise<void> {
  await fsp.rm(file.base, { force: true });
  await fsp.rm(file.delta, { force: true });
}
