// upToDate: a build whose inputs are all as the last build left them, into an output that is still what it
// wrote, does nothing and reports what that build reported. Its inputs: every file and folder below
// content/ and static/ (size and mtime; a folder's mtime changes when a file is added, removed or renamed
// in it), the site module (the module cache answers for the config, templates and plugins it imports:
// siteModule/cache.ts), the files of the client bundle (its cache record's stamps: bundle.ts), the engine, Node, the flags, the environment and
// the day (a config may read the date: it runs again at least once a day). The output: every file and folder
// the incremental record stamped as it went live (incremental.ts OutputStamps; image variants by their folder). Inputs are stamped before
// the build reads them, so a file changed while a build runs makes the next one build.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { BuildResult } from '../core/types.ts';
import { cachedSiteModule } from '../site/cache.ts';
import { PACKAGE_DIR } from '../site/paths.ts';
import { packageVersions, stampsMatch, type Stamp } from '../cache/index.ts';
import { configureEngine, engineSettings, type EngineSettings } from '../core/settings.ts';
import { acquireBuildLock } from './buildLock.ts';
import { engineStamp, outputIntact, type OutputStamps } from './incremental.ts';
import { siteCachePath } from '../cache/registry.ts';
import type { FileStamp } from '../content/parse.ts';

const VERSION = 1;
const memoFile = (root: string) => siteCachePath(root, 'build');

type Stamps = Record<string, string>;
/** `env`: the variables the build read, with their values (null: unset); a string: a hash of the whole
 *  environment, when the build listed it. */
interface Memo { version: number; key: string; moduleFile: string; inputs: Stamps; bundle: string | null; env: Record<string, string | null> | string; output: OutputStamps; result: Omit<BuildResult, 'timings'> }

/** What decides a build besides its files. */
export interface MemoKey { outDir: string; drafts?: boolean; siteUrl?: string; env: NodeJS.ProcessEnv }

/** `env` as a view that records which variables are read; `reads()` is null once the whole of it was listed. */
export function trackEnv(env: NodeJS.ProcessEnv) {
  const read = new Set<string>();
  let all = false;
  const note = (k: string | symbol) => { if (typeof k === 'string') read.add(k); };
  const proxy = new Proxy(env, {
    get(t, k, r) { note(k); return Reflect.get(t, k, r); },
    has(t, k) { note(k); return Reflect.has(t, k); },
    getOwnPropertyDescriptor(t, k) { note(k); return Reflect.getOwnPropertyDescriptor(t, k); },
    // Listed: every variable may matter (a worker thread's copy runs site code unseen), except when Node
    // lists it to start a program (esbuild's service; a program the site runs is taken as not reading it).
    ownKeys(t) { if (!/normalizeSpawnArguments/.test(new Error().stack ?? '')) all = true; return Reflect.ownKeys(t); },
  });
  return { proxy, reads: (): Set<string> | null => (all ? null : read) };
}

export const wholeEnv = (env: NodeJS.ProcessEnv) => createHash('sha1').update(Object.keys(env).filter((n) => n !== '_' && n !== 'OLDPWD').sort().map((n) => `${n}=${env[n]}`).join('\n')).digest('base64url');
const envSame = (memo: Memo['env'], env: NodeJS.ProcessEnv) => (typeof memo === 'string' ? memo === wholeEnv(env) : Object.entries(memo).every(([k, v]) => (env[k] ?? null) === v));

/** size:mtime of a file, mtime of a folder; null below content/ or static/ when a link is met (its target
 *  could change unseen: such a site is never skipped). */
function walkInputs(root: string): Stamps | null {
  const out: Stamps = {};
  // Paths joined by concatenation: a name read from a folder needs no normalizing (path.join per file was
  // a fifth of this walk).
  const base = root.endsWith(path.sep) ? root : root + path.sep;
  const walk = (rel: string): boolean => {
    const abs = base + rel;
    let st: fs.Stats | null = null;
    try { st = fs.lstatSync(abs); } catch { /* none */ }
    if (!st) { out[rel] = 'none'; return true; }
    if (st.isSymbolicLink()) return false;
    if (!st.isDirectory()) { out[rel] = `${st.size}:${st.mtimeMs}`; return true; }
    out[rel] = `dir:${st.mtimeMs}`;
    for (const name of fs.readdirSync(abs)) if (!walk(rel + path.sep + name)) return false;
    return true;
  };
  return walk('content') && walk('static') ? out : null;
}

/** The client bundle's cache record (bundle.ts): its key while the files it was made from keep their stamps,
 *  'none' when the site has no bundle, null when a file of it changed (or the record is unreadable). */
