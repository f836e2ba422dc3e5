// upToDate: a build whose inputs are all as the last build left them, into an output that is still what it
// wrote, does nothing and reports what that build reported. Its inputs: every file and folder below
// content/ and static/ (size and mtime; a folder's mtime changes when a file is added, removed or renamed
// in it), the site module (the module cache answers for the config, templates and plugins it imports:
// site/cache.ts), the files of the client bundle (its cache record's stamps: bundle.ts), the engine, Node, the flags, the environment and
// the day (a config may read the date: it runs again at least once a day). The output: every file and folder
// the incremental record stamped as it went live (incremental.ts OutputStamps; image variants by their folder). Inputs are stamped before
// the build reads them, so a file changed while a build runs makes the next one build.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { BuildResult } from '../core/types.ts';
import { cachedSiteModule } from '../site/cache.ts';
import { PACKAGE_DIR } from '../site/paths.ts';
import { packageVersions, stampsMatch, type Stamp } from '../cache/index.ts';
import { configureEngine, engineSettings, type EngineSettings } from '../core/settings.ts';
import { acquireBuildLock } from './buildLock.ts';
import { engineStamp, type OutputStamps } from './incremental.ts';
import { below, lstatOrNull } from './patchStamps.ts';
import { clientRecordFile, siteCachePath } from '../cache/registry.ts';
import { numbers, splitPacked } from './packedFile.ts';
import { envSame, envValue, wholeEnv, type EnvRecord } from './envRecord.ts';
import { probeOutput, type OutputProbe } from './outputProbe.ts';
import { sha1 } from './stableText.ts';
import type { FileStamp } from '../content/parse.ts';
import { pageTypes, type PageTypeRow } from '../core/pageTypes.ts';

const VERSION = 5;
const memoFile = (root: string) => siteCachePath(root, 'build');

/** The stamps of content/ and static/ in walk order: each path, and two numbers a path (a file: size,
 *  mtime; a folder: -1, mtime; none there: -2, 0). */
interface Walked { paths: string[]; nums: number[] }
// Stored packed: the paths as one text, the numbers as one Float64Array, and the output's files and folders
// as lists with their numbers likewise, compared number by number, where an object per file (30,000 keys and
// arrays at 10,000 pages) was a third of a skipped build's time after Node's start, in parsing and in the
// collector. In the file they are raw bytes after a line of JSON (no escaped separator, no base64 to decode).
interface PackedWalk { paths: string; nums: Float64Array }
/** The output's folders and files, each list as one text (`nd` and `nf` of them), and their numbers. */
interface PackedOutput { nd: number; nf: number; dirs: string; files: string; nums: Float64Array }
/** The record's first line. `env`: the variables the build read, with their values (null: unset); a string:
 *  a hash of the whole environment, when the build listed it. `sizes`: the byte lengths of the parts that
 *  follow the line, in the order of Parts. The result's page reports are the last part, parsed only when
 *  read (a skipped build never reads them but for --json: at 10,000 pages they were the larger half of the
 *  record to parse); its summary prints `types`, the reports counted by page type. */
interface Header { version: number; key: string; moduleFile: string; bundle: string | null; env: EnvRecord; nd: number; nf: number; sizes: number[]; types: PageTypeRow[]; result: Omit<BuildResult, 'timings' | 'pageReports' | 'pageTypes'> }
interface Memo extends Header { inputs: PackedWalk; output: PackedOutput; reports: Buffer }
/** The parts after the first line: input paths, input numbers, output folders, output files, output numbers, page reports. */
const PARTS = 6;

const SEP = '\0'; // never in a file name
const numBytes = (nums: ArrayLike<number>) => Buffer.from(Float64Array.from(nums).buffer);
/** The numbers `b` holds; null: not whole numbers of them. */
const f64 = (b: Buffer) => (b.length % 8 ? null : numbers(Float64Array, b, b.length / 8));

function sameWalk(a: Walked, b: PackedWalk): boolean {
  if (a.paths.join(SEP) !== b.paths) return false;
  const n = b.nums;
  if (n.length !== a.nums.length) return false;
  for (let i = 0; i < n.length; i++) if (n[i] !== a.nums[i]) return false;
  return true;
}

function packOutput(o: OutputStamps): { nd: number; nf: number; parts: Buffer[] } {
  const dirs = Object.keys(o.dirs), files = Object.keys(o.stamps);
  const nums: number[] = [];
  for (const d of dirs) nums.push(...o.dirs[d]);
  for (const f of files) nums.push(...o.stamps[f]);
  return { nd: dirs.length, nf: files.length, parts: [Buffer.from(dirs.join(SEP)), Buffer.from(files.join(SEP)), numBytes(nums)] };
}

const unpackList = (text: string, n: number) => (n === 0 ? [] : text.split(SEP));

/** Whether the output `outDir` is, file for file and folder for folder, what `o` stamped (image variants by
 *  their folder: incremental.ts save). A folder's mtime and inode catch a file added, removed or renamed in
 *  it; a file's size, mtime and inode catch it edited in place, which no folder's stamp shows. Paths joined by
 *  concatenation: they are the record's own. */
