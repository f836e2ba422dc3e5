// Warm builds of a site with photos (issue #25): a build with nothing changed is answered by the up-to-date
// check, which stamps each variant folder rather than each variant, and still notices a variant taken out
// of dist/ by hand; a changed image is encoded again alone, and changed back takes its variants from the
// install's store; the site's source records are pruned only when what the output links, or what the
// records hold, changed. And the facts of a source
// image (hash, format, size) read a chunk at a time are those of its whole bytes.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { type TestSite } from '../helpers/site.ts';
import { copyOf, SCRATCH } from '../helpers/scratch.ts';
import { photo, post } from '../helpers/photo.ts';
import { siteCacheRoot } from '../../src/cache/registry.ts';
import { pruneCaches } from '../../src/cache/prune.ts';
import { recordedOutput } from '../../src/pipeline/memoRecord.ts';
import { sourceFacts, sourceFactsOfFile } from '../../src/images/source.ts';
import { variantStore } from '../../src/images/storeFiles.ts';

const variantsIn = (dir: string) => fs.readdirSync(dir).sort();
const outputDirs = (site: TestSite) => variantsIn(path.join(site.root, 'dist', 'assets', 'img'));

describe('a warm build over a kept output', () => {
  let site: TestSite;
  let a: Buffer, b: Buffer;
  beforeAll(async () => { a = await photo(800, 500, 4); b = await photo(700, 400, 5); });
  afterAll(() => site?.remove());
  afterEach(() => { vi.restoreAllMocks(); });

  it('with nothing changed is up to date; a variant taken out of dist/ by hand is put back from the cache', async () => {
    site = await copyOf('basic', { 'content/pages/a.jpg': a, 'content/pages/b.jpg': b, 'content/pages/about.md': post('![A](./a.jpg)\n\n![B](./b.jpg)') });
    const first = await site.build();
    expect(first.errors).toEqual([]);
    expect(first.result.images).toEqual({ files: 10, processed: 10, cached: 0 });
    const again = await site.build();
    expect(again.result.cached).toContain('up to date');
    const folder = outputDirs(site)[0];
    const gone = path.join(site.root, 'dist', 'assets', 'img', folder, variantsIn(path.join(site.root, 'dist', 'assets', 'img', folder))[0]);
    fs.rmSync(gone);
    const repaired = await site.build();
    expect(repaired.errors).toEqual([]);
    expect(repaired.result.cached).not.toContain('up to date');
    expect(repaired.result.images).toEqual({ files: 10, processed: 0, cached: 10 });
    expect(fs.existsSync(gone)).toBe(true);
    expect((await site.build()).result.cached).toContain('up to date');
  });

  it('the up-to-date record stamps each variant folder, not each of its files', async () => {
    const stamped = (await recordedOutput(site.root))!;
    expect(stamped.files).toContain('about/index.html');
    expect(stamped.files.filter((f) => f.startsWith('assets/img/'))).toEqual([]);
    for (const d of outputDirs(site)) expect(stamped.dirs).toContain(`assets/img/${d}`);
  });

  it('a changed image is encoded again alone; its old variants stay in the store, so changing it back encodes nothing', async () => {
    const before = outputDirs(site);
    site.write('content/pages/a.jpg', await photo(800, 500, 6));
    const r = await site.build();
    expect(r.errors).toEqual([]);
    expect(r.result.images).toEqual({ files: 10, processed: 5, cached: 5 });
    expect(outputDirs(site).filter((d) => before.includes(d))).toHaveLength(1); // b's folder stayed
    for (const d of before) expect(fs.existsSync(path.join(variantStore(), d)), d).toBe(true);
    // As after a branch switched back: the first bytes again, their variants from the store.
    site.write('content/pages/a.jpg', a);
    const back = await site.build();
    expect(back.result.images).toEqual({ files: 10, processed: 0, cached: 10 });
    expect(outputDirs(site)).toEqual(before);
  });

  it("prunes the site's source records only when the output links other folders or a record was added", async () => {
    const output = path.join(site.root, 'dist');
    const sources = path.join(siteCacheRoot(site.root), 'images', 'sources');
    const listed = () => readdir.mock.calls.filter(([p]) => path.resolve(String(p)) === sources).length;
    const readdir = vi.spyOn(fsp, 'readdir');
    // Nothing changed since the last build pruned: the records' folder is not listed.
    expect(await pruneCaches({ root: site.root, output }, ['images'])).toEqual({ images: 0 });
    expect(listed()).toBe(0);
    // A record of a source the output does not link: listed, and removed.
    fs.writeFileSync(path.join(sources, 'ffffffffffffffff.json'), '{"file":"content/pages/gone.jpg"}');
    expect(await pruneCaches({ root: site.root, output }, ['images'])).toEqual({ images: 1 });
    expect(listed()).toBe(1);
    expect(await pruneCaches({ root: site.root, output }, ['images'])).toEqual({ images: 0 });
    expect(listed()).toBe(1);
    vi.restoreAllMocks();
    // An image the site no longer shows: its record goes with the next build, its variants stay in the store.
    const html = fs.readFileSync(path.join(site.root, 'dist/about/index.html'), 'utf8');
    const bFolder = outputDirs(site).find((d) => !html.includes(`${d}/a-`))!;
    site.edit('content/pages/about.md', () => post('![A](./a.jpg)'));
    const r = await site.build();
    expect(r.errors).toEqual([]);
    expect(outputDirs(site)).toHaveLength(1);
    expect(fs.readdirSync(sources).map((n) => n.slice(0, 16))).toEqual(outputDirs(site).map((d) => d.slice(0, 16)));
    expect(fs.existsSync(path.join(variantStore(), bFolder))).toBe(true);
  });
});

