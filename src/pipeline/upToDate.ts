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
import { below } from './patchStamps.ts';
import { clientRecordFile } from '../cache/registry.ts';
import { memoFile, numBytes, outputIntact, packOutput, readMemo, sameWalk, SEP, VERSION, walkText, withReports, writeMemo, type Header, type Walked } from './memoRecord.ts';
import { envSame, envValue, wholeEnv, type EnvRecord } from './envRecord.ts';
import { probeOutput, type OutputProbe } from './outputProbe.ts';
import { sha1 } from './stableText.ts';
import type { FileStamp } from '../content/parse.ts';
import { pageTypes } from '../core/pageTypes.ts';

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
  /** Records a replayed build: the last record with these inputs and the new stamps of the files and folders it
   *  wrote, its page reports as they were (false, nothing written: a path the record does not have). */
  saveEdited(result: BuildResult, files: Map<string, [number, number, number]>, dirs: Map<string, [number, number]>): Promise<boolean>;
  /** The live output's stamps taken on another thread, for a big output the last build recorded. */
  output?: Promise<OutputProbe | null>;
  /** For a build that replays an edit (replay.ts): the Markdown files below content/ (as the loader names them)
   *  whose size or mtime alone changed since the last build, with its result, when its output is as it left it;
   *  else null (a file was added, removed or renamed; any other input or the output changed). A folder's mtime
   *  alone may differ: with the same paths in the walk, it holds the same files (an editor that saves a file
   *  by renaming a new one over it moves its folder's mtime). */
  edits(): Promise<{ files: string[]; result: Omit<BuildResult, 'timings'> } | null>;
}

export async function upToDate(root: string, k: MemoKey): Promise<UpToDate> {
  const key = keyOf(k);
  const memo = await readMemo(root);
  // The output the last build recorded, stamped on another thread while this one walks the inputs
  // (outputProbe.ts; a big output's): for the check below, and for the comparisons of a build that follows.
  const o = memo?.key === key ? memo.output : null;
  const probe = o && o.nf >= engineSettings().probeMin ? probeOutput(k.outDir, o.nd ? o.dirs : null, o.nf ? o.files : null) : null;
  const intact = async () => { const s = probe && await probe; return s ? s.matches(o!.nums, o!.nd, o!.nf) : outputIntact(k.outDir, memo!.output); };
  const inputs = walkInputs(root);
  const sameSite = !!memo && !!inputs && memo.key === key && cachedSiteModule(root)?.file === memo.moduleFile
    && memo.bundle !== null && bundleState(root) === memo.bundle && envSame(memo.env, k.env);
  const fresh = sameSite && sameWalk(inputs!, memo!.inputs) && await intact();
  const envKey = memo && typeof memo.env === 'object' ? JSON.stringify(Object.keys(memo.env).map((n) => [n, envValue(k.env, n)])) : wholeEnv(k.env);
  // Replayed as this build's: nothing was made now (every image variant is the last build's).
  const result = fresh ? withReports({ ...memo!.result, rendered: 0, ...(memo!.result.images ? { images: { files: memo!.result.images.files, processed: 0, cached: memo!.result.images.files } } : {}) }, memo!.reports, memo!.types) : undefined;
  let byFile: Map<string, FileStamp> | undefined;
  return {
    result, envKey, sameSite,
    ...(probe && !fresh ? { output: probe } : {}),
    async edits() {
      if (!sameSite || !inputs || walkText(inputs) !== memo!.inputs.paths) return null;
      const files: string[] = [];
      const was = memo!.inputs.nums;
      for (let i = 0; i < inputs.paths.length; i++) {
        if ((inputs.nums[2 * i] === was[2 * i] && inputs.nums[2 * i + 1] === was[2 * i + 1]) || (inputs.nums[2 * i] === -1 && was[2 * i] === -1)) continue;
        const rel = inputs.paths[i];
        if (inputs.nums[2 * i] < 0 || was[2 * i] < 0 || !rel.startsWith(`content${path.sep}`) || !rel.endsWith('.md')) return null;
        files.push(rel.slice('content/'.length).split(path.sep).join('/'));
      }
      if (!files.length) return null;
      return await intact() ? { files, result: withReports({ ...memo!.result }, memo!.reports, memo!.types) } : null;
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
      if (!inputs) { await fsp.rm(memoFile(root), { force: true }); return; }
      const { timings, pageReports, pageTypes: _types, ...rest } = result;
      const output = packOutput(outputStamps);
      const parts = [Buffer.from(walkText(inputs)), numBytes(inputs.nums), ...output.parts, Buffer.from(JSON.stringify(pageReports))];
      await writeMemo(root, { version: VERSION, key, moduleFile, bundle: bundleState(root), env, nd: output.nd, nf: output.nf, types: pageTypes(pageReports), result: rest }, parts);
    },
    async saveEdited(result, files, dirs) {
      // The last record with this build's inputs, and the stamps of the files and folders it wrote (the same
      // paths: a replay adds or removes none); its page reports as they were, unread.
      const m = memo!, o = m.output, nums = o.nums;
      const place = (list: string, n: number, p: string): number => {
        for (let at = 0, i = 0; i < n; i++) { const end = list.indexOf(SEP, at); if ((end < 0 ? list.slice(at) : list.slice(at, end)) === p) return i; at = end + 1; }
        return -1;
      };
      for (const [d, s] of dirs) { const i = place(o.dirs, o.nd, d); if (i < 0) return false; nums[2 * i] = s[0]; nums[2 * i + 1] = s[1]; }
      for (const [f, s] of files) { const i = place(o.files, o.nf, f); if (i < 0) return false; nums.set(s, 2 * o.nd + 3 * i); }
      const { timings: _t, pageReports: _r, pageTypes: _p, ...rest } = Object.getOwnPropertyDescriptors(result) as unknown as Record<string, PropertyDescriptor>;
      const kept = Object.fromEntries(Object.entries(rest).map(([k, d]) => [k, d.value])) as Header['result'];
      await writeMemo(root, { version: VERSION, key, moduleFile: m.moduleFile, bundle: m.bundle, env: m.env, nd: o.nd, nf: o.nf, types: m.types, result: kept },
        [Buffer.from(walkText(inputs!)), numBytes(inputs!.nums), Buffer.from(o.dirs), Buffer.from(o.files), Buffer.from(nums.buffer, nums.byteOffset, nums.byteLength), m.reports]);
      return true;
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
