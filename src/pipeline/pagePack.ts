import fsp from 'node:fs/promises';
import fs from 'node:fs';
import path from 'node:path';
import type { EnvRecord } from './envRecord.ts';
import type { Entry, OutputStamps } from './pageRecord.ts';
import { numbers, splitPacked } from './packedFile.ts';

// The base file of a page record (pageRecord.ts), packed as upToDate.ts packs its stamps (packedFile.ts): a
// line of JSON (the header) and raw parts after it, each written as it is made and read without one JSON text of the whole (100,000 pages: 48 MB of JSON made as
// one string at the end of the build, its peak memory, and parsed whole by a one-file build). Lists of
// paths and keys are texts joined by NUL, numbers are Float64Array or Uint32Array bytes, and the strings
// that entries name (links, islands, reads) are tables in JSON, each entry holding numbers into them.
/** The header: `n` entries; `nf` files (-1: the list is not known), `ns` stamps, `nd` folders; the byte
 *  length of each part, in the order of PARTS. */
interface Header { version: number; outDir: string; token: string; env?: EnvRecord; targets?: string; n: number; nf: number; ns: number; nd: number; sizes: number[] }
/** outputs, keys (NUL-joined); strings, reads (JSON tables); meta (Uint32: reads, islands, links an entry);
 *  refs (Uint32: the islands' then the links' numbers into strings); entry stamps (Float64: 3 an entry);
 *  files, stamp paths, folder paths (NUL-joined); stamps (Float64: 3 a file), folders (Float64: 2 a folder). */
const PARTS = 12;
const SEP = '\0'; // never in a file name or a hex key
const VERSION = 6;
const splitList = (text: string, n: number): string[] | null => { const l = n === 0 ? [] : text.split(SEP); return l.length === n ? l : null; };

/** A packed base as read: its entries decoded one by one when asked. */
export interface Base { header: Header; outputs: string[]; index: Map<string, number>; entry(i: number): Entry; key(i: number): string; files?: string[]; stamps: Record<string, [number, number, number]>; dirs: Record<string, [number, number]> }

export function readBase(file: string, outDir: string): Base | null {
  let bytes: Buffer;
  try { bytes = fs.readFileSync(file); } catch { return null; }
  const packed = splitPacked(bytes, PARTS);
  if (!packed) return null;
  try {
    const h = packed.header as Header, p = packed.parts;
    if (h?.version !== VERSION || h.outDir !== outDir || typeof h.token !== 'string') return null;
    if (![h.n, h.nf + 1, h.ns, h.nd].every((n) => Number.isInteger(n) && n >= 0)) return null;
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
    // (a plain loop: Array.from over a subarray with a map function was most of decoding a kept entry)
    const names = (from: number, n: number) => { const out = new Array<string>(n); for (let k = 0; k < n; k++) out[k] = strings[refs[from + k]!]!; return out; };
    return {
      header: h, outputs, index, files, stamps, dirs,
      key: (i) => keys[i]!,
      entry(i) {
        const s = start[i]!, ni = meta[i * 3 + 1]!;
        return { key: keys[i]!, reads: readsTable[meta[i * 3]!]!, islands: names(s, ni), links: names(s + ni, meta[i * 3 + 2]!), stamp: { size: estamps[i * 3]!, mtimeMs: estamps[i * 3 + 1]!, ino: estamps[i * 3 + 2]! } };
      },
    };
  } catch {
    return null;
  }
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

/** Writes a base: every entry and the output's files, stamps and folders, part by part. */
export async function writeBase(file: string, outDir: string, token: string, entries: Iterable<[string, Entry]>, rest: { files?: string[]; env?: EnvRecord; targets?: string } & Partial<OutputStamps>): Promise<void> {
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
  const header: Header = { version: VERSION, outDir, token, env: rest.env, targets: rest.targets, n: outputs.length, nf: rest.files ? rest.files.length : -1, ns: stampPaths.length, nd: dirPaths.length, sizes: parts.map(byteLength) };
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const fh = await fsp.open(tmp, 'w');
  try {
    const all = [Buffer.from(`${JSON.stringify(header)}\n`), ...parts.flat()];
    for (let i = 0; i < all.length; i += 512) await fh.writev(all.slice(i, i + 512));
  } finally {
    await fh.close();
  }
  await fsp.rename(tmp, file);
}

