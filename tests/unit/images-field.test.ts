// imageFile(): a front matter field that names an image beside the post ("cover: ./cover.jpg"), shown by a
// template with <Image src={cover}> or image(cover): published as versions only (the photo itself never is),
// its problems located at the field, and a new photo re-renders the pages that show it (build and dev).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';
import { cleanBuilder } from '../helpers/cleanBuild.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { hostOf } from '../helpers/devHost.ts';
import { photo } from '../helpers/photo.ts';
import { sitegen } from '../helpers/cli.ts';
import { addCoverField } from '../helpers/coverField.ts';

let small: Buffer;
beforeAll(async () => { small = await photo(800, 500, 2); });

const ABOUT = (cover: string) => `---\ntitle: About\ncover: ${cover}\n---\n# About\n\nSome text.\n`;

/** The basic fixture with a `cover: imageFile()` field on its pages, shown by <Image> and by image(). */
async function coverSite(files: Record<string, string | Buffer>, optional = false, og = false): Promise<TestSite> {
  const site = await copyOf('basic', files);
  addCoverField(site, { optional, og });
  site.edit('templates/pages.tsx', (t) => t
    .replace("import type { LayoutProps } from 'sitegen-islands';", "import { Image, image, type ContentImage, type LayoutProps } from 'sitegen-islands';")
    .replace('export function Doc({ title, html }: { title: string; html: string }): ReactNode {\n  return (<><h1>{title}</h1>',
      'export function Doc({ title, html, cover }: { title: string; html: string; cover?: ContentImage }): ReactNode {\n  const small = cover && image(cover);\n  const thumb = cover && image(cover, { width: 320 });\n  return (<>{cover && <Image src={cover} alt="The cover" priority />}{small && <img src={small.src} width={small.width} height={small.height} alt="" />}{thumb && <img src={thumb.src} width={thumb.width} height={thumb.height} alt="" />}<h1>{title}</h1>'));
  return site;
}

const variant = (html: string) => html.match(/\/assets\/img\/[0-9a-f]{22}\/cover-640\.avif/)?.[0];

