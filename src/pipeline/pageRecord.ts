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
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
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
  /** The entry of a file (the same object each time it is asked). */
  entry(output: string): Entry | undefined;
  /** Every file that has an entry. */
  outputs(): string[];
  files?: string[];
  /** The environment its pages were rendered in (the variables they read, or the whole environment's hash). */
  env?: EnvRecord;
}

type Stored = [key: string, reads: [string, string][], islands: number[], links: number[], size: number, mtimeMs: number, ino: number];
/** A delta: entries (0: gone), files added and removed, stamps and folders (0: gone) since the base. */
interface StoredDelta { version: number; outDir: string; token: string; unknown?: true; strings: string[]; entries: Record<string, Stored | 0>; added: string[]; removed: string[]; stamps: Record<string, [number, number, number] | 0>; dirs: Record<string, [number, number] | 0>; env?: EnvRecord }

// A base is packed, as upToDate.ts packs its stamps: a line of JSON (the header) and raw parts after it, each
// written as it is made and read without one JSON text of the whole (100,000 pages: 48 MB of JSON made as
// one string at the end of the build, its peak memory, and parsed whole by a one-file build). Lists of
// paths and keys are texts joined by NUL, numbers are Float64Array or Uint32Array bytes, and the strings
// that entries name (links, islands, reads) are tables in JSON, each entry holding numbers into them.
/** The header: `n` entries; `nf` files (-1: the list is not known), `ns` stamps, `nd` folders; the byte
 *  length of each part, in the order of PARTS. */
interface Header { version: number; outDir: string; token: string; env?: EnvRecord; n: number; nf: number; ns: number; nd: number; sizes: number[] }
/** outputs, keys (NUL-joined); strings, reads (JSON tables); meta (Uint32: reads, islands, links an entry);
 *  refs (Uint32: the islands' then the links' numbers into strings); entry stamps (Float64: 3 an entry);
 *  files, stamp paths, folder paths (NUL-joined); stamps (Float64: 3 a file), folders (Float64: 2 a folder). */
const PARTS = 12;
const SEP = '\0'; // never in a file name or a hex key
const VERSION = 6;
const DELTA_VERSION = 5;
export interface RecordFile { base: string; delta: string }
export const recordFiles = (root: string): { live: RecordFile; before: RecordFile } => ({
  live: { base: siteCachePath(root, 'pages'), delta: siteCachePath(root, 'pagesDelta') },
  before: { base: siteCachePath(root, 'pagesBefore'), delta: siteCachePath(root, 'pagesBeforeDelta') },
});

export const emptyGeneration = (): Generation => ({ entry: () => undefined, outputs: () => [] });

/** What a read generation came from, for a delta written over it. */
interface Origin { token: string; baseEntries: number; baseFiles: () => Set<string>; delta: Map<string, Entry | null>; added: Set<string>; removed: Set<string>; stamps?: StoredDelta['stamps']; dirs?: StoredDelta['dirs'] }
const origins = new WeakMap<Generation, Origin>();

const readJson = <T>(file: string): T | null => { try { return JSON.parse(fs.readFileSync(file, 'utf8')) as T; } catch { return null; } };

const decoder = (strings: string[]) => (e: Stored): Entry => ({
  key: e[0], reads: e[1], islands: e[2].map((i) => strings[i]), links: e[3].map((i) => strings[i]), stamp: { size: e[4], mtimeMs: e[5], ino: e[6] },
});

