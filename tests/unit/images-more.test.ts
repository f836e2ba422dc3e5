// More of the image pipeline as a user meets it (issue #25): an <Image> that cannot be shown is located at
// the template line that wrote it; a Markdown image may ask for its own widths; Markdown images start
// encoding while content is still loading, with the same bytes as after it; and in dev, editing an image
// next to a post refreshes the post.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';
import { build } from '../../src/pipeline/build.ts';
import { currentImageStore } from '../../src/images/store.ts';
import { encoderOptions } from '../../src/images/variants.ts';
import { DEFAULT_IMAGE_SETTINGS } from '../../src/images/model.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { hostOf } from '../helpers/devHost.ts';
import { photo, post } from '../helpers/photo.ts';


let small: Buffer;
beforeAll(async () => { small = await photo(800, 500, 2); });

// The Item template, with an <Image> on a line of its own (line 13, column 5 of templates/pages.tsx).
const withImage = (image: string) => (t: string) => t
  .replace("import type { LayoutProps } from 'sitegen-islands';", "import { Image, type LayoutProps } from 'sitegen-islands';")
  .replace('  return (<><h1>{title}</h1><p>{tags.join', `  return (<>\n    ${image}\n    <h1>{title}</h1><p>{tags.join`);

describe('<Image> errors are located at the template line that wrote it', () => {

  const cases: [string, string, RegExp][] = [
    ['a missing file', '<Image src="/img/nowhere.jpg" alt="Nowhere" />', /<Image src="\/img\/nowhere\.jpg">: there is no such image in static\/ \(PNG, JPEG, WebP, AVIF, GIF or SVG\)( \(and|$)/],
    ['a path a typo away', '<Image src="/img/taem.jpg" alt="Team" />', /<Image src="\/img\/taem\.jpg">: there is no such image in static\/ \(PNG, JPEG, WebP, AVIF, GIF or SVG\)\. Did you mean \/img\/team\.jpg\?( \(and|$)/],
    ['a format the pipeline does not read', '<Image src="/img/scan.tiff" alt="A scan" />', /<Image src="\/img\/scan\.tiff">: a TIFF file is not an image the pipeline reads \(PNG, JPEG, WebP, AVIF, GIF or SVG\): convert it, for example to JPEG or WebP( \(and|$)/],
    ['a missing alt', '{/* @ts-expect-error alt is required */}<Image src="/img/team.jpg" />', /<Image src="\/img\/team\.jpg">: alt is required/],
    ['widths that are not whole pixels', '<Image src="/img/team.jpg" alt="Team" widths={[-5, 1.5]} />', /<Image src="\/img\/team\.jpg">: widths=\{\[-5,1\.5\]\}: write whole numbers of pixels from 1 to 16384, e\.g\. widths=\{\[480, 960\]\}/],
    ['a path relative to a content file', '<Image src="./cover.jpg" alt="Cover" />', /<Image src="\.\/cover\.jpg">: there is no such image in static\/ .*A template reads images from static\/ by their path there \("\/img\/cover\.jpg"\), not from a content file's folder/],
    ['an empty sizes', '<Image src="/img/team.jpg" alt="Team" sizes="" />', /<Image src="\/img\/team\.jpg">: sizes is empty: write the width it is shown at/],
    ['a prop it does not take', '{/* @ts-expect-error no such prop */}<Image src="/img/team.jpg" alt="Team" widhts={[300]} />', /<Image src="\/img\/team\.jpg">: it has a prop "widhts" <Image> does not take \(did you mean widths\?\): it takes src, alt, sizes, priority, loading, widths, aspect, quality, width, height, className, id/],
    ['a remote image whose host is not listed', '<Image src="https://cdn.example.net/a.jpg" alt="Far away" />', /the image is remote; only local images are processed/],
  ];
  for (const [name, image, text] of cases) {
    it(`${name}: build and check name templates/pages.tsx with its line and column`, async () => {
      const site = await copyOf('basic', { 'static/img/team.jpg': small });
      site.edit('templates/pages.tsx', withImage(image));
      const lines = site.file('templates/pages.tsx').split('\n');
      const line = lines.findIndex((l) => l.includes('<Image')) + 1;
      const column = lines[line - 1].indexOf('<Image') + 1;
      expect(line).toBe(13);
      try {
        for (const command of ['build', 'check']) {
          const r = await site.run(command);
          expect(r.code).toBe(1);
          // Every item page fails the same way, at the same place.
          const e = r.errors[0];
          expect(e.id).toBe('RenderError');
          expect(e.text).toMatch(text);
          expect(e.location).toMatchObject({ file: 'templates/pages.tsx', line, column, lineText: lines[line - 1] });
          expect(r.stderr).toContain(`templates/pages.tsx:${line}:${column}`);
        }
      } finally { site.remove(); }
    });
  }

  it('sitegen dev reports it at the same place', async () => {
    const site = await copyOf('basic');
    site.edit('templates/pages.tsx', withImage('<Image src="/img/nowhere.jpg" alt="Nowhere" />'));
    const dev = await createDevSite({ root: site.root });
    try {
      const r = await dev.start();
      expect(r.errors[0].text).toContain('<Image src="/img/nowhere.jpg">: there is no such image in static/');
      expect(r.errors[0].location).toMatchObject({ file: 'templates/pages.tsx', line: 13, column: 5 });
    } finally { await dev.close(); site.remove(); }
  });

  it('an <Image> written inside a component the template calls is located in that component', async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': small });
    site.write('templates/Figure.tsx', "import { Image } from 'sitegen-islands';\nexport function Figure({ src }: { src: string }) {\n  return <figure><Image src={src} alt=\"A figure\" /></figure>;\n}\n");
    site.edit('templates/pages.tsx', (t) => t
      .replace("import type { LayoutProps } from 'sitegen-islands';", "import type { LayoutProps } from 'sitegen-islands';\nimport { Figure } from './Figure.tsx';")
      .replace('return (<><h1>{title}</h1><p>{tags.join', 'return (<><Figure src="/img/none.jpg" /><h1>{title}</h1><p>{tags.join'));
    try {
      const r = await site.build();
      expect(r.errors[0].text).toContain('<Image src="/img/none.jpg">: there is no such image');
      expect(r.errors[0].location).toMatchObject({ file: 'templates/Figure.tsx', line: 3, column: 18 });
    } finally { site.remove(); }
  });
});

describe('a big image of static/ that pages show only through its versions', () => {
  it('is a warning naming the file and its size, once; not when a page links the original itself', async () => {
    // (3.2 MB: an uncompressed PNG of noise)
    const big = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 80 } } }).png({ compressionLevel: 0 }).toBuffer();
    const site = await copyOf('basic', { 'static/img/big.png': big });
    try {
      site.edit('templates/pages.tsx', withImage('<Image src="/img/big.png" alt="Noise" widths={[320]} />'));
      const r = await site.build();
      expect(r.errors).toEqual([]);
      expect(r.warnings.filter((w) => w.id === 'BigOriginal').map((w) => [w.location?.file, w.text.replace(/\(the largest \d+ KB\)/, '(the largest …)')])).toEqual([
        ['static/img/big.png', 'This image (3.1 MB) is published as it is, though pages show it only through its versions (the largest …): everything in static/ is published'],
      ]);
      // A page that links the original (a "full size" link) means it to be published.
      site.edit('templates/pages.tsx', (t) => t.replace('    <h1>{title}</h1>', '    <h1>{title}</h1><a href="/img/big.png">Full size</a>'));
      expect((await site.build()).warnings.filter((w) => w.id === 'BigOriginal')).toEqual([]);
    } finally { site.remove(); }
  });
});

