// One registry of caches (src/cache/registry.ts) and one prune (src/cache/prune.ts): everything a build
// leaves in the site's cache folder is a cache the registry names; a build drops the site's records of
// image sources its output no longer links, while the variants stay in the install's store, where another
// site with the same image finds them and from which a folder unused for 30 days goes. `sitegen clean`
// deletes the registry's site caches and nothing else.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { type TestSite } from '../helpers/site.ts';
import { copyOf, SCRATCH } from '../helpers/scratch.ts';
import { CACHES, siteCacheRoot } from '../../src/cache/registry.ts';
import { pruneCaches } from '../../src/cache/prune.ts';
import { variantStore } from '../../src/images/storeFiles.ts';
import { build } from '../../src/pipeline/build.ts';
import { cleanSiteCaches } from '../../src/pipeline/clean.ts';

// A new colour each run: the install's store keeps the variants of every image a build made.
const jpeg = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: rnd(), g: rnd(), b: rnd() } } }).jpeg().toBuffer();
const rnd = () => Math.floor(Math.random() * 256);
const post = (images: string) => `---\ntitle: About\n---\n# About\n\n${images}\n`;
const sourceHashes = (site: TestSite) => fs.readdirSync(path.join(siteCacheRoot(site.root), 'images', 'sources')).map((n) => n.slice(0, 16)).sort();
const outputDirs = (site: TestSite) => fs.readdirSync(path.join(site.root, 'dist', 'assets', 'img')).sort();

describe('the site cache folder', () => {
  let site: TestSite;
  let a: Buffer, b: Buffer;
  beforeAll(async () => { a = await jpeg(700, 400); b = await jpeg(640, 480); });
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

  it("loses the records of an image the site no longer shows; the variants stay in the install's store", async () => {
    expect(sourceHashes(site)).toEqual(outputDirs(site).map((d) => d.slice(0, 16)).sort());
    expect(outputDirs(site)).toHaveLength(2);
    const before = outputDirs(site);
    site.edit('content/pages/about.md', () => post('![A](./a.jpg)'));
    const r = await site.build();
    expect(r.errors).toEqual([]);
    expect(r.result.images?.processed).toBe(0); // a's variants came from the store
    expect(outputDirs(site)).toHaveLength(1);
    expect(sourceHashes(site)).toEqual([outputDirs(site)[0].slice(0, 16)]);
    for (const d of before) expect(fs.existsSync(path.join(variantStore(), d)), d).toBe(true);
  });

  it('gives another site with the same images their variants from the store: it encodes nothing', async () => {
    const other = await copyOf('basic', { 'content/pages/a.jpg': a, 'content/pages/b.jpg': b, 'content/pages/about.md': post('![A](./a.jpg)\n\n![B](./b.jpg)') });
    try {
      const r = await other.build();
      expect(r.errors).toEqual([]);
      expect(r.result.images).toEqual({ files: 8, processed: 0, cached: 8 });
      for (const f of Object.keys(r.output()).filter((f) => f.startsWith('assets/img/'))) {
        expect(fs.readFileSync(path.join(r.outDir, f)).equals(fs.readFileSync(path.join(variantStore(), f.slice('assets/img/'.length)))), f).toBe(true);
      }
    } finally { other.remove(); }
  });

  it('other image settings give other variants: every folder the output links is new and encoded, the old ones stay in the store', async () => {
    const old = outputDirs(site);
    site.edit('sitegen.config.ts', (t) => t.replace('defineConfig({', 'defineConfig({\n  images: { quality: 61 },'));
    const r = await site.build();
    expect(r.errors).toEqual([]);
    expect(outputDirs(site).some((d) => old.includes(d))).toBe(false);
    expect(r.result.images?.processed).toBe(r.result.images?.files);
    for (const d of old) expect(fs.existsSync(path.join(variantStore(), d)), d).toBe(true);
    expect(sourceHashes(site)).toEqual(outputDirs(site).map((d) => d.slice(0, 16)).sort());
  });

  it('is left alone by a build with the cache off, and by a prune without an output', async () => {
    const kept = sourceHashes(site);
    fs.writeFileSync(path.join(siteCacheRoot(site.root), 'images', 'sources', 'ffffffffffffffff.json'), '{"file":"content/pages/gone.jpg"}');
    expect(await pruneCaches({ root: site.root }, ['images'])).toEqual({ images: 0 });
    const r = await site.build({ cache: false });
    expect(r.errors).toEqual([]);
    expect(sourceHashes(site)).toEqual([...kept, 'ffffffffffffffff'].sort());
    expect(await pruneCaches({ root: site.root, output: path.join(site.root, 'dist') }, ['images'])).toEqual({ images: 1 });
    expect(sourceHashes(site)).toEqual(kept);
  });
});

