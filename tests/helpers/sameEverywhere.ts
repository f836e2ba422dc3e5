// The same page three ways: `html` is what the in-process build just wrote to dist/<rel>; a --no-cache build
// with every batch on a worker thread must write the same file, and dev must render the same page in memory
// (asset hashes aside: dev's bundles are development builds). For features whose code runs on the workers
// and in dev too (Markdown extensions), so none of the three can drift from the others.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { sitegen } from './cli.ts';
import { withoutAssetHashes } from './html.ts';
import { createDevSite } from '../../src/dev/devSite.ts';

export async function expectSameOnWorkersAndInDev(dir: string, rel: string, html: string): Promise<void> {
  fs.rmSync(path.join(dir, 'dist'), { recursive: true });
  const onWorkers = sitegen(['build', '--root', dir, '-q', '--no-cache'], { env: { SITEGEN_PARALLEL_MIN: '1', SITEGEN_WORKERS: '1', SITEGEN_POOL_MAIN: '0', SITEGEN_POOL_RENDER: '1' } });
  expect(onWorkers.stderr).toBe('');
  expect(fs.readFileSync(path.join(dir, 'dist', rel), 'utf8')).toBe(html);

  const site = await createDevSite({ root: dir });
  try {
    expect((await site.start()).errors).toEqual([]);
    expect(withoutAssetHashes(site.output.pages.get(rel)!.html)).toBe(withoutAssetHashes(html));
  } finally { await site.close(); }
}
