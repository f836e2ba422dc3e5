// `sitegen dev` and the build's content cache: a dev start takes unchanged files from the cache a build
// (or an earlier dev start) left, as a build does, and leaves one the next build is served from; a file
// edited while dev runs is always parsed again, and a cached file that fails its schema is reported with
// its line, as without a cache.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { build } from '../../src/pipeline/build.ts';
import { createDevSite, type DevSite } from '../../src/dev/devSite.ts';
import { openContentCache, saveContentCache } from '../../src/content/contentCache.ts';
import { configureEngine } from '../../src/core/settings.ts';
import { copyFixture, editFile, removeCopy } from './dev-fixture.ts';

let dir = '';
let site: DevSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
  configureEngine();
  removeCopy(dir);
});

/** The HTML dev holds for a folder page ("/items/alpha/" → items/alpha/index.html). */
const page = (s: DevSite, pathname: string) => s.output.pages.get(`${pathname.slice(1)}index.html`)?.html ?? '';

/** Rewrites the cached parse of one file (found by its path) so a test can tell a cache answer from a parse. */
async function tamperCache(root: string, rel: string, change: (data: any) => void): Promise<void> {
  const cache = (await openContentCache(root))!;
  const key = [...cache.keys()].find((k) => k.startsWith(`${rel}\0`));
  expect(key, `the cache holds ${rel}`).toBeTruthy();
  change(cache.get(key!)!.data);
  await saveContentCache(root, cache);
}

describe('dev start and the content cache', () => {
  it("answers unchanged files from the cache a build left, and parses a file edited while it runs even when its size and mtime stay", async () => {
    dir = copyFixture('basic');
    // A whole-second mtime, so the edit below can put it back exactly.
    const file = path.join(dir, 'content/items/alpha.yaml');
    const stamp = new Date('2025-01-01T00:00:00Z');
    fs.utimesSync(file, stamp, stamp);
    expect((await build({ root: dir })).errors).toEqual([]);
    // Only a start that reads the cache can show this title: the file on disk still says "Alpha".
    await tamperCache(dir, 'items/alpha.yaml', (d) => { d.title = 'Alpha from the cache'; });
    site = await createDevSite({ root: dir });
    expect((await site.start()).errors).toEqual([]);
    expect(page(site, '/items/alpha/')).toContain('<h1>Alpha from the cache</h1>');

    // Same length, same mtime: an edit all the same, because the watcher said so.
    const { mtimeMs, size } = fs.statSync(file);
    editFile(dir, 'content/items/alpha.yaml', (t) => t.replace('title: Alpha', 'title: Alphb'));
    fs.utimesSync(file, stamp, stamp);
    expect([fs.statSync(file).size, fs.statSync(file).mtimeMs]).toEqual([size, mtimeMs]);
    const r = await site.apply([{ file, kind: 'change' }]);
    expect(r?.errors).toEqual([]);
    expect(page(site, '/items/alpha/')).toContain('<h1>Alphb</h1>');
  });

  it('leaves a cache the next build is served from, with the same pages', async () => {
    dir = copyFixture('basic');
    site = await createDevSite({ root: dir });
    expect((await site.start()).errors).toEqual([]);
    const devPage = page(site, '/items/alpha/');
    await site.close(); // waits for the cache being written
    site = null;
    const r = await build({ root: dir });
    expect(r.errors).toEqual([]);
    expect(r.cached).toContain('content');
    expect(fs.readFileSync(path.join(dir, 'dist/items/alpha/index.html'), 'utf8')).toContain('<h1>Alpha</h1>');
    expect(devPage).toContain('<h1>Alpha</h1>');
  });

  it('reports a cached file that fails its schema with its line, as a start without the cache does', async () => {
    dir = copyFixture('basic');
    expect((await build({ root: dir })).errors).toEqual([]);
    await tamperCache(dir, 'items/alpha.yaml', (d) => { d.title = ''; });
    // The cached value fails the schema, so the file is parsed again: the real title passes.
    site = await createDevSite({ root: dir });
    expect((await site.start()).errors).toEqual([]);
    expect(page(site, '/items/alpha/')).toContain('<h1>Alpha</h1>');
    await site.close();
    editFile(dir, 'content/items/alpha.yaml', (t) => t.replace('title: Alpha', 'title: ""'));
    site = await createDevSite({ root: dir });
    const r = await site.start();
    expect(r.errors.map((e) => `${e.location?.file}:${e.location?.line}`)).toEqual(['content/items/alpha.yaml:1']);
  });

  it('neither reads nor writes the cache with the cache setting off (dev --no-cache)', async () => {
    dir = copyFixture('basic');
    expect((await build({ root: dir })).errors).toEqual([]);
    await tamperCache(dir, 'items/alpha.yaml', (d) => { d.title = 'Alpha from the cache'; });
    // The tampered chunk: a dev start that wrote the cache would have replaced it with the real parse.
    const chunks = () => { const d = path.join(dir, '.sitegen/cache/content'); return fs.readdirSync(d).sort().map((f) => fs.readFileSync(path.join(d, f)).toString('base64')).join(); };
    const before = chunks();
    configureEngine({ cache: false });
    site = await createDevSite({ root: dir });
    expect((await site.start()).errors).toEqual([]);
    expect(page(site, '/items/alpha/')).toContain('<h1>Alpha</h1>');
    await site.close();
    site = null;
    expect(chunks()).toBe(before);
  });
});