describe("the install's image store", () => {
  const DAY = 86_400_000;
  const age = (dir: string, days: number) => { const t = (Date.now() - days * DAY) / 1000; fs.utimesSync(dir, t, t); };
  const marker = () => path.join(variantStore(), 'last-prune');
  let site: TestSite;
  afterAll(() => site?.remove());

  it('loses a folder no build has used for 30 days, at most once an hour; a build marks the folders it uses', async () => {
    site = await copyOf('basic', { 'content/pages/c.jpg': await jpeg(320, 200), 'content/pages/about.md': post('![C](./c.jpg)') });
    expect((await site.build()).errors).toEqual([]);
    const used = path.join(variantStore(), outputDirs(site)[0]!);
    const unused = path.join(variantStore(), `${'e'.repeat(16)}${Math.random().toString(16).slice(2, 8)}`);
    fs.mkdirSync(unused);
    age(unused, 31);
    age(used, 31);
    // A build that finds the folder marks it used (its mtime moves on).
    site.edit('content/pages/about.md', (t) => `${t}\nMore.\n`);
    const r = await site.build();
    expect(r.result.images?.processed).toBe(0);
    expect(fs.statSync(used).mtimeMs).toBeGreaterThan(Date.now() - DAY);
    // The build pruned already (within the hour: nothing more now); an hour later, the unused folder goes.
    if (fs.existsSync(unused)) {
      fs.writeFileSync(marker(), '');
      expect(await pruneCaches({ root: site.root }, ['imageStore'])).toEqual({ imageStore: 0 });
      expect(fs.existsSync(unused)).toBe(true);
      age(marker(), 1);
      expect((await pruneCaches({ root: site.root }, ['imageStore'])).imageStore).toBeGreaterThanOrEqual(1);
    }
    expect(fs.existsSync(unused)).toBe(false);
    expect(fs.existsSync(used)).toBe(true);
  });

  it('makes a variant the store loses while a build runs (clean --shared, a prune) again, rather than failing', async () => {
    const other = await copyOf('basic', { 'content/pages/d.jpg': await jpeg(300, 200), 'content/pages/about.md': post('![D](./d.jpg)') });
    try {
      expect((await other.build()).errors).toEqual([]);
      const folders = outputDirs(other);
      fs.rmSync(path.join(other.root, 'dist'), { recursive: true }); // a whole output: every variant is written
      // Found in the store by the images stage, gone before the image files are written.
      const r = await build({ root: other.root, onStage: (name) => { if (name === 'images') for (const d of folders) fs.rmSync(path.join(variantStore(), d), { recursive: true, force: true }); } });
      expect(r.errors).toEqual([]);
      expect(r.images).toMatchObject({ files: 3, cached: 3, processed: 3 });
      for (const d of folders) {
        for (const f of fs.readdirSync(path.join(other.root, 'dist/assets/img', d))) {
          expect(fs.readFileSync(path.join(other.root, 'dist/assets/img', d, f)).equals(fs.readFileSync(path.join(variantStore(), d, f))), f).toBe(true);
        }
      }
    } finally { other.remove(); }
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
    fs.writeFileSync(path.join(outside, 'ffffffffffffffff.json'), 'mine');
    site = await copyOf('basic');
    fs.mkdirSync(path.join(siteCacheRoot(site.root), 'images'), { recursive: true });
    fs.symlinkSync(outside, path.join(siteCacheRoot(site.root), 'images', 'sources'), 'dir');
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
