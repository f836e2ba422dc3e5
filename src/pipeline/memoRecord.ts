// memoRecord: the up-to-date record of a site's last build (upToDate.ts), as one file: a JSON header line, then
// its parts as raw bytes (packedFile.ts): the input paths and their numbers, the output's folders, files and their
// numbers, and the page reports.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { BuildResult } from '../core/types.ts';
import type { OutputStamps } from './incremental.ts';
import { below, lstatOrNull } from './patchStamps.ts';
import { siteCachePath } from '../cache/registry.ts';
import { numbers, splitPacked } from './packedFile.ts';
import type { EnvRecord } from './envRecord.ts';
import type { PageTypeRow } from '../core/pageTypes.ts';

export const VERSION = 5;
export const memoFile = (root: string) => siteCachePath(root, 'build');

/** The stamps of content/ and static/ in walk order: each path, and two numbers a path (a file: size,
 *  mtime; a folder: -1, mtime; none there: -2, 0). */
export interface Walked { paths: string[]; nums: number[]; /** the paths joined (walkText) */ text?: string }
/** The walk's paths as the record keeps them, joined once however often asked (100,000 paths). */
export const walkText = (w: Walked): string => (w.text ??= w.paths.join(SEP));
// Stored packed: the paths as one text, the numbers as one Float64Array, and the output's files and folders
// as lists with their numbers likewise, compared number by number, where an object per file (30,000 keys and
// arrays at 10,000 pages) was a third of a skipped build's time after Node's start, in parsing and in the
// collector. In the file they are raw bytes after a line of JSON (no escaped separator, no base64 to decode).
export interface PackedWalk { paths: string; nums: Float64Array }
/** The output's folders and files, each list as one text (`nd` and `nf` of them), and their numbers. */
export interface PackedOutput { nd: number; nf: number; dirs: string; files: string; nums: Float64Array }
/** The record's first line. `env`: the variables the build read, with their values (null: unset); a string:
 *  a hash of the whole environment, when the build listed it. `sizes`: the byte lengths of the parts that
 *  follow the line, in the order of Parts. The result's page reports are the last part, parsed only when
 *  read (a skipped build never reads them but for --json: at 10,000 pages they were the larger half of the
 *  record to parse); its summary prints `types`, the reports counted by page type. */
export interface Header { version: number; key: string; moduleFile: string; bundle: string | null; env: EnvRecord; nd: number; nf: number; sizes: number[]; types: PageTypeRow[]; result: Omit<BuildResult, 'timings' | 'pageReports' | 'pageTypes'> }
export interface Memo extends Header { inputs: PackedWalk; output: PackedOutput; reports: Buffer }
/** The parts after the first line: input paths, input numbers, output folders, output files, output numbers, page reports. */
export const PARTS = 6;

export const SEP = '\0'; // never in a file name
export const numBytes = (nums: ArrayLike<number>) => Buffer.from(Float64Array.from(nums).buffer);
/** The numbers `b` holds; null: not whole numbers of them. */
export const f64 = (b: Buffer) => (b.length % 8 ? null : numbers(Float64Array, b, b.length / 8));

export function sameWalk(a: Walked, b: PackedWalk): boolean {
  if (walkText(a) !== b.paths) return false;
  const n = b.nums;
  if (n.length !== a.nums.length) return false;
  for (let i = 0; i < n.length; i++) if (n[i] !== a.nums[i]) return false;
  return true;
}

export function packOutput(o: OutputStamps): { nd: number; nf: number; parts: Buffer[] } {
  const dirs = Object.keys(o.dirs), files = Object.keys(o.stamps);
  const nums: number[] = [];
  for (const d of dirs) nums.push(...o.dirs[d]);
  for (const f of files) nums.push(...o.stamps[f]);
  return { nd: dirs.length, nf: files.length, parts: [Buffer.from(dirs.join(SEP)), Buffer.from(files.join(SEP)), numBytes(nums)] };
}

