// The build's cache of compiled site modules (the registry's `module` cache, cache/registry.ts): a record
// per site of the module file and the stamps of every file it was made from; pruned as sites come and go.
import path from 'node:path';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type * as esbuild from 'esbuild';
import { RECIPE_DIR, SERVER_OUTDIR, nodeEnv } from './paths.ts';
import { DEFAULT_ISLANDS } from './options.ts';
import { engineSettings } from '../core/settings.ts';
import { keyOf, stampFiles, stampsMatch, writeFileAtomic, type Stamp } from '../cache/index.ts';
import { pruneCaches } from '../cache/prune.ts';
import { extendedConfigs } from './esbuildPlugins.ts';

export interface CacheRecord {
  file: string; inputs: string[]; stamps: Stamp[]; root?: string; islandsDir?: string; islands?: string[];
  /** The site's plugin commands ("waitlist export"): the CLI tells a typo from a plugin command by these
   *  without importing the module. */
  commands?: string[];
}

/** The names of the CLI commands a config's plugins declare, each as its words joined by spaces. */
export function commandNames(config: { plugins?: { commands?: { name: string[] }[] }[] }): string[] {
  return (config.plugins ?? []).flatMap((p) => (p.commands ?? []).map((c) => c.name.join(' ')));
}

/** Every file a compile read, absolute (esbuild names them relative to its working folder: `workingDir`). */
export function metafileFiles(meta: esbuild.Metafile, workingDir = process.cwd()): string[] {
  return Object.keys(meta.inputs).filter((f) => !/^[a-z-]+:/.test(f) && f !== '<stdin>' && path.basename(f) !== 'sitegen-entry.js').map((f) => path.resolve(workingDir, f));
}

/** Where esbuild looks for the TypeScript config of the site's sources among `files`: each one's folder and the
 *  folders above it up to the site's root, a tsconfig.json or jsconfig.json in each (the nearest applies). Stamped
 *  whether a file is there or not: a `paths` alias or a JSX setting changed or added there compiles another module
 *  from the same sources. */
export function tsconfigsOf(files: string[], root: string): string[] {
  const top = path.resolve(root);
  const dirs = new Set<string>();
  for (const f of files) {
    if (f.includes(`${path.sep}node_modules${path.sep}`) || !f.startsWith(top + path.sep)) continue;
    for (let d = path.dirname(f); !dirs.has(d) && d.startsWith(top); d = path.dirname(d)) dirs.add(d);
  }
  const configs = [...dirs].flatMap((d) => [path.join(d, 'tsconfig.json'), path.join(d, 'jsconfig.json')]);
  // (and the configs they extend: a `paths` there is theirs)
  return [...configs, ...new Set(configs.flatMap((c) => extendedConfigs(c)))];
}

/** The files of the islands folder: which islands have a Name.client.ts decides how islandWrapPlugin wraps them. */
function islandFiles(root: string, islandsDir: string): string[] {
  try { return fs.readdirSync(path.resolve(root, islandsDir)).sort(); } catch { return []; }
}

function cacheKey(root: string): string {
  // The site/ files are the recipe (plugins, options), so their stamps are part of the key.
  const recipe = stampFiles(fs.readdirSync(RECIPE_DIR).sort().map((f) => path.join(RECIPE_DIR, f)));
  return keyOf([path.resolve(root), nodeEnv(), process.version, recipe]);
}

const recordFileOf = (root: string) => path.join(SERVER_OUTDIR, `build-${cacheKey(root)}.json`);

/** The cached module for this site, when nothing it was built from changed since. */
export function cachedSiteModule(root: string): CacheRecord | null {
  if (!engineSettings().cache) return null;
  try {
    const record = JSON.parse(fs.readFileSync(recordFileOf(root), 'utf8')) as CacheRecord;
    const islandsSame = JSON.stringify(islandFiles(root, record.islandsDir ?? DEFAULT_ISLANDS)) === JSON.stringify(record.islands ?? []);
    return islandsSame && fs.existsSync(record.file) && stampsMatch(record.stamps) ? record : null;
  } catch {
    return null;
  }
}

/** The plugin commands of the cached module, when it is current and its record names them; null when only
 *  compiling the site could tell. Reads the record and stamps its inputs: nothing is compiled or imported. */
export function cachedCommandNames(root: string): string[] | null {
  return cachedSiteModule(root)?.commands ?? null;
}

/** Remembers a module that compiled and imported cleanly; a stale module of the same site is removed. */
export async function rememberSiteModule(root: string, m: { file: string; inputs: string[]; meta: esbuild.Metafile; islandsDir: string; commands: string[] }): Promise<void> {
  const recordFile = recordFileOf(root);
  try {
    const old = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as CacheRecord;
    if (old.file !== m.file) await Promise.all(['', '.map', '.v8cache'].map((ext) => fsp.rm(`${old.file}${ext}`, { force: true })));
  } catch { /* first build of this site */ }
  const files = metafileFiles(m.meta);
  const record: CacheRecord = { file: m.file, inputs: m.inputs, stamps: stampFiles([...files, ...tsconfigsOf(files, root)]), root: path.resolve(root), islandsDir: m.islandsDir, islands: islandFiles(root, m.islandsDir), commands: m.commands };
  await writeFileAtomic(recordFile, JSON.stringify(record));
  await pruneCaches({ root }, ['module']); // sites come and go (cache/prune.ts)
}
