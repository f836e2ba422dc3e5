// The client bundle's two caches (cache/registry.ts):
//
// - the store (install, `clientStore`): the bundles themselves, shared by every site of the install.
//     blobs/<sha1>          each output file once, by its contents (React's chunks are the same in every bundle)
//     <plan>/<entry>.json   one bundle: the files esbuild read, relative to the site, each with its size and the
//                           SHA-1 of its contents; its manifest (or, for dev's packages, their URLs); the output
//                           files by SHA-1.
//   <plan> hashes the plan made relative to the site (islands, CSS, defines, options, where the engine is from
//   the site) and esbuild's version. esbuild works in the site's folder (bundle.ts clientPlan), so a bundle
//   depends on nothing else: the same files at the same places relative to a site give the same bundle.
// - the record (site, `client`): <root>/.sitegen/cache/client/manifest.json, the bundle this site uses now: the
//   plan's key, the stamps (path, size, mtime) of the files it was made from, the manifest, the files by SHA-1.
//
// A build whose plan and stamps match its record reads the files from the store. Else it looks in the store for
// a bundle of the same plan whose files have the same contents here (a copied, moved or re-cloned site, another
// worktree, a branch switched back), and only then runs esbuild.
import path from 'node:path';
import fs from 'node:fs/promises';
import { statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type * as esbuild from 'esbuild';
import type { AssetManifest } from '../core/types.ts';
import { engineSettings } from '../core/settings.ts';
import { clientRecordFile, installCachePath } from '../cache/registry.ts';
import { entriesByUse, packageVersions, stampFiles, stampsMatch, writeFileAtomic, type Stamp } from '../cache/index.ts';
import { ENGINE_DIR, PACKAGE_DIR, SITEGEN_CACHE, metafileFiles, tsconfigsOf } from '../site/index.ts';

/** Where the store is: in the install's cache folder. */
export const clientStorePath = () => installCachePath(SITEGEN_CACHE, 'clientStore');

type Files = [rel: string, sha1: string][];
type Stored = Omit<AssetManifest, 'files'>;

interface SiteRecord {
  /** The plan's (entries, islands, defines) hash. */
  key: string;
  stamps: Stamp[];
  manifest: Stored;
  files: Files;
}

export interface StoreEntry {
  inputs: [rel: string, size: number, sha1: string][];
  /** What the bundle's user needs besides the files: a client bundle's manifest, the dev packages' URLs. */
  data: unknown;
  files: Files;
}

const sha1 = (data: string | Uint8Array) => createHash('sha1').update(data).digest('hex');
const blob = (store: string, hash: string) => path.join(store, 'blobs', hash);

/** The entries' format: a store made by another one is not read. */
const STORE_FORMAT = 2;

/** The store's name for a plan: its key with the site's folder taken out, the engine's place relative to the
 *  site (in every bundle's paths), and esbuild's version. */
export function planHash(root: string, planKey: string): string {
  const here = path.resolve(root) + path.sep;
  return sha1(JSON.stringify([STORE_FORMAT, planKey.split(here).join('<root>/'), path.relative(root, ENGINE_DIR), packageVersions(PACKAGE_DIR, ['esbuild'])]));
}

/** The SHA-1 of a file's contents, remembered while its size and mtime stay (one process reads React's once). */
const contentHashes = new Map<string, { size: number; mtimeMs: number; hash: string }>();
async function contentHash(file: string, size: number, mtimeMs: number): Promise<string> {
  const known = contentHashes.get(file);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.hash;
  const hash = sha1(await fs.readFile(file));
  contentHashes.set(file, { size, mtimeMs, hash });
  return hash;
}

async function readFiles(store: string, files: Files): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  await Promise.all(files.map(async ([rel, hash]) => { out.set(rel, await fs.readFile(blob(store, hash))); }));
  return new Map(files.map(([rel]) => [rel, out.get(rel)!]));
}

/** The bundle of the site's record when its plan and the stamps of its inputs still match, else null. */
export async function fromRecord(root: string, key: string): Promise<AssetManifest | null> {
  if (!engineSettings().cache) return null;
  try {
    const record = JSON.parse(await fs.readFile(clientRecordFile(root), 'utf8')) as SiteRecord;
    if (record.key !== key || !stampsMatch(record.stamps)) return null;
    return { ...record.manifest, files: await readFiles(clientStorePath(), record.files) };
  } catch {
    return null;
  }
}

/** Whether every input of `entry` is at its place under `root` with the same contents; their stamps if so
 *  (taken before the contents are read: a file saved meanwhile fails the record's check next time). */
async function sameInputs(root: string, entry: StoreEntry): Promise<Stamp[] | null> {
  const stamps: Stamp[] = [];
  for (const [rel, size, hash] of entry.inputs) {
    const file = path.resolve(root, rel);
    let st;
    try { st = statSync(file); } catch { if (size === -1) { stamps.push([file, -1, -1]); continue; } return null; }
    if (!st.isFile() || st.size !== size) return null;
    if (await contentHash(file, st.size, st.mtimeMs) !== hash) return null;
    stamps.push([file, st.size, st.mtimeMs]);
  }
  return stamps;
}

