// `sitegen clean`: deletes every site cache the registry names (cache/registry.ts), only those paths, each
// removed as what it is (a link is removed as a link, never followed), once a build of the site has
// finished (the build lock). The output folder and the install's shared caches stay.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { CACHES, siteCacheRoot, siteCachePath, type SiteCacheName } from '../cache/registry.ts';
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
      if (CACHES[name].scope !== 'site') continue;
      const p = siteCachePath(root, name as SiteCacheName);
      if (!(await fsp.lstat(p).catch(() => null))) continue;
      await fsp.rm(p, { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  } finally {
    await lock.release();
  }
}