function outputIntact(outDir: string, o: PackedOutput): boolean {
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
async function readMemo(root: string): Promise<Memo | null> {
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
function withReports<T extends object>(result: T, bytes: Buffer, types: PageTypeRow[]): T & Pick<BuildResult, 'pageReports' | 'pageTypes'> {
  let reports: BuildResult['pageReports'] | undefined;
  const out = Object.assign(result, { pageTypes: types }) as T & Pick<BuildResult, 'pageReports' | 'pageTypes'>;
  return Object.defineProperty(out, 'pageReports', {
    enumerable: true, configurable: true,
    get: () => (reports ??= JSON.parse(bytes.toString('utf8'))),
    set: (v: BuildResult['pageReports']) => { reports = v; delete out.pageTypes; },
  });
}

/** What decides a build besides its files. */
export interface MemoKey { outDir: string; drafts?: boolean; siteUrl?: string; env: NodeJS.ProcessEnv }

/** size and mtime of a file, mtime of a folder; null below content/ or static/ when a link is met (its target
 *  could change unseen: such a site is never skipped). */
function walkInputs(root: string): Walked | null {
  const paths: string[] = [];
  const nums: number[] = [];
  // Paths joined by concatenation: a name read from a folder needs no normalizing (path.join per file was
  // a fifth of this walk).
  const base = below(root);
  const walk = (rel: string): boolean => {
    const abs = base + rel;
    let st: fs.Stats | null = null;
    try { st = fs.lstatSync(abs); } catch { /* none */ }
    paths.push(rel);
    if (!st) { nums.push(-2, 0); return true; }
    if (st.isSymbolicLink()) return false;
    if (!st.isDirectory()) { nums.push(st.size, st.mtimeMs); return true; }
    nums.push(-1, st.mtimeMs);
    for (const name of fs.readdirSync(abs)) if (!walk(rel + path.sep + name)) return false;
    return true;
  };
  return walk('content') && walk('static') ? { paths, nums } : null;
}

/** The client bundle's cache record (bundle.ts): its key while the files it was made from keep their stamps,
 *  'none' when the site has no bundle, null when a file of it changed (or the record is unreadable). */
function bundleState(root: string): string | null {
  let text: string;
  try { text = fs.readFileSync(clientRecordFile(root), 'utf8'); } catch (e: any) { return e?.code === 'ENOENT' ? 'none' : null; }
  try {
    const record = JSON.parse(text) as { key: string; stamps: Stamp[] };
    return stampsMatch(record.stamps) ? record.key : null;
  } catch {
    return null;
  }
}


/** The packages the engine renders and parses with (the vendor bundle is made from them). */
const PACKAGES = ['react', 'react-dom', 'zod', 'marked', 'yaml', 'gray-matter', 'js-yaml', 'esbuild'];

function keyOf(k: MemoKey): string {
  return sha1([VERSION, process.version, engineStamp(), ...packageVersions(PACKAGE_DIR, PACKAGES), k.outDir, !!k.drafts, k.siteUrl ?? '', new Date().toISOString().slice(0, 10)].join('\n'));
}

export interface UpToDate {
  /** The last build's result when nothing changed, else undefined (build). */
  result?: Omit<BuildResult, 'timings'>;
  /** The values now of the variables the last build read (or the whole environment's hash): a change
   *  renders every page again (incremental.ts buildKey), as a template may read them. */
  envKey: string;
  /** The last build's day, flags, site module, client bundle and environment: only content/ or static/ may differ. */
  sameSite: boolean;
  /** The size and mtime of each content file, relative to content/, as stamped now (null: unknown). The
   *  content cache takes them for its own stat of each file: the same answer, asked once. */
  contentStamps(): Map<string, FileStamp> | null;
  /** Records a build that succeeded (its output live) for the next one. */
  save(result: BuildResult, moduleFile: string, output: OutputStamps, env: EnvRecord): Promise<void>;
  /** The live output's stamps taken on another thread, for a big output the last build recorded. */
  output?: Promise<OutputProbe | null>;
  /** For a build that replays an edit (replay.ts): the Markdown files below content/ (as the loader names them)
   *  whose size or mtime alone changed since the last build, with its result, when its output is as it left it;
   *  else null (a file was added, removed or renamed; any other input or the output changed). A folder's mtime
   *  alone may differ: with the same paths in the walk, it holds the same files (an editor that saves a file
   *  by renaming a new one over it moves its folder's mtime). */
  edits(): { files: string[]; result: Omit<BuildResult, 'timings'> } | null;
}

export async function upToDate(root: string, k: MemoKey): Promise<UpToDate> {
  const inputs = walkInputs(root);
  const key = keyOf(k);
  const memo = await readMemo(root);
  const sameSite = !!memo && !!inputs && memo.key === key && cachedSiteModule(root)?.file === memo.moduleFile
    && memo.bundle !== null && bundleState(root) === memo.bundle && envSame(memo.env, k.env);
  const fresh = sameSite && sameWalk(inputs!, memo!.inputs) && outputIntact(k.outDir, memo!.output);
  const envKey = memo && typeof memo.env === 'object' ? JSON.stringify(Object.keys(memo.env).map((n) => [n, envValue(k.env, n)])) : wholeEnv(k.env);
  // Replayed as this build's: nothing was made now (every image variant is the last build's).
  const result = fresh ? withReports({ ...memo!.result, rendered: 0, ...(memo!.result.images ? { images: { files: memo!.result.images.files, processed: 0, cached: memo!.result.images.files } } : {}) }, memo!.reports, memo!.types) : undefined;
  let byFile: Map<string, FileStamp> | undefined;
  // A build follows: the output the last build recorded is stamped meanwhile, for its comparisons (outputProbe.ts).
  const o = !fresh && memo?.key === key ? memo.output : null;
  const probe = o && o.nf >= engineSettings().probeMin ? probeOutput(k.outDir, o.nd ? o.dirs : null, o.nf ? o.files : null) : null;
  return {
    result, envKey, sameSite,
    ...(probe ? { output: probe } : {}),
    edits() {
      if (!sameSite || !inputs || inputs.paths.join(SEP) !== memo!.inputs.paths) return null;
      const files: string[] = [];
      const was = memo!.inputs.nums;
      for (let i = 0; i < inputs.paths.length; i++) {
        if ((inputs.nums[2 * i] === was[2 * i] && inputs.nums[2 * i + 1] === was[2 * i + 1]) || (inputs.nums[2 * i] === -1 && was[2 * i] === -1)) continue;
        const rel = inputs.paths[i];
        if (inputs.nums[2 * i] < 0 || was[2 * i] < 0 || !rel.startsWith(`content${path.sep}`) || !rel.endsWith('.md')) return null;
        files.push(rel.slice('content/'.length).split(path.sep).join('/'));
      }
      return files.length && outputIntact(k.outDir, memo!.output) ? { files, result: withReports({ ...memo!.result }, memo!.reports, memo!.types) } : null;
    },
    contentStamps() {
      if (!inputs) return null;
      if (byFile) return byFile;
      byFile = new Map();
      const prefix = `content${path.sep}`;
      // (a path below content/ as the loader names it: on POSIX the walked path itself, cut once)
      const posix = path.sep === '/';
      inputs.paths.forEach((rel, i) => {
        const size = inputs.nums[2 * i];
        if (size >= 0 && rel.startsWith(prefix)) byFile!.set(posix ? rel.slice(prefix.length) : rel.slice(prefix.length).split(path.sep).join('/'), { size, mtimeMs: inputs.nums[2 * i + 1] });
      });
      return byFile;
    },
    async save(result, moduleFile, outputStamps, env) {
      const file = memoFile(root);
      if (!inputs) { await fsp.rm(file, { force: true }); return; }
      const { timings, pageReports, pageTypes: _types, ...rest } = result;
      const reports = JSON.stringify(pageReports);
      const output = packOutput(outputStamps);
      const parts = [Buffer.from(inputs.paths.join(SEP)), numBytes(inputs.nums), ...output.parts, Buffer.from(reports)];
      const header: Header = { version: VERSION, key, moduleFile, bundle: bundleState(root), env, nd: output.nd, nf: output.nf, sizes: parts.map((b) => b.length), types: pageTypes(pageReports), result: rest };
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.tmp-${process.pid}`;
      // (the parts one after another: a copy of them all in one buffer was 27 MB more at 100,000 pages, at the build's peak)
      await fsp.writeFile(tmp, [Buffer.from(`${JSON.stringify(header)}\n`), ...parts]);
      await fsp.rename(tmp, file);
    },
  };
}

/** Whether builds with these settings may be skipped (the caches on, patches not turned off). */
export const skippable = (s: EngineSettings) => s.cache && s.patchMax > 0;

/**
 * For the CLI, before it loads the rest of the engine (the renderer, React, the content loader: most of a
 * skipped build's time): under the build lock, the last build's result when nothing changed (`result`),
 * else the probe for the build to go on with (`probe`: its inputs stamped now, before the build reads them).
 */
export async function probeBuild(root: string, k: MemoKey & { settings?: Partial<EngineSettings>; onWait?: (text: string) => void }): Promise<{ result?: BuildResult; probe?: UpToDate }> {
  configureEngine(k.settings);
  if (!skippable(engineSettings())) return {};
  // Date, not performance: the global performance loads perf_hooks (~2 ms) on first use, here the only one.
  const t0 = Date.now();
  const lock = await acquireBuildLock(root, k.outDir, k.onWait);
  try {
    const probe = await upToDate(root, k);
    if (!probe.result) return { probe };
    const ms = Date.now() - t0;
    // Assigned, not spread: a spread would read (parse) the page reports now.
    return { result: Object.assign(probe.result, { timings: { 'up to date': ms, total: ms }, cached: ['up to date'] }) };
  } finally {
    await lock.release();
  }
}