describe('a Markdown image that is not there', () => {
  it('names the file of static/ it likely meant (a path without "/", a letter of another case)', async () => {
    const site = await copyOf('basic', { 'static/img/me.jpg': small });
    try {
      const cases: [string, string][] = [
        ['img/me.jpg', 'The image img/me.jpg does not exist (looked for content/pages/img/me.jpg). Did you mean /img/me.jpg? A path without "/" is read from the content file\'s folder; one from the root, from static/'],
        // (not a path that climbs out of static/, which the build refuses)
        ['img/../../static/img/me.jpg', 'The image img/../../static/img/me.jpg does not exist (looked for content/static/img/me.jpg)'],
        ['/img/Me.jpg', 'The image /img/Me.jpg does not exist (looked for static/img/Me.jpg). Did you mean /img/me.jpg?'],
        ['/img/nobody.jpg', 'The image /img/nobody.jpg does not exist (looked for static/img/nobody.jpg)'],
      ];
      for (const [src, text] of cases) {
        site.write('content/pages/about.md', `---\ntitle: About\n---\n\n![Me](${src})\n`);
        const r = await site.run('check');
        expect(r.errors.map((e) => [e.location?.file, e.location?.line, e.text]), src).toEqual([['content/pages/about.md', 5, text]]);
      }
    } finally { site.remove(); }
  });
});

