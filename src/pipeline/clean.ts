// `sitegen clean`: deletes every site cache the registry names (cache/registry.ts), only those paths, each
// removed as what it is (a link is removed as a link, never followed), once a build of the site has
// finished (the build lock). The output folder and the install's shared caches stay; `--shared` also
// deletes the install's stores of client bundles and image variants (what grows with sites' content), not
// sitegen's own compiled code.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { CACHES, installCachePath, siteCacheRoot, siteCachePath, type InstallCacheName, type SiteCacheName } from '../cache/registry.ts';
import { SITEGEN_CACHE } from '../site/paths.ts';
import { realFolderUnder } from '../cache/index.ts';
import { acquireBuildLock } from './buildLock.ts';

/** Deletes the site's caches; the names of those there were (or 'the link itself' for a linked cache folder). */
export async function cleanSiteCaches(root: string, opts: { onWait?: (text: string) => void } = {}): Promise<string[]> {
  const lock = await acquireBuildLock(root, path.join(root, 'dist'), opts.onWait);
  try {
    const removed: string[] = [];
    const cacheRoot = siteCacheRoot(root);
    // A .sitegen/cache that is a link out of the site: the link goes, what it points to stays.
    if ((await fsp.lstat(cacheRoot).catch(() => null))?.isSymbolicLink() && await realFolderUnder(root, path.dirname(cacheRoot))) {
      await fsp.unlink(cacheRoot);
      return ['the link itself'];
    }
    if (!(await realFolderUnder(root, cacheRoot))) return removed;
    for (const name of Object.keys(CACHES) as (keyof typeof CACHES)[]) {
      if (CACHES[name].scope === 'site' && await removeIfThere(siteCachePath(root, name as SiteCacheName))) removed.push(name);
    }
    return removed;
  } finally {
    await lock.release();
  }
}

/** The install's stores that `clean --shared` deletes: shared by every site, made again by the next build. */
export const SHARED_STORES: readonly InstallCacheName[] = ['clientStore', 'imageStore'];

/** Deletes the install's shared stores (SHARED_STORES); the folders that were there. */
export async function cleanSharedStores(): Promise<string[]> {
  const removed: string[] = [];
  for (const name of SHARED_STORES) {
    const p = installCachePath(SITEGEN_CACHE, name);
    if (await removeIfThere(p)) removed.push(path.relative(process.cwd(), p) || p);
  }
  return removed;
}

/** Removes `p` (a link as a link, a folder with what it holds); whether there was anything. */
async function removeIfThere(p: string): Promise<boolean> {
  if (!(await fsp.lstat(p).catch(() => null))) return false;
  await fsp.rm(p, { recursive: true, force: true });
  return true;
}