export const unpackList = (text: string, n: number) => (n === 0 ? [] : text.split(SEP));

/** Whether the output `outDir` is, file for file and folder for folder, what `o` stamped (image variants by
 *  their folder: incremental.ts save). A folder's mtime and inode catch a file added, removed or renamed in
 *  it; a file's size, mtime and inode catch it edited in place, which no folder's stamp shows. Paths joined by
 *  concatenation: they are the record's own. */
export function outputIntact(outDir: string, o: PackedOutput): boolean {
  const dirs = unpackList(o.dirs, o.nd), files = unpackList(o.files, o.nf);
  const n = o.nums;
  if (dirs.length !== o.nd || files.length !== o.nf || n.length !== o.nd * 2 + o.nf * 3) return false;
  const base = below(outDir);
  let j = 0;
  for (const d of dirs) {
    const st = lstatOrNull(d ? base + d : outDir);
    if (!st?.isDirectory() || st.mtimeMs !== n[j] || st.ino !== n[j + 1]) return false;
    j += 2;
  }
  for (const f of files) {
    const st = lstatOrNull(base + f);
    if (!st?.isFile() || st.size !== n[j] || st.mtimeMs !== n[j + 1] || st.ino !== n[j + 2]) return false;
    j += 3;
  }
  return true;
}

/** The record as the last build saved it, its page reports left as bytes (null: none, or not this format). */
export async function readMemo(root: string): Promise<Memo | null> {
  let bytes: Buffer;
  try { bytes = await fsp.readFile(memoFile(root)); } catch { return null; }
  const packed = splitPacked(bytes, PARTS);
  if (!packed) return null;
  try {
    const h = packed.header as Header;
    if (h?.version !== VERSION || !Array.isArray(h.types)) return null;
    const [inPaths, inNums, outDirs, outFiles, outNums, reports] = packed.parts;
    const nums = [f64(inNums!), f64(outNums!)];
    if (!nums[0] || !nums[1] || reports![0] !== 0x5b) return null;
    return {
      ...h, reports: reports!,
      inputs: { paths: inPaths!.toString('utf8'), nums: nums[0] },
      output: { nd: h.nd, nf: h.nf, dirs: outDirs!.toString('utf8'), files: outFiles!.toString('utf8'), nums: nums[1] },
    };
  } catch {
    return null;
  }
}

/** The output's folders and files the record stamps, relative to it (null: no record of this format). */
export async function recordedOutput(root: string): Promise<{ dirs: string[]; files: string[] } | null> {
  const o = (await readMemo(root))?.output;
  return o ? { dirs: unpackList(o.dirs, o.nd), files: unpackList(o.files, o.nf) } : null;
}

/** `result` with the page reports `bytes` hold, parsed when first read (and replaceable, as a plain field:
 *  then `pageTypes`, which counts the saved ones, goes). */
export function withReports<T extends object>(result: T, bytes: Buffer, types: PageTypeRow[]): T & Pick<BuildResult, 'pageReports' | 'pageTypes'> {
  let reports: BuildResult['pageReports'] | undefined;
  const out = Object.assign(result, { pageTypes: types }) as T & Pick<BuildResult, 'pageReports' | 'pageTypes'>;
  return Object.defineProperty(out, 'pageReports', {
    enumerable: true, configurable: true,
    get: () => (reports ??= JSON.parse(bytes.toString('utf8'))),
    set: (v: BuildResult['pageReports']) => { reports = v; delete out.pageTypes; },
  });
}

/** Writes the record: its header line, then its parts one after another (a copy of them all in one buffer was
 *  27 MB more at 100,000 pages, at the build's peak). */
export async function writeMemo(root: string, header: Omit<Header, 'sizes'>, parts: Buffer[]): Promise<void> {
  const file = memoFile(root);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await fsp.writeFile(tmp, [Buffer.from(`${JSON.stringify({ ...header, sizes: parts.map((b) => b.length) })}\n`), ...parts]);
  await fsp.rename(tmp, file);
}