describe('Markdown images: widths, sizes and priority of their own', () => {
  it('{widths="…" sizes="…"} after an image: its srcsets at those widths, made, and the list never shows', async () => {
    const site = await copyOf('basic', {
      'content/pages/photo.jpg': small,
      'content/pages/about.md': post('![A gradient](./photo.jpg){widths="320 480" sizes="50vw"} and a word after it.\n\n![The hero](./photo.jpg){priority}'),
    });
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('about/index.html');
      const [own, hero] = html.match(/<picture>.*?<\/picture>/gs)!;
      expect(own).toMatch(/<source type="image\/avif" srcset="\/assets\/img\/[0-9a-f]{22}\/photo-320\.avif 320w, \/assets\/img\/[0-9a-f]{22}\/photo-480\.avif 480w" sizes="50vw">/);
      expect(own).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/photo-480\.jpg" alt="A gradient" width="480" height="300" loading="lazy" decoding="async">/);
      expect(html).toContain('</picture> and a word after it.');
      expect(html).not.toContain('{');
      // {priority}: loaded at once, with high priority; the site's widths.
      expect(hero).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/photo-800\.jpg" alt="The hero" width="800" height="500" decoding="auto" fetchpriority="high">/);
      for (const url of html.match(/\/assets\/img\/[^" ,]+/g)!) {
        const file = path.join(r.outDir, url);
        expect(fs.existsSync(file), url).toBe(true);
        expect((await sharp(file).metadata()).width).toBe(Number(url.match(/-(\d+)\./)![1]));
      }
    } finally { site.remove(); }
  });

  // Each with the column it is said at: the attribute at fault, or the image when the list cannot be read.
  const bad: [string, RegExp, number][] = [
    ['{widths="wide"}', /The image \.\/photo\.jpg has widths="wide": write whole numbers of pixels from 1 to 16384/, 28],
    ['{width=300}', /has an attribute "width" sitegen does not know \(did you mean widths\?\): an image takes widths="…", sizes="…" and priority/, 28],
    ['{sizes="50vw" prio}', /has an attribute "prio" sitegen does not know \(did you mean priority\?\)/, 41],
    ['{sizes="100vw priority x" priority=1}', /has priority="1": priority is a flag/, 53],
    ['{loading=lazy}', /has an attribute "loading" sitegen does not know: an image takes/, 28],
    ['{widths="320}', /The attributes after the image \.\/photo\.jpg, \{widths="320\}: the value of "widths" has no closing quote/, 1],
  ];
  // One copy of the site for the cases below (each changes only about.md, and puts it back).
  let site: TestSite;
  let about: string;
  beforeAll(async () => {
    site = await copyOf('basic', { 'content/pages/photo.jpg': small });
    about = site.file('content/pages/about.md');
  });
  afterAll(() => site?.remove());
  for (const [attrs, text, column] of bad) {
    it(`${attrs} is an error located at the attribute at fault`, async () => {
      const line = `![A gradient](./photo.jpg)${attrs}`;
      site.write('content/pages/about.md', post(line));
      try {
        const r = await site.build();
        expect(r.errors.map((e) => [e.id, e.location?.file, e.location?.line, e.location?.column, e.location?.lineText])).toEqual([['ImageError', 'content/pages/about.md', 8, column, line]]);
        expect(r.errors[0].text).toMatch(text);
      } finally { site.write('content/pages/about.md', about); }
    });
  }
});

describe('Markdown images start encoding while content loads', () => {
  it('a build has asked for every variant of a post by the end of the content stage, and makes the same bytes', async () => {
    const big = await photo(1000, 600, 4);
    // Photos no other test of this file built: the store would have their variants made.
    const small = await photo(800, 500, 7);
    const site = await copyOf('basic', {
      'content/pages/photo.jpg': small, 'content/pages/wide.jpg': big,
      'content/pages/about.md': post('![A gradient](./photo.jpg)\n\n![A wide one](./wide.jpg){widths="500"}'),
    });
    try {
      let atContent: number | undefined;
      const r = await build({ root: site.root, onStage: (name) => { if (name === 'content') atContent = currentImageStore(site.root)?.stats.requested; } });
      expect(r.errors).toEqual([]);
      // photo.jpg: 640 and 800 in AVIF and WebP, and the JPEG fallback; wide.jpg at 500 px: AVIF, WebP, JPEG.
      expect(atContent).toBe(8);
      expect(r.images).toEqual({ files: 8, processed: 8, cached: 0 });
      // Each file is what sharp makes of its source with the engine's encoder options.
      const html = fs.readFileSync(path.join(site.root, 'dist/about/index.html'), 'utf8');
      const urls = [...new Set(html.match(/\/assets\/img\/[^" ,]+/g)!)];
      expect(urls).toHaveLength(8);
      const o = encoderOptions(DEFAULT_IMAGE_SETTINGS);
      sharp.concurrency(1); // as the engine's encoder runs (AVIF's bytes depend on the thread count)
      for (const url of urls) {
        const [, name, width, ext] = url.match(/\/(photo|wide)-(\d+)\.(avif|webp|jpg)$/)!;
        let img = sharp(name === 'photo' ? small : big, { failOn: 'truncated', animated: false }).rotate();
        if (Number(width) < (name === 'photo' ? 800 : 1000)) img = img.resize({ width: Number(width) });
        const expected = await (ext === 'avif' ? img.avif(o.avif) : ext === 'webp' ? img.webp(o.webp) : img.jpeg(o.jpeg)).toBuffer();
        expect(fs.readFileSync(path.join(site.root, 'dist', url)).equals(expected), url).toBe(true);
      }
    } finally { site.remove(); }
  });

  it('check starts none and writes none', async () => {
    const own = await photo(800, 500, 10); // no other test of this file builds it
    const site = await copyOf('basic', { 'content/pages/photo.jpg': own, 'content/pages/about.md': post('![A gradient](./photo.jpg)') });
    try {
      expect((await site.check()).errors).toEqual([]);
      // None of its variants is in the store: the build after it encodes every one.
      expect((await site.build()).result.images).toEqual({ files: 5, processed: 5, cached: 0 });
    } finally { site.remove(); }
  });
});

describe('sitegen dev: editing an image refreshes the posts that show it', () => {
  const variant = (html: string | null) => html?.match(/\/assets\/img\/[0-9a-f]{22}\/[\w-]+-640\.avif/)?.[0];

  it('a changed image next to a post re-renders the post with the new picture; a removed one is an error, a new one fixes it', async () => {
    const site = await copyOf('basic', {
      'content/pages/photo.jpg': small,
      'content/pages/about.md': post('![A gradient](./photo.jpg)\n\n![Later](./later.jpg)'),
    });
    const dev = await createDevSite({ root: site.root });
    const host = await hostOf(dev, site.root);
    try {
      // later.jpg does not exist yet: the page is an error, located at its image.
      const start = await dev.start();
      expect(start.errors.map((e) => [e.id, e.location?.file, e.location?.line])).toEqual([['ImageError', 'content/pages/about.md', 10]]);
      site.write('content/pages/later.jpg', small);
      const added = await dev.apply([{ file: 'content/pages/later.jpg', kind: 'add' }]);
      expect(added?.errors).toEqual([]);
      const before = variant(await host.text('/about/'));
      expect(before).toBeDefined();

      // New bytes for photo.jpg (a wider photo): the page names new variants, which the store makes from the new file.
      site.write('content/pages/photo.jpg', await photo(1000, 600, 7));
      const changed = await dev.apply([{ file: 'content/pages/photo.jpg', kind: 'change' }]);
      expect(changed?.errors).toEqual([]);
      expect(changed?.changed).toContain('/about/');
      const html = (await host.text('/about/'))!;
      const after = variant(html);
      expect(after).not.toBe(before);
      expect(html).toMatch(/photo-1000\.jpg" alt="A gradient" width="1000" height="600"/);
      const made = await currentImageStore(site.root)!.variant(after!);
      expect('path' in made).toBe(true);
      if ('path' in made) expect((await sharp(fs.readFileSync(made.file!)).metadata()).width).toBe(640);

      // Removed: the post that shows it reports it, where it is used.
      fs.rmSync(path.join(site.root, 'content/pages/photo.jpg'));
      const removed = await dev.apply([{ file: 'content/pages/photo.jpg', kind: 'unlink' }]);
      expect(removed?.errors.map((e) => [e.id, e.location?.line, e.text])).toEqual([['ImageError', 8, 'The image ./photo.jpg does not exist (looked for content/pages/photo.jpg)']]);
      // The open page still asks for its variants: not found, not a server error (the overlay says why).
      const other = after!.replace('-640.avif', '-320.avif');
      expect((await host.get(other)).status).toBe(404);
      expect((await host.get(after!)).status).toBe(200); // made while it was there: served as made
    } finally { await host.close(); await dev.close(); site.remove(); }
  });

  it('an image under static/ that a post shows refreshes the post too', async () => {
    const site = await copyOf('basic', { 'static/img/wide.jpg': small, 'content/pages/about.md': post('![A gradient](/img/wide.jpg)') });
    const dev = await createDevSite({ root: site.root });
    const host = await hostOf(dev);
    try {
      expect((await dev.start()).errors).toEqual([]);
      const before = variant(await host.text('/about/'));
      site.write('static/img/wide.jpg', await photo(800, 500, 9));
      const r = await dev.apply([{ file: 'static/img/wide.jpg', kind: 'change' }]);
      expect(r?.changed).toContain('/about/');
      expect(variant(await host.text('/about/'))).not.toBe(before);
    } finally { await host.close(); await dev.close(); site.remove(); }
  });

  it('an image under static/ that a template shows with <Image> refreshes its pages too', async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': small });
    site.edit('templates/pages.tsx', (t) => t
      .replace("import type { LayoutProps } from 'sitegen-islands';", "import { Image, type LayoutProps } from 'sitegen-islands';")
      .replace('  return (<><h1>{title}</h1><p>{tags.join', '  return (<><Image src="/img/team.jpg" alt="The team" /><h1>{title}</h1><p>{tags.join'));
    const dev = await createDevSite({ root: site.root });
    const host = await hostOf(dev);
    try {
      expect((await dev.start()).errors).toEqual([]);
      const before = variant(await host.text('/items/alpha/'));
      expect(before).toBeDefined();
      site.write('static/img/team.jpg', await photo(800, 500, 11));
      const r = await dev.apply([{ file: 'static/img/team.jpg', kind: 'change' }]);
      expect(r?.errors).toEqual([]);
      expect(r?.changed).toEqual(expect.arrayContaining(['/items/alpha/', '/items/beta/']));
      const after = variant(await host.text('/items/alpha/'));
      expect(after).not.toBe(before);
      const made = await currentImageStore(site.root)!.variant(after!);
      expect('path' in made).toBe(true);
    } finally { await host.close(); await dev.close(); site.remove(); }
  });
});
