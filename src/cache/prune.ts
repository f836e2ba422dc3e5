// The one prune of sitegen's caches (registry.ts names them): each cache kept 'pruned' has its rule here,
// and the engine calls pruneCaches at the moments a rule can act — after a build has swapped its output in
// (the records of image sources it does not link, bundles of other engine states), and after a site module is
// compiled anew (records of sites that are gone). A cache is an optimisation only: a rule never throws, and
// it leaves alone what a concurrent build may be making (temporary files, and anything under an hour old
// in the install's shared folders).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { CACHES, installCachePath, siteCachePath, type CacheName } from './registry.ts';
import { SITEGEN_CACHE } from '../site/paths.ts';
import { VENDOR_SHIMS, vendorFile } from '../site/vendor.ts';
import { IMAGE_DIR } from '../images/model.ts';
import type { CacheRecord } from '../site/cache.ts';
import { entriesByUse, realFolderUnder, writeFileAtomic } from './index.ts';

export type PrunedCache = { [K in CacheName]: (typeof CACHES)[K]['keep'] extends 'pruned' ? K : never }[CacheName];

export interface PruneContext {
  /** The site's folder. */
  root: string;
  /** The output folder a build just swapped in: the image variants it does not hold are dropped. */
  output?: string;
}

const HOUR = 3600_000;
/** A file another process is writing: `<name>.tmp`, `<name>.tmp-<pid>`, or `<name>.<pid>.<random>`. */
function isTemporary(name: string): boolean {
  if (name.endsWith('.tmp') || name.includes('.tmp-')) return true;
  const parts = name.split('.');
  return parts.length >= 3 && /^\d+$/.test(parts[parts.length - 2]);
}

/** Removes the entries of `dir` that `keep` does not name and that are older than `age` (an hour); how many. */
async function removeOld(dir: string, keep: (name: string) => boolean, age = HOUR): Promise<number> {
  let removed = 0;
  const before = Date.now() - age;
  for (const n of await fsp.readdir(dir).catch(() => [] as string[])) {
    if (keep(n) || isTemporary(n)) continue;
    const st = await fsp.stat(path.join(dir, n)).catch(() => null);
    if (st && st.mtimeMs < before) { await fsp.rm(path.join(dir, n), { recursive: true, force: true }); removed++; }
  }
  return removed;
}

/**
 * The module cache: the records of sites whose folder is gone, and any module no record names that is over an
 * hour old (a gone site's module among them; dev mode's are deleted as it replaces them). A module no record
 * names may still be loaded: another site's build may have just found it by its hash (copies of one site
 * compile to one module), and its record comes after. Each compiled site is ~2 MB, and test suites build
 * hundreds of temporary sites.
 */
async function pruneModules(): Promise<number> {
  const dir = installCachePath(SITEGEN_CACHE, 'module');
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const kept = new Set<string>();
  let removed = 0;
  for (const n of names.filter((f) => f.startsWith('build-') && f.endsWith('.json'))) {
    try {
      const r = JSON.parse(await fsp.readFile(path.join(dir, n), 'utf8')) as CacheRecord;
      if (r.root && !fs.existsSync(r.root)) { await fsp.rm(path.join(dir, n), { force: true }); removed++; continue; }
      kept.add(path.basename(r.file));
    } catch { /* being written by another build */ }
  }
  const modules = new Set(names.filter((f) => /^site-.*\.c?js(\.map|\.v8cache)?$/.test(f)));
  return removed + await removeOld(dir, (n) => !modules.has(n) || kept.has(n.replace(/\.(map|v8cache)$/, '')));
}

/** The vendor bundles (and code caches) of other package versions. Both NODE_ENVs' bundles of the installed
 *  versions stay: builds load the production one, `sitegen dev` the development one (`sitegen prepare` makes
 *  both at install). */
async function pruneVendor(): Promise<number> {
  const current = [path.basename(vendorFile('production')), path.basename(vendorFile('development'))];
  return removeOld(installCachePath(SITEGEN_CACHE, 'vendor'), (n) => current.some((c) => n.startsWith(c)));
}

/** Worker programs of earlier states of the sources: all but the newest (and the files that hand them packages). */
async function pruneWorkers(): Promise<number> {
  const dir = installCachePath(SITEGEN_CACHE, 'worker');
  const files = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => n !== VENDOR_SHIMS);
  const stats = await Promise.all(files.map(async (n) => [n, (await fsp.stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0] as const));
  const newest = stats.reduce<readonly [string, number] | null>((a, s) => (!a || s[1] > a[1] ? s : a), null)?.[0];
  return removeOld(dir, (n) => n === newest || n === VENDOR_SHIMS);
}

/**
 * The site's records of the Markdown image sources its output no longer links (an image changed or went,
 * or the site's image settings changed: each variant folder of the output is named by source hash and
 * settings). Only after a build: dev and check link variants they do not write. Skipped when there can be
 * nothing to remove: the output links the same folders as when the records were last pruned, and no record
 * was added since (the folder's stamp, kept in PRUNED). The variants themselves are the install's store's
 * (pruneImageStore): another site may link them.
 */