function bundleState(root: string): string | null {
  let text: string;
  try { text = fs.readFileSync(path.join(siteCachePath(root, 'client'), 'manifest.json'), 'utf8'); } catch (e: any) { return e?.code === 'ENOENT' ? 'none' : null; }
  try {
    const record = JSON.parse(text) as { key: string; stamps: Stamp[] };
    return stampsMatch(record.stamps) ? record.key : null;
  } catch {
    return null;
  }
}

const same = (a: Stamps, b: Stamps) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};

/** The packages the engine renders and parses with (the vendor bundle is made from them). */
const PACKAGES = ['react', 'react-dom', 'zod', 'marked', 'yaml', 'gray-matter', 'js-yaml', 'esbuild'];

function keyOf(k: MemoKey): string {
  return createHash('sha1').update([VERSION, process.version, engineStamp(), ...packageVersions(PACKAGE_DIR, PACKAGES), k.outDir, !!k.drafts, k.siteUrl ?? '', new Date().toISOString().slice(0, 10)].join('\n')).digest('base64url');
}

export interface UpToDate {
  /** The last build's result when nothing changed, else undefined (build). */
  result?: Omit<BuildResult, 'timings'>;
  /** The values now of the variables the last build read (or the whole environment's hash): a change
   *  renders every page again (incremental.ts buildKey), as a template may read them. */
  envKey: string;
  /** The size and mtime of each content file, relative to content/, as stamped now (null: unknown). The
   *  content cache takes them for its own stat of each file: the same answer, asked once. */
  contentStamps(): Map<string, FileStamp> | null;
  /** Records a build that succeeded (its output live) for the next one. */
  save(result: BuildResult, moduleFile: string, output: OutputStamps, envReads: Set<string> | null): Promise<void>;
}

export async function upToDate(root: string, k: MemoKey): Promise<UpToDate> {
  const inputs = walkInputs(root);
  const key = keyOf(k);
  let memo: Memo | null = null;
  try { memo = JSON.parse(await fsp.readFile(memoFile(root), 'utf8')) as Memo; } catch { /* none yet */ }
  const fresh = !!memo && !!inputs && memo.version === VERSION && memo.key === key
    && cachedSiteModule(root)?.file === memo.moduleFile
    && same(inputs, memo.inputs) && memo.bundle !== null && bundleState(root) === memo.bundle && envSame(memo.env, k.env)
    && outputIntact(k.outDir, memo.output);
  const envKey = memo && typeof memo.env === 'object' ? JSON.stringify(Object.keys(memo.env).map((n) => [n, k.env[n] ?? null])) : wholeEnv(k.env);
  // Replayed as this build's: nothing was made now (every image variant is the last build's).
  const result = fresh ? { ...memo!.result, ...(memo!.result.images ? { images: { files: memo!.result.images.files, processed: 0, cached: memo!.result.images.files } } : {}) } : undefined;
  let byFile: Map<string, FileStamp> | undefined;
  return {
    result,
    envKey,
    contentStamps() {
      if (!inputs) return null;
      if (byFile) return byFile;
      byFile = new Map();
      const prefix = `content${path.sep}`;
      for (const [rel, v] of Object.entries(inputs)) {
        if (!rel.startsWith(prefix) || v === 'none' || v.startsWith('dir:')) continue;
        const at = v.indexOf(':');
        byFile.set(rel.slice(prefix.length).split(path.sep).join('/'), { size: Number(v.slice(0, at)), mtimeMs: Number(v.slice(at + 1)) });
      }
      return byFile;
    },
    async save(result, moduleFile, output, envReads) {
      const file = memoFile(root);
      if (!inputs) { await fsp.rm(file, { force: true }); return; }
      const { timings, ...rest } = result;
      const env = envReads ? Object.fromEntries([...envReads].sort().map((n) => [n, k.env[n] ?? null])) : wholeEnv(k.env);
      const next: Memo = { version: VERSION, key, moduleFile, inputs, bundle: bundleState(root), env, output, result: rest };
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.tmp-${process.pid}`;
      await fsp.writeFile(tmp, JSON.stringify(next));
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
  const t0 = performance.now();
  const lock = await acquireBuildLock(root, k.outDir, k.onWait);
  try {
    const probe = await upToDate(root, k);
    if (!probe.result) return { probe };
    const ms = Math.round(performance.now() - t0);
    return { result: { ...probe.result, timings: { 'up to date': ms, total: ms }, cached: ['up to date'] } };
  } finally {
    await lock.release();
  }
}