const splitList = (text: string, n: number): string[] | null => { const l = n === 0 ? [] : text.split(SEP); return l.length === n ? l : null; };
/** The `n` numbers `b` holds (copied unless aligned); null: not `n` of them. */
function numbers<T extends Float64Array | Uint32Array>(Type: { new (b: ArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number }, b: Buffer, n: number): T | null {
  const size = Type.BYTES_PER_ELEMENT;
  if (b.length !== n * size) return null;
  if (b.byteOffset % size) { const c = new Uint8Array(b.length); c.set(b); return new Type(c.buffer, 0, n); }
  return new Type(b.buffer as ArrayBuffer, b.byteOffset, n);
}

/** A packed base as read: its entries decoded one by one when asked. */
interface Base { header: Header; outputs: string[]; index: Map<string, number>; entry(i: number): Entry; files?: string[]; stamps: Record<string, [number, number, number]>; dirs: Record<string, [number, number]> }

function readBase(file: string, outDir: string): Base | null {
  let bytes: Buffer;
  try { bytes = fs.readFileSync(file); } catch { return null; }
  const nl = bytes.indexOf(10); // JSON.stringify writes no raw newline
  if (nl < 0) return null;
  try {
    const h = JSON.parse(bytes.toString('utf8', 0, nl)) as Header;
    if (h?.version !== VERSION || h.outDir !== outDir || typeof h.token !== 'string' || !Array.isArray(h.sizes) || h.sizes.length !== PARTS) return null;
    if (![h.n, h.nf + 1, h.ns, h.nd, ...h.sizes].every((n) => Number.isInteger(n) && n >= 0) || h.sizes.reduce((a, n) => a + n, 0) !== bytes.length - nl - 1) return null;
    let at = nl + 1;
    const p = h.sizes.map((n) => bytes.subarray(at, (at += n)));
    const text = (i: number) => p[i]!.toString('utf8');
    const outputs = splitList(text(0), h.n), keys = splitList(text(1), h.n);
    const strings = JSON.parse(text(2)) as string[], readsTable = JSON.parse(text(3)) as [string, string][][];
    const meta = numbers(Uint32Array, p[4]!, h.n * 3), estamps = numbers(Float64Array, p[6]!, h.n * 3);
    const files = h.nf < 0 ? undefined : splitList(text(7), h.nf);
    const stampPaths = splitList(text(8), h.ns), dirPaths = splitList(text(9), h.nd);
    const stampNums = numbers(Float64Array, p[10]!, h.ns * 3), dirNums = numbers(Float64Array, p[11]!, h.nd * 2);
    if (!outputs || !keys || !Array.isArray(strings) || !Array.isArray(readsTable) || !meta || !estamps || files === null || !stampPaths || !dirPaths || !stampNums || !dirNums) return null;
    // Where each entry's numbers start in refs.
    const start = new Uint32Array(h.n + 1);
    for (let i = 0; i < h.n; i++) start[i + 1] = start[i]! + meta[i * 3 + 1]! + meta[i * 3 + 2]!;
    const refs = numbers(Uint32Array, p[5]!, start[h.n]!);
    if (!refs) return null;
    const index = new Map<string, number>();
    outputs.forEach((o, i) => index.set(o, i));
    const stamps: Base['stamps'] = {};
    stampPaths.forEach((f, i) => { stamps[f] = [stampNums[i * 3]!, stampNums[i * 3 + 1]!, stampNums[i * 3 + 2]!]; });
    const dirs: Base['dirs'] = {};
    dirPaths.forEach((d, i) => { dirs[d] = [dirNums[i * 2]!, dirNums[i * 2 + 1]!]; });
    const names = (from: number, n: number) => Array.from(refs.subarray(from, from + n), (j) => strings[j]!);
    return {
      header: h, outputs, index, files, stamps, dirs,
      entry(i) {
        const s = start[i]!, ni = meta[i * 3 + 1]!;
        return { key: keys[i]!, reads: readsTable[meta[i * 3]!]!, islands: names(s, ni), links: names(s + ni, meta[i * 3 + 2]!), stamp: { size: estamps[i * 3]!, mtimeMs: estamps[i * 3 + 1]!, ino: estamps[i * 3 + 2]! } };
      },
    };
  } catch {
    return null;
  }
}

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
    outputs: () => [...b.outputs.filter((o) => !origin.delta.has(o)), ...[...origin.delta].flatMap(([o, e]) => (e ? [o] : []))],
    files, stamps: b.stamps, dirs: b.dirs, env: d ? d.env : g.env,
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

/** A list of numbers kept in chunks as it grows (no array of 100,000s of boxed numbers, no copy). */
class Nums {
  private chunks: Uint8Array[] = [];
  private cur: Float64Array | Uint32Array;
  private at = 0;
  constructor(private make: (n: number) => Float64Array | Uint32Array) { this.cur = make(1 << 14); }
  push(v: number): void {
    if (this.at === this.cur.length) { this.chunks.push(new Uint8Array(this.cur.buffer)); this.cur = this.make(1 << 14); this.at = 0; }
    this.cur[this.at++] = v;
  }
  /** The bytes, chunk by chunk. */
  parts(): Uint8Array[] {
    return [...this.chunks, new Uint8Array(this.cur.buffer, 0, this.at * this.cur.BYTES_PER_ELEMENT)];
  }
}
const f64s = () => new Nums((n) => new Float64Array(n));
const u32s = () => new Nums((n) => new Uint32Array(n));
const byteLength = (parts: Uint8Array[]) => parts.reduce((a, b) => a + b.byteLength, 0);
/** A list joined by SEP, as bytes in pieces of a few thousand items (no one string of the whole). */
function joined(list: Iterable<string>): Uint8Array[] {
  const out: Uint8Array[] = [];
  let piece: string[] = [];
  const flush = () => { if (piece.length) out.push(Buffer.from((out.length ? SEP : '') + piece.join(SEP))); piece = []; };
  for (const s of list) { piece.push(s); if (piece.length === 4096) flush(); }
  flush();
  return out;
}

/** Writes a whole generation (a new base, its delta dropped). */
export async function writeGeneration(file: RecordFile, outDir: string, entries: Iterable<[string, Entry]>, rest: { files?: string[]; env?: EnvRecord } & Partial<OutputStamps> = {}): Promise<void> {
  const strings: string[] = [], stringIndex = new Map<string, number>();
  const readsTable: [string, string][][] = [], readsIndex = new Map<string, number>();
  const outputs: string[] = [], keys: string[] = [];
  const meta = u32s(), refs = u32s(), estamps = f64s();
  const ix = (s: string) => { let i = stringIndex.get(s); if (i === undefined) { stringIndex.set(s, i = strings.length); strings.push(s); } return i; };
  for (const [output, e] of entries) {
    outputs.push(output);
    keys.push(e.key);
    const rk = JSON.stringify(e.reads);
    let r = readsIndex.get(rk);
    if (r === undefined) { readsIndex.set(rk, r = readsTable.length); readsTable.push(e.reads); }
    meta.push(r); meta.push(e.islands.length); meta.push(e.links.length);
    for (const s of e.islands) refs.push(ix(s));
    for (const s of e.links) refs.push(ix(s));
    estamps.push(e.stamp.size); estamps.push(e.stamp.mtimeMs); estamps.push(e.stamp.ino);
  }
  const stampPaths = Object.keys(rest.stamps ?? {}), dirPaths = Object.keys(rest.dirs ?? {});
  const stampNums = f64s(), dirNums = f64s();
  for (const f of stampPaths) for (const v of rest.stamps![f]!) stampNums.push(v);
  for (const d of dirPaths) for (const v of rest.dirs![d]!) dirNums.push(v);
  const parts: Uint8Array[][] = [
    joined(outputs), joined(keys), [Buffer.from(JSON.stringify(strings))], [Buffer.from(JSON.stringify(readsTable))],
    meta.parts(), refs.parts(), estamps.parts(), joined(rest.files ?? []), joined(stampPaths), joined(dirPaths), stampNums.parts(), dirNums.parts(),
  ];
  const header: Header = { version: VERSION, outDir, token: randomBytes(9).toString('base64url'), env: rest.env, n: outputs.length, nf: rest.files ? rest.files.length : -1, ns: stampPaths.length, nd: dirPaths.length, sizes: parts.map(byteLength) };
  await fsp.mkdir(path.dirname(file.base), { recursive: true });
  const tmp = `${file.base}.tmp-${process.pid}`;
  const fh = await fsp.open(tmp, 'w');
  try {
    const all = [Buffer.from(`${JSON.stringify(header)}\n`), ...parts.flat()];
    for (let i = 0; i < all.length; i += 512) await fh.writev(all.slice(i, i + 512));
  } finally {
    await fh.close();
  }
  await fsp.rename(tmp, file.base);
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
    stamps: { ...origin.stamps, ...change.stamps }, dirs: { ...origin.dirs, ...change.dirs }, env: change.env,
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