describe("a source image's facts, read a chunk at a time", () => {
  const dir = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-facts-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const both = (name: string, bytes: Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return [sourceFactsOfFile(file, name, 100_000_000), sourceFacts(bytes, name, 100_000_000)];
  };

  it('are those of the whole file, for a file of several chunks', async () => {
    const noise = Buffer.alloc(1200 * 900 * 3);
    for (let i = 0, x = 7; i < noise.length; i++) { x = (Math.imul(x, 1103515245) + 12345) >>> 0; noise[i] = x >>> 24; }
    const png = await sharp(noise, { raw: { width: 1200, height: 900, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
    expect(png.length).toBeGreaterThan(2 * 1024 * 1024);
    const [chunked, whole] = both('noise.png', png);
    expect(chunked).toEqual(whole);
    expect(chunked).toMatchObject({ facts: { format: 'png', width: 1200, height: 900 } });
  });

  it('are those of the whole file for a JPEG whose frame comes after more than a chunk of metadata', async () => {
    const jpeg = await photo(320, 200, 9);
    // 20 APP15 segments of 65,000 bytes between the start marker and the rest: the size is 1.3 MB in.
    const segment = Buffer.alloc(65_002, 0x41);
    segment[0] = 0xff; segment[1] = 0xef; segment.writeUInt16BE(65_000, 2);
    const padded = Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: 20 }, () => segment), jpeg.subarray(2)]);
    const [chunked, whole] = both('padded.jpg', padded);
    expect(chunked).toEqual(whole);
    expect(chunked).toMatchObject({ facts: { format: 'jpeg', width: 320, height: 200 } });
    // A file that is all metadata and no frame: the same problem either way.
    const [bad, badWhole] = both('frameless.jpg', Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: 20 }, () => segment)]));
    expect(bad).toEqual(badWhole);
    expect(bad).toMatchObject({ problem: expect.stringContaining('size cannot be read') });
  });
});

describe("a draft's image", () => {
  let site: TestSite;
  afterAll(() => site?.remove());

  it('is made by `build --drafts` after a build without drafts took the draft from the content cache', async () => {
    // The basic fixture's pages, with drafts: a build without them prunes the record of the draft's image
    // (its output does not link it); the draft then comes from the content cache in the next build.
    const config = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/basic/sitegen.config.ts'), 'utf8')
      .replace("z.strictObject({ title: z.string().min(1), description: z.string().optional() })", "z.strictObject({ title: z.string().min(1), description: z.string().optional(), draft: z.boolean().optional() })")
      .replace("pages: { pattern: 'pages/*.md', schema: Page$ }", "pages: { pattern: 'pages/*.md', schema: Page$, draft: 'draft' }");
    expect(config).toContain("draft: 'draft'");
    site = await copyOf('basic', {
      'sitegen.config.ts': config,
      'content/pages/plan.jpg': await photo(640, 400, 11),
      'content/pages/later.md': '---\ntitle: Later\ndraft: true\n---\n# Later\n\n![A plan](./plan.jpg)\n',
    });
    const plain = await site.build();
    expect(plain.errors).toEqual([]);
    expect(fs.existsSync(path.join(site.root, 'dist', 'later'))).toBe(false);
    for (let i = 0; i < 2; i++) {
      const drafts = await site.build({ drafts: true });
      expect(drafts.errors).toEqual([]);
      const html = fs.readFileSync(path.join(site.root, 'dist', 'later', 'index.html'), 'utf8');
      const variants = [...html.matchAll(/\/assets\/img\/[^"\s,]+/g)].map((m) => m[0]);
      expect(variants.length).toBeGreaterThan(0);
      for (const v of variants) expect(fs.existsSync(path.join(site.root, 'dist', v))).toBe(true);
    }
    expect((await site.build()).errors).toEqual([]);
  });
});

describe('the build summary of images', () => {
  let site: TestSite;
  afterAll(() => site?.remove());

  it('counts the variants of the output only: not those made early for an entry no page shows', async () => {
    const config = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/basic/sitegen.config.ts'), 'utf8')
      .replace('...c.pages.map((p) => ({', "...c.pages.filter((p) => p.slug !== 'unshown').map((p) => ({");
    expect(config).toContain("p.slug !== 'unshown'");
    site = await copyOf('basic', {
      'sitegen.config.ts': config,
      'content/pages/shown.jpg': await photo(640, 400, 21),
      'content/pages/unshown.jpg': await photo(640, 400, 22),
      'content/pages/about.md': post('![Shown](./shown.jpg)'),
      'content/pages/unshown.md': '---\ntitle: Unshown\n---\n# Unshown\n\n![Not on any page](./unshown.jpg)\n',
    });
    const r = await site.build();
    expect(r.errors).toEqual([]);
    const { files, processed, cached } = r.result.images!;
    expect(files).toBeGreaterThan(0);
    expect(processed + cached).toBe(files);
    expect(fs.readdirSync(path.join(site.root, 'dist', 'assets', 'img'))).toHaveLength(1);
  });
});