/** How many bundles of one plan a lookup reads, newest first (each differs in an island or a stylesheet). */
const LOOKUP_MAX = 16;

/** A bundle of the plan in the store made from files with the same contents as the site's now: its data, its
 *  files and the stamps of its inputs here. Null when there is none (or the caches are off). */
export async function lookup<T>(root: string, planKey: string): Promise<{ data: T; files: Map<string, Uint8Array>; names: Files; stamps: Stamp[] } | null> {
  if (!engineSettings().cache) return null;
  const store = clientStorePath();
  const dir = path.join(store, planHash(root, planKey));
  try {
    for (const { file } of (await entriesByUse(dir)).slice(0, LOOKUP_MAX)) {
      let entry: StoreEntry;
      try { entry = JSON.parse(await fs.readFile(file, 'utf8')) as StoreEntry; } catch { continue; }
      const stamps = await sameInputs(root, entry);
      if (!stamps) continue;
      let files: Map<string, Uint8Array>;
      try { files = await readFiles(store, entry.files); } catch { continue; } // a blob pruned meanwhile
      const now = new Date();
      await fs.utimes(file, now, now).catch(() => {}); // used: the prune keeps the recently used
      return { data: entry.data as T, files, names: entry.files, stamps };
    }
  } catch { /* no bundle of this plan yet */ }
  return null;
}

/**
 * Stores a bundle esbuild just made from `inputs` (absolute; `started`: when that build began); the files by
 * SHA-1, which it returns with the inputs' stamps. A file it read that was saved after the build began may not
 * be what esbuild read: such a bundle's files are kept but no entry names them under contents it may not have
 * been made from. Null when the caches are off or the store could not be written.
 */
export async function store(root: string, planKey: string, data: unknown, bytes: Map<string, Uint8Array>, inputs: string[], started: number, optional: string[] = []): Promise<{ files: Files; stamps: Stamp[] } | null> {
  if (!engineSettings().cache) return null;
  const dir = clientStorePath();
  try {
    const files: Files = [];
    await fs.mkdir(path.join(dir, 'blobs'), { recursive: true });
    for (const [rel, contents] of bytes) {
      const hash = sha1(contents);
      files.push([rel, hash]);
      const file = blob(dir, hash);
      if (!await fs.access(file).then(() => true, () => false)) await writeFileAtomic(file, contents);
    }
    // (`optional`: files the compile reads when they are there, the TypeScript configs: one absent is stamped so)
    const stamps = [...stampFiles(inputs), ...stampFiles(optional)];
    // (file times come from a clock that may lag the one Date.now() reads by a tick: a margin of 10 ms)
    if (stamps.some(([, size, mtimeMs], i) => (size < 0 && i < inputs.length) || mtimeMs >= started - 10)) return { files, stamps };
    const hashed: StoreEntry['inputs'] = [];
    for (const [file, size, mtimeMs] of stamps) hashed.push([path.relative(root, file).split(path.sep).join('/'), size, size < 0 ? '' : await contentHash(file, size, mtimeMs)]);
    const entry: StoreEntry = { inputs: hashed, data, files };
    const plan = path.join(dir, planHash(root, planKey));
    await fs.mkdir(plan, { recursive: true });
    await writeFileAtomic(path.join(plan, `${sha1(JSON.stringify(hashed))}.json`), JSON.stringify(entry));
    return { files, stamps };
  } catch {
    return null; // a cache is an optimisation only
  }
}

/** A bundle of the plan in the store made from files with the same contents as the site's now; the site's
 *  record then names it. Null when there is none. */
export async function fromStore(root: string, key: string, planKey: string): Promise<AssetManifest | null> {
  const found = await lookup<Stored>(root, planKey);
  if (!found) return null;
  await writeRecord(root, { key, stamps: found.stamps, manifest: found.data, files: found.names }).catch(() => {});
  return { ...found.data, files: found.files };
}

async function writeRecord(root: string, record: SiteRecord): Promise<void> {
  await fs.mkdir(path.dirname(clientRecordFile(root)), { recursive: true });
  await writeFileAtomic(clientRecordFile(root), JSON.stringify(record));
}

/** Stores a client bundle esbuild just made (`started`: when that build began) and makes it the site's record. */
export async function saveBundle(root: string, key: string, planKey: string, manifest: AssetManifest, meta: esbuild.Metafile, started: number): Promise<void> {
  const { files: bytes, ...stored } = manifest;
  const inputs = metafileFiles(meta, root);
  const saved = await store(root, planKey, stored, bytes, inputs, started, tsconfigsOf(inputs, root));
  if (saved) await writeRecord(root, { key, stamps: saved.stamps, manifest: stored, files: saved.files }).catch(() => {});
}
