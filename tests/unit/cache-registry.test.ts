// One registry of caches (src/cache/registry.ts) and one prune (src/cache/prune.ts): everything a build
// leaves in the site's cache folder is a cache the registry names, and a build drops the image variants
// its output no longer links (an image that changed or went, a change of image settings), so the cache
// does not grow with every edit, while a warm build still encodes nothing. `sitegen clean` deletes the
// registry's site caches and nothing else.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { type TestSite } from '../helpers/site.ts';
import { copyOf, SCRATCH } from '../helpers/scratch.ts';
import { CACHES, siteCacheRoot } from '../../src/cache/registry.ts';
import { pruneCaches } from '../../src/cache/prune.ts';
import { cleanSiteCaches } from '../../src/pipeline/clean.ts';

const jpeg = (w: number, h: number, r: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r, g: 120, b: 200 } } }).jpeg().toBuffer();
const post = (images: string) => `---\ntitle: About\n---\n# About\n\n${images}\n`;
const variantDirs = (site: TestSite) => fs.readdirSync(path.join(siteCacheRoot(site.root), 'images', 'variants')).sort();
const outputDirs = (site: TestSite) => fs.readdirSync(path.join(site.root, 'dist', 'assets', 'img')).sort();

describe('the site cache folder', () => {
  let site: TestSite;
  let a: Buffer, b: Buffer;
  beforeAll(async () => { a = await jpeg(700, 400, 10); b = await jpeg(640, 480, 240); });
  afterAll(() => site?.remove());

  it('holds only caches the registry names', async () => {
    site = await copyOf('basic', { 'content/pages/a.jpg': a, 'content/pages/b.jpg': b, 'content/pages/about.md': post('![A](./a.jpg)\n\n![B](./b.jpg)') });
    const r = await site.build();
    expect(r.errors).toEqual([]);
    // A second build that writes a whole output (not a patch of dist/) leaves the replaced output and the
    // page stamps too.
    fs.appendFileSync(path.join(site.root, 'content/pages/about.md'), '\nMore.\n');
    expect((await site.build({ env: { SITEGEN_PATCH_MAX: '0' } })).errors).toEqual([]);
    const named = new Set<string>(Object.values(CACHES).filter((c) => c.scope === 'site').map((c) => c.path));
    const found = fs.readdirSync(siteCacheRoot(site.root));
    expect(found.filter((n) => !named.has(n))).toEqual([]);
    expect(found).toEqual(expect.arrayContaining(['content', 'client', 'images', 'output', 'pages.json']));
  });

  it('loses the variants of an image the site no longer shows, and keeps the rest', async () => {
    expect(variantDirs(site)).toEqual(outputDirs(site));
    expect(variantDirs(site)).toHaveLength(2);
    const before = new Set(variantDirs(site));
    site.edit('content/pages/about.md', () => post('![A](./a.jpg)'));
    const r = await site.build();
    expect(r.errors).toEqual([]);
    expect(r.result.images?.processed).toBe(0); // a's variants came from the cache
    expect(variantDirs(site)).toEqual(outputDirs(site));
    expect(variantDirs(site)).toHaveLength(1);
    expect(before.has(variantDirs(site)[0])).toBe(true);
    // The Markdown source records go with their variants.
    const sources = fs.readdirSync(path.join(siteCacheRoot(site.root), 'images', 'sources'));
    expect(sources.map((n) => n.slice(0, 16))).toEqual([variantDirs(site)[0].slice(0, 16)]);
  });

  it('loses the variants of other image settings', async () => {
    const old = variantDirs(site);
    site.edit('sitegen.config.ts', (t) => t.replace('defineConfig({', 'defineConfig({\n  images: { quality: 61 },'));
    const r = await site.build();
    expect(r.errors).toEqual([]);
    expect(variantDirs(site)).toEqual(outputDirs(site));
    expect(variantDirs(site).some((d) => old.includes(d))).toBe(false);
  });

  it('is left alone by a build with the cache off, and by a prune without an output', async () => {
    const kept = variantDirs(site);
    fs.mkdirSync(path.join(siteCacheRoot(site.root), 'images', 'variants', 'ffffffffffffffff000000'), { recursive: true });
    expect(await pruneCaches({ root: site.root }, ['images'])).toEqual({ images: 0 });
    const r = await site.build({ cache: false });
    expect(r.errors).toEqual([]);
    expect(variantDirs(site)).toEqual([...kept, 'ffffffffffffffff000000'].sort());
    expect(await pruneCaches({ root: site.root, output: path.join(site.root, 'dist') }, ['images'])).toEqual({ images: 1 });
    expect(variantDirs(site)).toEqual(kept);
  });
});

describe('sitegen clean', () => {
  let site: TestSite;
  const outside = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-clean-outside-'));
  afterAll(() => { site?.remove(); fs.rmSync(outside, { recursive: true, force: true }); });

  it("deletes the site's caches and nothing else: dist/ stays, a link's target outside the site stays", async () => {
    site = await copyOf('basic');
    expect((await site.build()).errors).toEqual([]);
    const page = fs.readFileSync(path.join(site.root, 'dist', 'index.html'), 'utf8');
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'mine');
    fs.symlinkSync(outside, path.join(siteCacheRoot(site.root), 'typecheck.tsbuildinfo'));
    const removed = await cleanSiteCaches(site.root);
    expect(removed).toEqual(expect.arrayContaining(['content', 'client', 'typecheck']));
    expect(fs.readdirSync(siteCacheRoot(site.root))).toEqual([]);
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('mine');
    expect(fs.readFileSync(path.join(site.root, 'dist', 'index.html'), 'utf8')).toBe(page);
    const again = await site.build();
    expect(again.errors).toEqual([]);
    // The site's record of its bundle is gone; the bundle itself is found again in the install's store.
    expect(again.result.cached).toContain('bundle');
    expect(again.read('index.html')).toBe(page);
    expect(await cleanSiteCaches(site.root)).toEqual(expect.arrayContaining(['content', 'client']));
  });
});

describe('links out of the site', () => {
  const outside = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-cache-link-'));
  let site: TestSite;
  afterAll(() => { site?.remove(); fs.rmSync(outside, { recursive: true, force: true }); });
  const snapshot = () => JSON.stringify(fs.readdirSync(outside, { recursive: true }).sort());

  it('a build prunes no folder that links out of the site, and clean removes such a link, not its target', async () => {
    fs.mkdirSync(path.join(outside, 'ffffffffffffffff000000'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'ffffffffffffffff000000', 'a.txt'), 'mine');
    site = await copyOf('basic');
    fs.mkdirSync(path.join(siteCacheRoot(site.root), 'images'), { recursive: true });
    fs.symlinkSync(outside, path.join(siteCacheRoot(site.root), 'images', 'variants'), 'dir');
    const before = snapshot();
    expect((await site.build()).errors).toEqual([]);
    expect(snapshot()).toBe(before);
    fs.rmSync(siteCacheRoot(site.root), { recursive: true, force: true });
    fs.symlinkSync(outside, siteCacheRoot(site.root), 'dir');
    expect(await cleanSiteCaches(site.root)).toEqual(['the link itself']);
    expect(fs.existsSync(siteCacheRoot(site.root))).toBe(false);
    expect(snapshot()).toBe(before);
  });
});