describe('imageFile(): an image named in front matter', () => {
  it('is shown as AVIF and WebP versions beside a fallback, made in dist/; the photo itself is not published', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/about.md': ABOUT('./cover.jpg') });
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('about/index.html');
      expect(html).toMatch(/<picture><source type="image\/avif" srcSet="\/assets\/img\/[0-9a-f]{22}\/cover-640\.avif 640w, \/assets\/img\/[0-9a-f]{22}\/cover-800\.avif 800w"/);
      expect(html).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/cover-800\.jpg" alt="The cover" width="800" height="500" decoding="auto" fetchPriority="high"\/>/);
      // image(cover): its own format at the width pages show it, with that size; asked for a width, that version.
      expect(html).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/cover-800\.jpg" width="800" height="500" alt=""\/>/);
      expect(html).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/cover-320\.jpg" width="320" height="200" alt=""\/>/);
      const out = r.output();
      const made = Object.keys(out).filter((f) => f.startsWith('assets/img/')).map((f) => f.replace(/^.*\//, '')).sort();
      // (the fallback in its own format at the one width the page shows it)
      expect(made).toEqual(['cover-320.jpg', 'cover-640.avif', 'cover-640.webp', 'cover-800.avif', 'cover-800.jpg', 'cover-800.webp']);
      expect(Object.keys(out).some((f) => f.endsWith('cover.jpg'))).toBe(false);
      const v = variant(html)!;
      expect((await sharp(fs.readFileSync(path.join(r.outDir, v))).metadata())).toMatchObject({ format: 'heif', width: 640 });
    } finally { site.remove(); }
  });

  it('is a page\'s Open Graph image as a version at most 1200 px wide, with its size, made in dist/ (an SVG as it is)', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': await photo(1600, 900, 3), 'content/pages/about.md': ABOUT('./cover.jpg') }, false, true);
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('about/index.html');
      const og = html.match(/<meta property="og:image" content="https:\/\/fixture\.example(\/assets\/img\/[0-9a-f]{22}\/cover-1200\.jpg)"\/>/);
      expect(og).not.toBeNull();
      expect(html).toContain('<meta property="og:image:width" content="1200"/><meta property="og:image:height" content="675"/>');
      expect((await sharp(fs.readFileSync(path.join(r.outDir, og![1]))).metadata())).toMatchObject({ format: 'jpeg', width: 1200, height: 675 });
      // An SVG (or a GIF): its file, as one of static/ is given.
      site.write('content/pages/logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40"/></svg>');
      site.edit('content/pages/about.md', (t) => t.replace('./cover.jpg', './logo.svg'));
      const svg = await site.build();
      expect(svg.errors).toEqual([]);
      const file = svg.read('about/index.html').match(/<meta property="og:image" content="https:\/\/fixture\.example(\/assets\/img\/[0-9a-f]{22}\/logo\.svg)"\/>/)?.[1];
      expect(fs.readFileSync(path.join(svg.outDir, file!), 'utf8')).toContain('<rect width="40"');
      // An object that holds the image (a cover's { image, alt }) names the field meant.
      site.edit('sitegen.config.ts', (t) => t.replace(', ogImage: p.data.cover', ', ogImage: { image: p.data.cover }'));
      const wrapped = await site.build();
      expect(wrapped.errors.map((e) => e.text)).toEqual(['route /about ogImage must be a site path, an absolute URL or an imageFile() field\'s image; it is an object whose "image" is an imageFile() image: give that (….image)']);
    } finally { site.remove(); }
  });

  it('a photo a camera stored turned (EXIF orientation 6) has the width and height it is shown at, as its versions do', async () => {
    // The frame is 800×500; the camera says to show it turned a quarter: 500×800.
    const turned = await sharp(await photo(800, 500, 7)).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const site = await coverSite({ 'content/pages/cover.jpg': turned, 'content/pages/about.md': ABOUT('./cover.jpg') });
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('about/index.html');
      const img = html.match(/<img src="(\/assets\/img\/[0-9a-f]{22}\/cover-500\.jpg)" alt="The cover" width="500" height="800"/);
      expect(img).not.toBeNull();
      expect((await sharp(fs.readFileSync(path.join(r.outDir, img![1]))).metadata())).toMatchObject({ width: 500, height: 800 });
      expect(html).toMatch(/cover-320\.jpg" width="320" height="512"/); // image(cover, { width: 320 })
    } finally { site.remove(); }
  });

  it('an island given images it shows only in the browser (a slideshow\'s next photo): their versions are made too', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/next.jpg': await photo(900, 600, 12), 'content/pages/about.md': ABOUT('./cover.jpg').replace('cover: ./cover.jpg', 'cover: ./cover.jpg\nnext: ./next.jpg') });
    site.write('templates/islands/Slides.tsx', "import { useState } from 'react';\nimport { Image, type ContentImage } from 'sitegen-islands';\nexport default function Slides({ photos }: { photos: ContentImage[] }) {\n  const [i, setI] = useState(0);\n  return (<figure><Image src={photos[i]} alt=\"A slide\" /><button type=\"button\" onClick={() => setI((i + 1) % photos.length)}>Next</button></figure>);\n}\n");
    site.edit('sitegen.config.ts', (t) => t
      .replace('cover: imageFile() });', 'cover: imageFile(), next: imageFile().optional() });')
      .replace('cover: p.data.cover }', 'cover: p.data.cover, next: p.data.next }'));
    site.edit('templates/pages.tsx', (t) => t
      .replace("import Counter from './islands/Counter.tsx';", "import Counter from './islands/Counter.tsx';\nimport Slides from './islands/Slides.tsx';")
      .replace('{ title: string; html: string; cover?: ContentImage }', '{ title: string; html: string; cover?: ContentImage; next?: ContentImage }')
      .replace('Doc({ title, html, cover }', 'Doc({ title, html, cover, next }')
      .replace('<h1>{title}</h1><div', '<h1>{title}</h1>{cover && next && <Slides photos={[cover, next]} />}<div'));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('about/index.html');
      expect(html).not.toContain('/next-640.avif'); // (the server shows the first slide only)
      const made = Object.keys(r.output()).filter((f) => f.includes('/next-')).map((f) => f.replace(/^.*\//, '')).sort();
      expect(made).toEqual(['next-640.avif', 'next-640.webp', 'next-900.avif', 'next-900.jpg', 'next-900.webp']);
    } finally { site.remove(); }
  });

  it('a photo that is cut short is an ImageError at the field that names it, as a Markdown image\'s is at the image', async () => {
    const whole = await photo(800, 500, 10);
    const site = await coverSite({ 'content/pages/cut.jpg': whole.subarray(0, Math.floor(whole.length / 3)), 'content/pages/about.md': ABOUT('./cut.jpg') });
    try {
      const r = await site.build();
      expect(r.errors.map((e) => [e.id, e.location?.file, e.location?.line, e.location?.column, e.location?.lineText])).toEqual([['ImageError', 'content/pages/about.md', 3, 8, 'cover: ./cut.jpg']]);
      // The same path in a sentence of another field before it: still the field's line.
      site.edit('content/pages/about.md', (t) => t.replace('title: About\n', 'title: About\ndescription: The old cover was ./cut.jpg, now gone\n'));
      const again = await site.build();
      expect(again.errors.map((e) => [e.location?.line, e.location?.column])).toEqual([[4, 8]]);
      expect(r.errors[0].text).toMatch(/^content\/pages\/cut\.jpg cannot be decoded: it is corrupt or truncated/);
    } finally { site.remove(); }
  });

  it('a WebP or AVIF photo keeps a srcset of its own format beside the other one', async () => {
    const webp = await sharp(await photo(1000, 600, 8)).webp().toBuffer();
    const site = await coverSite({ 'content/pages/cover.webp': webp, 'content/pages/about.md': ABOUT('./cover.webp') });
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const types = [...r.read('about/index.html').matchAll(/<source type="(image\/\w+)" srcSet="([^"]+)"/g)].map((m) => [m[1], m[2].replace(/\/assets\/img\/\w+\//g, '')]);
      expect(types).toEqual([['image/avif', 'cover-640.avif 640w, cover-960.avif 960w, cover-1000.avif 1000w'], ['image/webp', 'cover-640.webp 640w, cover-960.webp 960w, cover-1000.webp 1000w']]);
      for (const f of ['cover-640.webp', 'cover-1000.webp', 'cover-960.avif']) expect(Object.keys(r.output()).some((o) => o.endsWith(`/${f}`))).toBe(true);
    } finally { site.remove(); }
  });

  it('an AVIF cover as an Open Graph image is shared as WebP, which link previews read', async () => {
    const avif = await sharp(await photo(1600, 900, 5)).avif().toBuffer();
    const site = await coverSite({ 'content/pages/cover.avif': avif, 'content/pages/about.md': ABOUT('./cover.avif') }, false, true);
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const og = r.read('about/index.html').match(/<meta property="og:image" content="https:\/\/fixture\.example(\/assets\/img\/[0-9a-f]{22}\/cover-1200\.webp)"\/>/)?.[1];
      expect((await sharp(fs.readFileSync(path.join(r.outDir, og!))).metadata())).toMatchObject({ format: 'webp', width: 1200 });
    } finally { site.remove(); }
  });

  it('image() in a JSON body links a version the build makes, though no attribute links it', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/about.md': ABOUT('./cover.jpg') });
    site.edit('sitegen.config.ts', (t) => t
      .replace("import { defineConfig, href, imageFile } from 'sitegen-islands';", "import { defineConfig, href, image, imageFile } from 'sitegen-islands';")
      .replace("    { path: '/404',", "    { path: '/covers.json', output: 'covers.json', title: 'Covers', props: c.pages, body: (pages: typeof c.pages) => JSON.stringify(pages.map((p) => image(p.data.cover, { width: 300 }).src)) },\n    { path: '/404',"));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const [src] = JSON.parse(r.read('covers.json')) as string[];
      expect(src).toMatch(/^\/assets\/img\/[0-9a-f]{22}\/cover-300\.jpg$/);
      expect((await sharp(fs.readFileSync(path.join(r.outDir, src))).metadata())).toMatchObject({ format: 'jpeg', width: 300 });
    } finally { site.remove(); }
  });

  it('is a feed item\'s image as the same version, made in dist/ though no page links it', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': await photo(1600, 900, 4), 'content/pages/about.md': ABOUT('./cover.jpg') });
    site.edit('sitegen.config.ts', (t) => t
      .replace("import { defineConfig, href, imageFile } from 'sitegen-islands';", "import { defineConfig, href, imageFile, rssFeed } from 'sitegen-islands';")
      .replace("    { path: '/404',", "    { path: '/rss.xml', output: 'rss.xml', title: 'RSS', props: c.pages, body: (pages: typeof c.pages, ctx) => rssFeed(ctx, { title: 'F', self: '/rss.xml', items: pages.map((p) => ({ title: p.data.title, path: `/${p.slug}/`, date: new Date('2026-01-01'), image: p.data.cover })) }) },\n    { path: '/404',"));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const url = r.read('rss.xml').match(/<media:content url="https:\/\/fixture\.example(\/assets\/img\/[0-9a-f]{22}\/cover-1200\.jpg)" medium="image" type="image\/jpeg"\/>/)?.[1];
      expect(url).toBeDefined();
      expect(r.read('about/index.html')).not.toContain('cover-1200.jpg'); // (the page links other versions)
      expect((await sharp(fs.readFileSync(path.join(r.outDir, url!))).metadata())).toMatchObject({ format: 'jpeg', width: 1200 });
    } finally { site.remove(); }
  });

  it('image() of a static image asked for a width links that version, made in dist/; a width that is no whole pixel count is an error', async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': small });
    site.edit('templates/pages.tsx', (t) => t
      .replace("import type { LayoutProps } from 'sitegen-islands';", "import { image, type LayoutProps } from 'sitegen-islands';")
      .replace('<h1>Fixture home</h1>', '<h1>Fixture home</h1><img src={image(\'/img/team.jpg\', { width: 300 }).src} width={image(\'/img/team.jpg\', { width: 300 }).width} alt="" />'));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const src = r.read('index.html').match(/<img src="(\/assets\/img\/[0-9a-f]{22}\/team-300\.jpg)" width="300" alt=""\/>/)?.[1];
      expect((await sharp(fs.readFileSync(path.join(r.outDir, src!))).metadata())).toMatchObject({ format: 'jpeg', width: 300 });
      site.edit('templates/pages.tsx', (t) => t.replaceAll('{ width: 300 }', '{ width: 0.5 }'));
      const bad = await site.build();
      expect(bad.errors[0].text).toContain('image("/img/team.jpg", { width: 0.5 }): write a whole number of pixels from 1 to 16384');
      site.edit('templates/pages.tsx', (t) => t.replaceAll('{ width: 0.5 }', '{ height: 300 } as never'));
      const other = await site.build();
      expect(other.errors[0].text).toContain('image("/img/team.jpg", { height }): image() takes { width, aspect, quality }');
    } finally { site.remove(); }
  });

  const problems: [string, string, RegExp][] = [
    ['a missing file (with the name a typo away)', './covr.jpg', /^The image \.\/covr\.jpg does not exist \(looked for content\/pages\/covr\.jpg\)\. Did you mean \.\/cover\.jpg\?$/],
    ['a path out of the site', '../../../etc/passwd.jpg', /^The image \.\.\/\.\.\/\.\.\/etc\/passwd\.jpg is outside the site/],
    ['a file that is no image', './notes.txt', /is not a PNG, JPEG, WebP, AVIF, GIF or SVG file$/],
    ['a remote URL', 'https://cdn.example.net/a.jpg', /is remote: an imageFile\(\) field names a file of the site/],
    ['a mistyped extension', './cover.jgp', /^The image \.\/cover\.jgp does not exist \(looked for content\/pages\/cover\.jgp\)\. Did you mean \.\/cover\.jpg\?$/],
    ['no extension', './cover', /^The image \.\/cover does not exist \(looked for content\/pages\/cover\)\. Did you mean \.\/cover\.jpg\?$/],
    ['a folder of the site that is not content/ or static/ (an Astro site\'s assets/)', '../../assets/hero.jpg', /^The image \.\.\/\.\.\/assets\/hero\.jpg is assets\/hero\.jpg, outside content\/ and static\/: images are read from those folders, which the build and dev watch for changes\. Move it beside the file that shows it \(content\/…\), or to static\/img\/ and write "\/img\/hero\.jpg"$/],
    ['a Windows path', '.\\cover.jpg', /^The image \.\\cover\.jpg is written with "\\": write a path with "\/" \(\.\/cover\.jpg\), on every system$/],
  ];
  for (const [name, value, text] of problems) {
    it(`${name} is an ImageError at the field's value, in build and check`, async () => {
      const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/notes.txt': 'text', 'content/pages/about.md': ABOUT(value) });
      try {
        for (const command of ['build', 'check']) {
          const r = await site.run(command);
          expect(r.code).toBe(1);
          expect(r.errors.map((e) => [e.id, e.field, e.location?.file, e.location?.line, e.location?.column])).toEqual([['ImageError', 'cover', 'content/pages/about.md', 3, 8]]);
          expect(r.errors[0].text).toMatch(text);
        }
      } finally { site.remove(); }
    });
  }

  it('in a Markdown component\'s schema is an error at the attribute, whose hint says what a component takes instead', async () => {
    const site = await copyOf('basic', { 'content/pages/cover.jpg': small, 'content/pages/about.md': '---\ntitle: About\n---\n::Figure{src="./cover.jpg"}\n', 'templates/Figure.tsx': 'export default function Figure({ src }: { src: unknown }) { return <figure>{String(src)}</figure>; }\n' });
    site.edit('sitegen.config.ts', (t) => t
      .replace("import { defineConfig, href } from 'sitegen-islands';", "import { component, defineConfig, href, imageFile } from 'sitegen-islands';\nimport Figure from './templates/Figure.tsx';")
      .replace('  validate:', '  components: { Figure: component(Figure, z.object({ src: imageFile() })) },\n  validate:'));
    try {
      const r = await site.build();
      expect(r.errors.map((e) => [e.id, e.location?.file, e.location?.line, e.text])).toEqual([['ComponentError', 'content/pages/about.md', 4, 'Attribute "src" of Figure: imageFile() reads a field of a collection\'s entries (front matter or data) as they load, and nothing loads this one (a component\'s attribute, a schema run by hand)']]);
      expect(r.errors[0].hint).toMatch(/^A component's attributes are text: declare "src" with z\.string\(\) and show it with <Image src=\{…\}> from a path of static\//);
    } finally { site.remove(); }
  });

  it('a field left empty or given a number is told to name an image file', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/about.md': ABOUT('') });
    try {
      for (const [value, text] of [['', 'Expected string, received null'], ['42', 'Expected string, received number 42']]) {
        site.edit('content/pages/about.md', (t) => t.replace(/^cover:.*$/m, `cover: ${value}`.trimEnd()));
        const r = await site.build();
        expect(r.errors.map((e) => [e.id, e.field, e.location?.line, e.text])).toEqual([['ContentSchemaError', 'cover', 3, text]]);
        expect(r.errors[0].hint).toMatch(/^Write the path of an image file: beside this file \(cover: \.\/photo\.jpg\) or under static\/ \(\/img\/photo\.jpg\)/);
      }
    } finally { site.remove(); }
  });

  it('names a file by its path as it is: "#", "?" and "%20" are part of the name, not of a URL', async () => {
    const site = await coverSite({ 'content/pages/cover #2?.jpg': small, 'content/pages/a%20b.jpg': small, 'content/pages/about.md': ABOUT('"./cover #2?.jpg"') });
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      expect(r.read('about/index.html')).toMatch(/\/assets\/img\/[0-9a-f]{22}\/cover-2-640\.avif/);
      site.edit('content/pages/about.md', (t) => t.replace('"./cover #2?.jpg"', './a%20b.jpg'));
      expect((await site.build()).errors).toEqual([]);
    } finally { site.remove(); }
  });

  it('a new photo in the same file: the next build shows its versions, as a clean build does; a page without a cover is fine', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/about.md': ABOUT('./cover.jpg') }, true);
    const clean = cleanBuilder(site);
    try {
      const first = await site.build();
      const before = variant(first.read('about/index.html'));
      site.write('content/pages/cover.jpg', await photo(1000, 600, 7));
      const second = await site.build();
      expect(second.errors).toEqual([]);
      const html = second.read('about/index.html');
      expect(variant(html)).not.toBe(before);
      expect(html).toMatch(/cover-1000\.jpg" alt="The cover" width="1000" height="600"/);
      expect(second.output()).toEqual((await clean()).output());
      // Taken from the content cache in a third build: the same page, its versions still made.
      const third = await site.build();
      expect(third.read('about/index.html')).toBe(html);
      site.edit('content/pages/about.md', (t) => t.replace('cover: ./cover.jpg\n', ''));
      const none = await site.build();
      expect(none.errors).toEqual([]);
      expect(none.read('about/index.html')).not.toContain('<picture>');
    } finally { site.remove(); }
  });

  it('a template edit validates the posts again without reading their photos again (their stamps are the cache\'s)', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/about.md': ABOUT('./cover.jpg') });
    try {
      // (a whole second: the mtime set again below is then the same to the nanosecond)
      const file = path.join(site.root, 'content/pages/cover.jpg');
      fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
      const before = variant((await site.build()).read('about/index.html'));
      // Other bytes of the same size under the same mtime: a stamp the cache takes as the same photo, so the
      // facts (the hash in the variants' names) come from the cache, not from a read of the file.
      fs.writeFileSync(file, Buffer.from(small).reverse());
      fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
      site.edit('templates/pages.tsx', (t) => t.replace('<h1>Fixture home</h1>', '<h1>The fixture home</h1>'));
      // (a build in a process of its own: this one keeps what it read in memory)
      const r = sitegen(['build', '--root', site.root]);
      expect(r.code, r.stderr).toBe(0);
      expect(fs.readFileSync(path.join(site.root, 'dist/index.html'), 'utf8')).toContain('The fixture home');
      expect(variant(fs.readFileSync(path.join(site.root, 'dist/about/index.html'), 'utf8'))).toBe(before);
    } finally { site.remove(); }
  });

  it('sitegen dev: a photo refused (over images.maxPixels) and then replaced by a smaller one clears its error', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/about.md': ABOUT('./cover.jpg') });
    site.edit('sitegen.config.ts', (t) => t.replace('  css:', '  images: { maxPixels: 300_000 },\n  css:'));
    const dev = await createDevSite({ root: site.root });
    const host = await hostOf(dev, site.root);
    try {
      expect((await dev.start()).errors.map((e) => [e.id, e.location?.line])).toEqual([['ImageError', 3]]);
      site.write('content/pages/cover.jpg', await photo(400, 250, 6));
      const fixed = await dev.apply([{ file: 'content/pages/cover.jpg', kind: 'change' }]);
      expect(fixed?.errors).toEqual([]);
      expect(await host.text('/about/')).toMatch(/\/assets\/img\/[0-9a-f]{22}\/cover-400\.avif 400w/);
    } finally { await host.close(); await dev.close(); site.remove(); }
  });

  it('sitegen dev: a body image fixed in a file whose front matter also fails clears the image\'s error', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/body.jpg': small, 'content/pages/about.md': '---\ntitle: 5\ncover: ./cover.jpg\n---\n![A body image](./body.jpg)\n' }, true);
    site.edit('sitegen.config.ts', (t) => t.replace('  css:', '  images: { maxPixels: 300_000 },\n  css:'));
    const dev = await createDevSite({ root: site.root });
    try {
      expect((await dev.start()).errors.map((e) => e.id).sort()).toEqual(['ContentSchemaError', 'ImageError', 'ImageError']);
      site.write('content/pages/body.jpg', await photo(400, 250, 8));
      site.write('content/pages/cover.jpg', await photo(400, 250, 9));
      const fixed = await dev.apply([{ file: 'content/pages/body.jpg', kind: 'change' }, { file: 'content/pages/cover.jpg', kind: 'change' }]);
      expect(fixed?.errors.map((e) => e.id)).toEqual(['ContentSchemaError']);
    } finally { await dev.close(); site.remove(); }
  });

  it('sitegen dev: an ogImage that turns from an image to null is the error a build gives, not a crash', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/about.md': ABOUT('./cover.jpg') }, true, true);
    site.edit('sitegen.config.ts', (t) => t.replace(', ogImage: p.data.cover', ', ogImage: p.data.cover ?? (null as never)'));
    const dev = await createDevSite({ root: site.root });
    try {
      expect((await dev.start()).errors).toEqual([]);
      site.edit('content/pages/about.md', (t) => t.replace('cover: ./cover.jpg\n', ''));
      const r = await dev.apply([{ file: 'content/pages/about.md', kind: 'change' }]);
      expect(r?.errors.map((e) => [e.id, e.text])).toEqual([['ConfigError', 'route /about ogImage must be a site path, an absolute URL or an imageFile() field\'s image']]);
    } finally { await dev.close(); site.remove(); }
  });

  it('sitegen dev: a new photo re-renders the page; a removed one is an error at the field; put back, it is fixed', async () => {
    const site = await coverSite({ 'content/pages/cover.jpg': small, 'content/pages/about.md': ABOUT('./cover.jpg') });
    const dev = await createDevSite({ root: site.root });
    const host = await hostOf(dev, site.root);
    try {
      expect((await dev.start()).errors).toEqual([]);
      const before = variant((await host.text('/about/'))!);
      expect(before).toBeDefined();
      expect((await host.get(before!)).status).toBe(200);
      site.write('content/pages/cover.jpg', await photo(900, 600, 5));
      const changed = await dev.apply([{ file: 'content/pages/cover.jpg', kind: 'change' }]);
      expect(changed?.errors).toEqual([]);
      expect(changed?.changed).toContain('/about/');
      const after = variant((await host.text('/about/'))!);
      expect(after).not.toBe(before);
      expect((await host.get(after!)).status).toBe(200);
      fs.rmSync(path.join(site.root, 'content/pages/cover.jpg'));
      const removed = await dev.apply([{ file: 'content/pages/cover.jpg', kind: 'unlink' }]);
      expect(removed?.errors.map((e) => [e.id, e.location?.line, e.text])).toEqual([['ImageError', 3, 'The image ./cover.jpg does not exist (looked for content/pages/cover.jpg)']]);
      site.write('content/pages/cover.jpg', small);
      const back = await dev.apply([{ file: 'content/pages/cover.jpg', kind: 'add' }]);
      expect(back?.errors).toEqual([]);
      expect(variant((await host.text('/about/'))!)).toBe(before);
    } finally { await host.close(); await dev.close(); site.remove(); }
  });
});
