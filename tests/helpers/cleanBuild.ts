// A clean build to compare an incremental build with: the site as it is now built into clean/, with no output
// before it and none of the incremental build's caches (set aside, then put back). It builds in the site's
// own folder because the compiled site module is kept by the site's folder.
//
// After any edit of the site's code (sitegen.config.ts, templates/, plugins/) every cache is off, as in
// `sitegen build --no-cache`: the site module and client bundle are made from scratch, and the comparison
// checks the incremental build's. While the code then stays byte for byte the same, the clean builds take the
// site module that build checked (the install's module cache) and the client bundle from the install's store
// (found by the contents of the files it was made from): the compile is most of a clean build of a small
// site, and the content, pages and output are still built from nothing.
import fs from 'node:fs';
import path from 'node:path';
import { siteCacheRoot } from '../../src/cache/registry.ts';
import type { BuildRun, TestSite } from './site.ts';

/** The site's code as one string: what the compiled site module and the client bundle are made from. */
function code(root: string): string {
  const files = ['templates', 'plugins'].flatMap((dir) => fs.existsSync(path.join(root, dir)) ? fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)) : []);
  return JSON.stringify(['sitegen.config.ts', ...files.sort()].map((rel) => [rel, fs.statSync(path.join(root, rel)).isFile() ? fs.readFileSync(path.join(root, rel), 'utf8') : '']));
}

/** clean(): a clean build of `site` as it is now (see above); one per site (it remembers the code it compiled). */
export function cleanBuilder(site: TestSite): () => Promise<BuildRun> {
  let compiled = '';
  return async () => {
    const caches = siteCacheRoot(site.root);
    const aside = `${caches}-incremental`;
    fs.rmSync(path.join(site.root, 'clean'), { recursive: true, force: true });
    if (fs.existsSync(caches)) fs.renameSync(caches, aside);
    try {
      const now = code(site.root);
      const reuse = now === compiled;
      compiled = now;
      return await site.build({ out: 'clean', ...(reuse ? {} : { env: { SITEGEN_NO_CACHE: '1' } }) });
    } finally {
      fs.rmSync(caches, { recursive: true, force: true });
      if (fs.existsSync(aside)) fs.renameSync(aside, caches);
    }
  };
}
