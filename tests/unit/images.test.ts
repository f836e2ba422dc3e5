// The image pipeline as a user meets it (issue #25): Markdown images and <Image> in templates become a
// <picture> with AVIF/WebP srcsets, width/height and lazy loading; the variants are made once per source
// bytes (the build reports how many it encoded); every bad input is an error located where it is used, and
// dist/ is left as it was.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';
import { photo, post } from '../helpers/photo.ts';
import { variantStore } from '../../src/images/storeFiles.ts';

const picture = (html: string) => html.match(/<picture>.*?<\/picture>/s)?.[0] ?? '';

// Sizes chosen for what each test shows at the least encoding: `wide` is over one of the site's widths
// (960) and under the next, `big` just over the fallback's limit (1280 px) for <Image> to cap it.
let big: Buffer;
let wide: Buffer;
let small: Buffer;
beforeAll(async () => { big = await photo(1296, 810); wide = await photo(1000, 625, 4); small = await photo(800, 500, 2); });

describe('Markdown images', () => {
  let site: TestSite;
  afterAll(() => site?.remove());

  it('become a <picture> of AVIF and WebP srcsets never wider than the original, sized and lazy', async () => {
    site = await copyOf('basic', { 'content/pages/photo.jpg': small, 'content/pages/about.md': post('![A gradient at dusk](./photo.jpg)') });
    const r = await site.build();
    expect(r.errors).toEqual([]);
    const pic = picture(r.read('about/index.html'));
    expect(pic).toMatch(/<source type="image\/avif" srcset="\/assets\/img\/[0-9a-f]{22}\/photo-640\.avif 640w, \/assets\/img\/[0-9a-f]{22}\/photo-800\.avif 800w"/);
    expect(pic).toContain('type="image/webp"');
    expect(pic).not.toMatch(/-(960|1280|1920)\./); // never above the original's 800 px
    expect(pic).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/photo-800\.jpg" alt="A gradient at dusk" width="800" height="500" loading="lazy" decoding="async">/);
    // Every file the picture names is in dist/, and is what it says.
    for (const url of pic.match(/\/assets\/img\/[^" ,]+/g)!) {
      const file = path.join(r.outDir, url);
      expect(fs.existsSync(file), url).toBe(true);
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe({ avif: 'heif', webp: 'webp', jpg: 'jpeg' }[url.split('.').pop()!]);
      expect(meta.width).toBe(Number(url.match(/-(\d+)\./)![1]));
    }
    expect(r.result.images).toEqual({ files: 5, processed: 5, cached: 0 });
  });

  it('a warm build encodes nothing, and a changed image only itself', async () => {
    site.write('content/pages/other.jpg', wide);
    site.edit('content/pages/about.md', (t) => `${t}\n![A wide gradient](./other.jpg)\n`);
    const first = await site.build();
    expect(first.errors).toEqual([]);
    // 1000 px: 640, 960 and 1000 in two formats and the fallback; the first photo's 5 come from the cache.
    expect(first.result.images).toEqual({ files: 12, processed: 7, cached: 5 });
    const warm = await site.build();
    expect(warm.result.images).toEqual({ files: 12, processed: 0, cached: 12 });
    const before = picture(warm.read('about/index.html'));
    // New bytes, new names: the page changes with them and only that image is encoded.
    site.write('content/pages/photo.jpg', await photo(800, 500, 3));
    const changed = await site.build();
    expect(changed.errors).toEqual([]);
    expect(changed.result.images).toEqual({ files: 12, processed: 5, cached: 7 });
    expect(picture(changed.read('about/index.html'))).not.toBe(before);
  });

  it('under site.base, every URL has the base, the link check knows every variant, and feeds get absolute URLs', async () => {
    const based = await copyOf('base-blog', { 'content/posts/photo.jpg': small, 'static/img/wide.jpg': small });
    const first = fs.readdirSync(path.join(based.root, 'content/posts')).find((f) => f.endsWith('.md'))!;
    based.edit(`content/posts/${first}`, (t) => `${t}\n![A gradient](./photo.jpg)\n\n![The same, from static](/img/wide.jpg)\n`);
    try {
      const r = await based.build();
      expect(r.errors).toEqual([]);
      const html = r.read(`posts/${first.replace(/\.md$/, '')}/index.html`);
      const pics = html.match(/<picture>.*?<\/picture>/gs)!;
      expect(pics).toHaveLength(2);
      for (const pic of pics) {
        expect(pic).toMatch(/srcset="\/blog\/assets\/img\/[0-9a-f]{22}\/(photo|wide)-640\.avif 640w/);
        expect(pic).toMatch(/<img src="\/blog\/assets\/img\/[0-9a-f]{22}\/(photo|wide)-800\.jpg"/);
        for (const url of pic.match(/\/blog\/assets\/img\/[^" ,]+/g)!) expect(fs.existsSync(path.join(r.outDir, url.slice('/blog/'.length))), url).toBe(true);
      }
      // The feed carries the pictures with absolute URLs (a reader shows them away from the site).
      const rss = r.read('rss.xml');
      expect(rss).toMatch(/srcset=&quot;https:\/\/user\.example\.io\/blog\/assets\/img\/[0-9a-f]{22}\/photo-640\.avif 640w, https:\/\/user\.example\.io\/blog\/assets\/img\//);
      expect(rss).not.toMatch(/(src|srcset)=&quot;\/blog\//);
    } finally { based.remove(); }
  });
});

describe('bad input: a located error, dist/ untouched', () => {
  const cases: [string, Record<string, string | Buffer>, string, RegExp][] = [
    ['a missing file', {}, '![A photo](./nowhere.jpg)', /The image \.\/nowhere\.jpg does not exist \(looked for content\/pages\/nowhere\.jpg\)/],
    ['a non-image with an image extension', { 'content/pages/notes.jpg': 'just some text, not a JPEG at all' }, '![A photo](./notes.jpg)', /content\/pages\/notes\.jpg is not an image sitegen can read/],
    ['a missing alt', { 'content/pages/photo.jpg': Buffer.alloc(0) }, '![](./photo.jpg)', /The image \.\/photo\.jpg has no alt text/],
    ['a remote URL whose host the site does not list', {}, '![A photo](https://cdn.example.net/a.jpg)', /The image https:\/\/cdn\.example\.net\/a\.jpg is remote; only local images are processed/],
    ['a path out of the site', {}, '![A photo](../../../etc/passwd.png)', /is outside the site/],
  ];
  // One site for these cases, built once: each writes its files over it, and puts them back after.
  let shared: TestSite;
  let about: string;
  beforeAll(async () => {
    shared = await copyOf('basic');
    expect((await shared.build()).errors).toEqual([]);
    about = shared.file('content/pages/about.md');
  });
  afterAll(() => shared?.remove());
  for (const [name, files, line, text] of cases) {
    it(name, async () => {
      const site = shared;
      try {
        const before = fs.readFileSync(path.join(site.root, 'dist/about/index.html'), 'utf8');
        for (const [f, c] of Object.entries(files)) site.write(f, c);
        site.write('content/pages/about.md', post(line));
        const r = await site.build();
        expect(r.code).toBe(1);
        expect(r.errors).toHaveLength(1);
        const e = r.errors[0];
        expect(e.id).toBe('ImageError');
        expect(e.text).toMatch(text);
        expect(e.location).toMatchObject({ file: 'content/pages/about.md', line: 8, column: 1, lineText: line });
        expect(r.stderr).toContain('content/pages/about.md:8:1');
        expect(fs.readFileSync(path.join(site.root, 'dist/about/index.html'), 'utf8')).toBe(before);
      } finally {
        for (const f of Object.keys(files)) fs.rmSync(path.join(site.root, f), { force: true });
        site.write('content/pages/about.md', about);
      }
    });
  }

  it('a decompression bomb: refused above the pixel limit, which the site can set', async () => {
    // A PNG header that claims 30,000 × 30,000 pixels: 900 megapixels from a few bytes.
    const head = Buffer.from('89504e470d0a1a0a0000000d49484452000075300000753008020000000000000000', 'hex');
    const site = await copyOf('basic', { 'content/pages/bomb.png': head, 'content/pages/about.md': post('![A bomb](./bomb.png)') });
    try {
      const r = await site.build();
      expect(r.errors.map((e) => [e.id, e.location?.line])).toEqual([['ImageError', 8]]);
      expect(r.errors[0].text).toMatch(/30000×30000 pixels \(900 megapixels\), above the limit of 100 megapixels \(images\.maxPixels\)/);
      // A lower limit refuses an ordinary photo the same way.
      site.write('content/pages/photo.jpg', small);
      site.write('content/pages/about.md', post('![A photo](./photo.jpg)'));
      site.edit('sitegen.config.ts', (t) => t.replace('  css:', '  images: { maxPixels: 100_000 },\n  css:'));
      const low = await site.build();
      expect(low.errors[0].text).toMatch(/800×500 pixels \(0\.4 megapixels\), above the limit of 0\.1 megapixels/);
    } finally { site.remove(); }
  });

  it('a corrupt or truncated image: located where it is used, not copied', async () => {
    const whole = await photo(800, 500, 9); // no other test of this file builds it
    const site = await copyOf('basic', { 'content/pages/cut.jpg': whole.subarray(0, Math.floor(whole.length / 3)), 'content/pages/about.md': post('![A cut photo](./cut.jpg)') });
    try {
      const r = await site.build();
      expect(r.errors.map((e) => [e.id, e.location?.file, e.location?.line, e.location?.column])).toEqual([['ImageError', 'content/pages/about.md', 8, 1]]);
      expect(r.errors[0].text).toMatch(/content\/pages\/cut\.jpg cannot be decoded: it is corrupt or truncated/);
      expect(fs.existsSync(path.join(site.root, 'dist'))).toBe(false);
    } finally { site.remove(); }
  });

  it('a remote image is linked as it is when the site lists its host', async () => {
    const site = await copyOf('basic', { 'content/pages/about.md': post('![A photo](https://cdn.example.net/a.jpg)') });
    site.edit('sitegen.config.ts', (t) => t.replace('  css:', "  images: { remote: ['cdn.example.net'] },\n  css:"));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      expect(r.read('about/index.html')).toContain('<img src="https://cdn.example.net/a.jpg" alt="A photo">');
      // and the CSP lets it load: no warning that the policy blocks it.
      expect(r.read('_headers')).toContain("img-src 'self' data: https://cdn.example.net;");
      expect(r.warnings.filter((w) => /img-src/.test(w.text))).toEqual([]);
      // A listed host is a host name alone: a URL there is refused at its line.
      site.edit('sitegen.config.ts', (t) => t.replace("remote: ['cdn.example.net']", "remote: ['https://cdn.example.net']"));
      const bad = await site.build();
      expect(bad.errors.map((e) => [e.location?.file, e.text])).toEqual([['sitegen.config.ts', expect.stringContaining('Expected a host name, such as images.example.com (no scheme, path or port)')]]);
      // An http: address of a listed host would be blocked by the CSP: refused at the image.
      site.edit('sitegen.config.ts', (t) => t.replace("remote: ['https://cdn.example.net']", "remote: ['cdn.example.net']"));
      site.edit('content/pages/about.md', (t) => t.replace('https://cdn.example.net/a.jpg', 'http://cdn.example.net/a.jpg'));
      const http = await site.build();
      expect(http.errors.map((e) => [e.id, e.text])).toEqual([['ImageError', expect.stringContaining('The image http://cdn.example.net/a.jpg cannot load: it is not an https:// address')]]);
    } finally { site.remove(); }
  });
});

describe('<Image> in templates', () => {
  const template = (body: string) => (t: string) => t
    .replace("import type { LayoutProps } from 'sitegen-islands';", "import { Image, type LayoutProps } from 'sitegen-islands';")
    .replace('return (<><h1>{title}</h1><p>{tags.join', `return (<>${body}<h1>{title}</h1><p>{tags.join`);

  it('writes the width and height a template gives a remote image, takes a spread of image() for a local one, and refuses a size that is not the file\'s or an http: address', async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': small });
    site.edit('sitegen.config.ts', (t) => t.replace('  css:', "  images: { remote: ['cdn.example.net'] },\n  css:"));
    site.edit('templates/pages.tsx', (t) => template('<Image src="https://cdn.example.net/a.jpg" alt="Far" width={640} height={480} /><Image {...image(\'/img/team.jpg\')} alt="Team" />')(t)
      .replace('import { Image, type LayoutProps }', 'import { Image, image, type LayoutProps }'));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('items/alpha/index.html');
      expect(html).toMatch(/<img src="https:\/\/cdn\.example\.net\/a\.jpg" alt="Far" width="640" height="480" loading="lazy" decoding="async"\/?>/);
      expect(html).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/team-800\.jpg"[^>]* width="800" height="500"/);
      site.edit('templates/pages.tsx', (t) => t.replace("{...image('/img/team.jpg')}", 'src="/img/team.jpg" width={400}'));
      expect((await site.build()).errors[0].text).toContain('<Image src="/img/team.jpg">: width={400}, but the image is 800×500: <Image> writes a local image\'s width and height from its file');
      site.edit('templates/pages.tsx', (t) => t.replace('src="/img/team.jpg" width={400}', 'src="/img/team.jpg"').replace('https://cdn.example.net/a.jpg', 'http://cdn.example.net/a.jpg'));
      expect((await site.build()).errors[0].text).toContain('<Image src="http://cdn.example.net/a.jpg">: the image cannot load: it is not an https:// address');
    } finally { site.remove(); }
  });

  it('renders the same <picture>; the priority image alone is eager, high priority and preloaded; SVG and GIF pass through', async () => {
    const gif = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 9, g: 9, b: 9 } } }).gif().toBuffer();
    const site = await copyOf('basic', { 'static/img/hero.jpg': big, 'static/img/team.jpg': small, 'static/img/spinner.gif': gif });
    site.edit('templates/pages.tsx', template('<Image src="/img/hero.jpg" alt="The hero" priority /><Image src="/img/team.jpg" alt="" sizes="50vw" widths={[400]} /><Image src="/favicon.svg" alt="Logo" /><Image src="/img/spinner.gif" alt="Loading" />'));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('items/alpha/index.html');
      const [hero, team] = html.match(/<picture>.*?<\/picture>/gs)!;
      expect(hero).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/hero-1280\.jpg" alt="The hero" width="1280" height="800" decoding="auto" fetchPriority="high"\/?>/i);
      expect(hero).not.toContain('loading=');
      // widths={[400]}: 400 px only, shown at 400 px.
      expect(team).toMatch(/<source type="image\/avif" srcset="\/assets\/img\/[0-9a-f]{22}\/team-400\.avif 400w" sizes="50vw"/i);
      expect(team).toMatch(/alt="" width="400" height="250" loading="lazy" decoding="async"/);
      const preloads = html.match(/<link rel="preload" as="image"[^>]*>/g) ?? [];
      expect(preloads).toHaveLength(1);
      expect(preloads[0]).toMatch(/hero-640\.avif/);
      // In the head, where the browser finds it first (React DOM hoists it to the start of the body's markup).
      expect(html.indexOf(preloads[0]!)).toBeLessThan(html.indexOf('</head>'));
      expect(html).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/favicon\.svg" alt="Logo" width="\d+" height="\d+" loading="lazy" decoding="async"\/?>/);
      const spinner = html.match(/<img src="(\/assets\/img\/[0-9a-f]{22}\/spinner\.gif)" alt="Loading" width="48" height="32" loading="lazy" decoding="async"\/?>/);
      expect(spinner).not.toBeNull();
      expect(fs.readFileSync(path.join(r.outDir, spinner![1]))).toEqual(gif); // as it is, byte for byte
      for (const url of html.match(/\/assets\/img\/[^" ,]+/g)!) expect(fs.existsSync(path.join(r.outDir, url)), url).toBe(true);
    } finally { site.remove(); }
  });

  it('loading="eager" loads an image with the page (a header logo) without priority\'s fetch priority', async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': small });
    site.edit('templates/pages.tsx', template('<Image src="/img/team.jpg" alt="Logo" sizes="80px" widths={[160]} loading="eager" /><Image src="/favicon.svg" alt="Mark" loading="eager" />'));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('items/alpha/index.html');
      const img = html.match(/<img src="[^"]*team-160\.jpg"[^>]*>/)![0];
      expect(img).not.toMatch(/loading=|fetchPriority/i);
      expect(img).toContain('decoding="async"');
      expect(html.match(/<img src="[^"]*favicon\.svg"[^>]*>/)![0]).not.toMatch(/loading=/);
    } finally { site.remove(); }
  });

  it('a priority SVG is preloaded once (React DOM preloads an eager <img> on its own; no second link)', async () => {
    const site = await copyOf('basic', {});
    site.edit('templates/pages.tsx', template('<Image src="/favicon.svg" alt="Logo" priority />'));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('items/alpha/index.html');
      expect(html).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/favicon\.svg" alt="Logo" width="\d+" height="\d+" decoding="auto" fetchPriority="high"\/?>/);
      const preloads = html.match(/<link rel="preload" as="image"[^>]*>/g) ?? [];
      expect(preloads).toHaveLength(1);
      expect(preloads[0]).toMatch(/href="\/assets\/img\/[0-9a-f]{22}\/favicon\.svg"/);
      expect(preloads[0]).toMatch(/fetchPriority="high"/i);
      expect(html.indexOf(preloads[0]!)).toBeLessThan(html.indexOf('</head>'));
    } finally { site.remove(); }
  });

  it('a missing alt or a missing file is a render error naming the image', async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': small });
    site.edit('templates/pages.tsx', template('{/* @ts-expect-error alt is required */}<Image src="/img/team.jpg" />'));
    try {
      const r = await site.build();
      expect(r.errors[0].id).toBe('RenderError');
      expect(r.errors[0].text).toContain('<Image src="/img/team.jpg">: alt is required');
      site.edit('templates/pages.tsx', (t) => t.replace('{/* @ts-expect-error alt is required */}<Image src="/img/team.jpg" />', '<Image src="/img/nowhere.jpg" alt="x" />'));
      const missing = await site.build();
      expect(missing.errors[0].text).toContain('<Image src="/img/nowhere.jpg">: there is no such image in static/');
    } finally { site.remove(); }
  });

  it("a path from the page's content file that names no image: a note says where the file writes it", async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': small, 'content/items/alpha.yaml': 'title: Alpha\ntags: [a, b]\nprice: 3\ncover: /img/taem.jpg\n' });
    site.edit('sitegen.config.ts', (t) => t.replace('price: z.number() });', 'price: z.number(), cover: z.string().optional() });'));
    site.edit('templates/pages.tsx', (t) => template('{cover ? <Image src={cover} alt="" /> : null}')(t)
      .replace('export function Item({ title, tags, price }: { title: string; tags: string[]; price: number })', 'export function Item({ title, tags, price, cover }: { title: string; tags: string[]; price: number; cover?: string })'));
    try {
      const r = await site.build();
      expect(r.errors.map((e) => [e.id, e.location?.file])).toEqual([['RenderError', 'templates/pages.tsx']]);
      expect(r.errors[0].text).toContain('<Image src="/img/taem.jpg">: there is no such image in static/');
      expect(r.errors[0].notes).toContainEqual({ text: '"/img/taem.jpg" is written in the page\'s content file', location: expect.objectContaining({ file: 'content/items/alpha.yaml', line: 4, column: 8 }) });
    } finally { site.remove(); }
  });
});