async function pruneImages(ctx: PruneContext): Promise<number> {
  if (!ctx.output) return 0;
  const used = new Set(await fsp.readdir(path.join(ctx.output, IMAGE_DIR)).catch(() => [] as string[]));
  const dir = siteCachePath(ctx.root, 'images');
  // Only folders inside the site: a link on the way is not followed (its entries are not ours to delete).
  if (!(await realFolderUnder(ctx.root, path.join(dir, 'sources')))) return 0;
  const linked = [...used].sort().join('\n');
  const record = path.join(dir, PRUNED);
  const stamp = async () => JSON.stringify(await fsp.lstat(path.join(dir, 'sources')).then((st) => [st.mtimeMs, st.ino], () => null));
  const last = await fsp.readFile(record, 'utf8').then((t) => JSON.parse(t) as { linked: string; stamps: string }, () => null);
  if (last && last.linked === linked && last.stamps === await stamp()) return 0;
  let removed = 0;
  const hashes = new Set([...used].map((n) => n.slice(0, 16)));
  for (const n of await fsp.readdir(path.join(dir, 'sources')).catch(() => [] as string[])) {
    if (!n.endsWith('.json') || hashes.has(n.slice(0, -'.json'.length))) continue;
    await fsp.rm(path.join(dir, 'sources', n), { force: true });
    removed++;
  }
  await writeFileAtomic(record, JSON.stringify({ linked, stamps: await stamp() }));
  return removed;
}

/**
 * Whether a prune of the shared store `dir` is due: none in the last `every` ms (the time of the last is the
 * mtime of LAST_PRUNE in it, stamped now when it is due). False when there is no store yet: nothing to prune,
 * and no folder made for it.
 */
async function due(dir: string, every: number): Promise<boolean> {
  const last = path.join(dir, LAST_PRUNE);
  if (((await fsp.stat(last).catch(() => null))?.mtimeMs ?? 0) > Date.now() - every) return false;
  return fsp.writeFile(last, '').then(() => true, () => false);
}

/**
 * The install's image variants: the folders (one per source bytes and settings) no build has used for
 * STORE_DAYS days (a build that finds a folder marks it used: images/store.ts). A site whose folder went
 * encodes its images again. At most once an hour (the time of the last is the mtime of LAST_PRUNE).
 */
async function pruneImageStore(): Promise<number> {
  const dir = installCachePath(SITEGEN_CACHE, 'imageStore');
  if (!(await due(dir, HOUR))) return 0;
  return removeOld(dir, (n) => n === LAST_PRUNE, STORE_DAYS * 24 * HOUR);
}
const STORE_DAYS = 30;

/**
 * The client bundle store: bundles not used for an hour beyond the newest STORE_KEEP, then the files no bundle
 * left names (over an hour old: a build may be storing a bundle that names them). A site whose record named a
 * removed bundle bundles again. At most once in ten minutes (the time of the last is the mtime of LAST_PRUNE):
 * the rule is about hours, and a look at every bundle after every build would cost more than it saves.
 */
async function pruneClientStore(): Promise<number> {
  const dir = installCachePath(SITEGEN_CACHE, 'clientStore');
  if (!(await due(dir, 10 * 60_000))) return 0;
  const plans = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => n !== 'blobs' && n !== LAST_PRUNE && !isTemporary(n));
  const entries = (await Promise.all(plans.map((p) => entriesByUse(path.join(dir, p))))).flat().sort((a, b) => b.t - a.t);
  const hourAgo = Date.now() - HOUR;
  // Newest use first, so the old ones are the end of the list.
  const old = entries.slice(STORE_KEEP).filter((e) => e.t < hourAgo);
  for (const e of old) await fsp.rm(e.file, { force: true });
  if (!old.length) return 0;
  const named = new Set<string>();
  for (const e of entries.slice(0, entries.length - old.length)) {
    try { for (const [, hash] of (JSON.parse(await fsp.readFile(e.file, 'utf8')) as { files: [string, string][] }).files) named.add(hash); } catch { /* gone meanwhile */ }
  }
  for (const p of plans) await fsp.rmdir(path.join(dir, p)).catch(() => {}); // the ones left empty
  return old.length + await removeOld(path.join(dir, 'blobs'), (n) => named.has(n));
}
const STORE_KEEP = 64;
export const LAST_PRUNE = 'last-prune';

/** The record of the last prune of a site's image cache: what the output linked, and the folders' stamps after. */
const PRUNED = 'pruned.json';

const RULES: Record<PrunedCache, (ctx: PruneContext) => Promise<number>> = {
  // Pruned by the build that wrote the content cache naming them, as its session closes (only it knows the
  // places that cache holds without reading it again): content/diskBody.ts pruneBodies.
  bodies: async () => 0,
  clientStore: pruneClientStore,
  images: pruneImages,
  imageStore: pruneImageStore,
  module: pruneModules,
  vendor: pruneVendor,
  worker: pruneWorkers,
};

/** Prunes the named caches (all that have a rule by default); how many entries each lost. Never throws. */
export async function pruneCaches(ctx: PruneContext, names: readonly PrunedCache[] = Object.keys(RULES) as PrunedCache[]): Promise<Partial<Record<PrunedCache, number>>> {
  const out: Partial<Record<PrunedCache, number>> = {};
  for (const name of names) out[name] = await RULES[name](ctx).catch(() => 0);
  return out;
}