describe('Open Graph images', () => {
  it("a static photo is published at most 1200 px wide in its own format, with its size; an SVG as it is", async () => {
    const site = await copyOf('basic', { 'static/img/card.jpg': await photo(2400, 1260, 5), 'static/img/small.png': await sharp({ create: { width: 600, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer() });
    try {
      site.edit('sitegen.config.ts', (t) => t.replace("favicon: '/favicon.svg' },", "favicon: '/favicon.svg', ogImage: '/img/card.jpg' },"));
      let r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('index.html');
      const url = html.match(/<meta property="og:image" content="https:\/\/fixture\.example(\/assets\/img\/[0-9a-f]{22}\/card-1200\.jpg)"\/>/)?.[1];
      expect(url).toBeDefined();
      expect(html).toContain('<meta property="og:image:width" content="1200"/><meta property="og:image:height" content="630"/><meta name="twitter:card" content="summary_large_image"/>');
      // The 404 page is kept out of search: no og:url naming /404.
      expect(r.read('404.html')).not.toContain('og:url');
      const meta = await sharp(fs.readFileSync(path.join(r.outDir, url!))).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 630]);
      // Smaller than 1200 px: its own width, its own format (a PNG keeps its transparency).
      site.edit('sitegen.config.ts', (t) => t.replace("ogImage: '/img/card.jpg'", "ogImage: '/img/small.png'"));
      r = await site.build();
      expect(r.errors).toEqual([]);
      const small = r.read('index.html').match(/<meta property="og:image" content="https:\/\/fixture\.example(\/assets\/img\/[0-9a-f]{22}\/small-600\.png)"\/><meta property="og:image:width" content="600"\/><meta property="og:image:height" content="300"\/>/)?.[1];
      expect(small).toBeDefined();
      expect((await sharp(fs.readFileSync(path.join(r.outDir, small!))).metadata()).hasAlpha).toBe(true);
      // An SVG (no preview reads one) is left as it is, without a size.
      site.edit('sitegen.config.ts', (t) => t.replace("ogImage: '/img/small.png'", "ogImage: '/favicon.svg'"));
      r = await site.build();
      expect(r.read('index.html')).toContain('<meta property="og:image" content="https://fixture.example/favicon.svg"/><meta name="twitter:card" content="summary"/>');
    } finally { site.remove(); }
  });
});

describe('sitegen dev', () => {
  it('makes a variant when the browser first asks for it, from the same model as the build', async () => {
    // A photo of its own: the store keeps what the builds above made of `small`.
    const site = await copyOf('basic', { 'content/pages/photo.jpg': await photo(800, 500, 8), 'content/pages/about.md': post('![A gradient at dusk](./photo.jpg)') });
    const dev = await site.dev();
    try {
      expect(dev.code).toBe(0);
      const html = await (await fetch(`${dev.url}/about/`)).text();
      const url = picture(html).match(/\/assets\/img\/[0-9a-f]{22}\/photo-640\.avif/)![0];
      const stored = path.join(variantStore(), url.slice('/assets/img/'.length));
      expect(fs.existsSync(stored)).toBe(false);
      const res = await fetch(dev.url + url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/avif');
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(640);
      // Kept in the install's store, as a build keeps it.
      expect(fs.existsSync(stored)).toBe(true);
      expect((await fetch(`${dev.url}/assets/img/0000000000000000000000/photo-640.avif`)).status).toBe(404);
    } finally { await dev.close(); site.remove(); }
  });
});

describe('sitegen check', () => {
  it('reports a corrupt image as build does, and makes no variant', async () => {
    const whole = await photo(800, 500, 9); // no other test of this file builds it
    const site = await copyOf('basic', { 'content/pages/cut.jpg': whole.subarray(0, Math.floor(whole.length / 3)), 'content/pages/about.md': post('![A cut photo](./cut.jpg)') });
    try {
      const c = await site.check();
      expect(c.errors.map((e) => [e.id, e.location?.file, e.location?.line])).toEqual([['ImageError', 'content/pages/about.md', 8]]);
      expect(c.errors[0].text).toMatch(/content\/pages\/cut\.jpg cannot be decoded: it is corrupt or truncated/);
      site.write('content/pages/cut.jpg', whole);
      expect((await site.check()).errors).toEqual([]);
      // Check made none of its variants: the build after it encodes every one.
      expect((await site.build()).result.images).toEqual({ files: 5, processed: 5, cached: 0 });
    } finally { site.remove(); }
  });
});

describe('links out of the site', () => {
  it('an image reached through a linked folder outside the site is refused, located', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.jpg'), small);
    const site = await copyOf('basic', { 'content/pages/about.md': post('![A secret](./shared/secret.jpg)') });
    fs.symlinkSync(outside, path.join(site.root, 'content/pages/shared'), 'dir');
    try {
      const r = await site.build();
      // The folder walk refuses the link too (ContentReadError); the image is refused where it is used.
      expect(r.errors.filter((e) => e.id === 'ImageError').map((e) => [e.location?.line, e.text])).toEqual([[8, 'The image ./shared/secret.jpg is a link to a file outside the site']]);
    } finally { site.remove(); fs.rmSync(outside, { recursive: true, force: true }); }
  });
});
