// <Image aspect quality> and image(src, { aspect, quality }): an image cut to an aspect ratio (its middle kept)
// and encoded at its own quality, as versions whose names say both, made in dist/ at the sizes the markup says;
// a value that is no ratio or quality, or one asked of an SVG, is an error located at the template. And the
// site's images.sizes: the `sizes` of every image that names none.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { copyOf } from '../helpers/scratch.ts';
import { photo } from '../helpers/photo.ts';
import { addCoverField } from '../helpers/coverField.ts';
import { parseVariantPath } from '../../src/images/model.ts';
import { post } from '../helpers/photo.ts';

let wide: Buffer;
beforeAll(async () => { wide = await photo(800, 500, 4); });

const HOME = '<h1>Fixture home</h1>';
const IMPORT = "import type { LayoutProps } from 'sitegen-islands';";
const size = async (file: string) => { const m = await sharp(fs.readFileSync(file)).metadata(); return `${m.format} ${m.width}x${m.height}`; };

describe('cropping and quality', () => {
  it('<Image aspect={1}> of a static photo: square versions at each width, the markup\'s size their own', async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': wide });
    site.edit('templates/pages.tsx', (t) => t
      .replace(IMPORT, "import { Image, type LayoutProps } from 'sitegen-islands';")
      .replace(HOME, `${HOME}<Image src="/img/team.jpg" alt="The team" aspect={1} widths={[200, 400]} />`));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const html = r.read('index.html');
      // (an 800×500 photo cut square keeps its middle 500×500: versions of 200 and 400 px, shown at 400×400)
      expect(html).toMatch(/<source type="image\/avif" srcSet="\/assets\/img\/[0-9a-f]{22}\/team-200x200\.avif 200w, \/assets\/img\/[0-9a-f]{22}\/team-400x400\.avif 400w"/);
      expect(html).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/team-400x400\.jpg" alt="The team" width="400" height="400"/);
      const made = Object.keys(r.output()).filter((f) => f.startsWith('assets/img/') && !f.endsWith('team.jpg'));
      expect(made.map((f) => f.replace(/^.*\//, '')).sort()).toEqual(['team-200x200.avif', 'team-200x200.webp', 'team-400x400.avif', 'team-400x400.jpg', 'team-400x400.webp']);
      for (const f of made) expect(await size(path.join(r.outDir, f))).toMatch(/ (200x200|400x400)$/);
    } finally { site.remove(); }
  });

  it('a portrait cut of a landscape photo is never taller than the photo (667 of 1000 px wide at 2:3 is 1000 high, not 1001)', async () => {
    const site = await copyOf('basic', { 'static/img/cam.jpg': await photo(1500, 1000, 5) });
    site.edit('templates/pages.tsx', (t) => t
      .replace(IMPORT, "import { Image, type LayoutProps } from 'sitegen-islands';")
      .replace(HOME, `${HOME}<Image src="/img/cam.jpg" alt="" aspect="2:3" />`));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      expect(r.read('index.html')).toMatch(/<img src="\/assets\/img\/[0-9a-f]{22}\/cam-667x1000\.jpg" alt="" width="667" height="1000"/);
      expect(parseVariantPath('/assets/img/0123456789abcdef012345/cam-100x0.jpg')).toBeNull(); // (0 px high: no version)
    } finally { site.remove(); }
  });

  it('image(cover, { width, aspect: "16:9", quality }): that version, its size, made at that quality (a lower one: fewer bytes)', async () => {
    const site = await copyOf('basic', { 'content/pages/cover.jpg': wide });
    addCoverField(site, {});
    site.edit('content/pages/about.md', (t) => t.replace('title: About\n', 'title: About\ncover: ./cover.jpg\n'));
    site.edit('templates/pages.tsx', (t) => t
      .replace(IMPORT, "import { image, type ContentImage, type LayoutProps } from 'sitegen-islands';")
      .replace('export function Doc({ title, html }: { title: string; html: string }): ReactNode {\n  return (<><h1>{title}</h1>',
        'export function Doc({ title, html, cover }: { title: string; html: string; cover?: ContentImage }): ReactNode {\n  const a = cover && image(cover, { width: 320, aspect: \'16:9\', quality: 90 });\n  const b = cover && image(cover, { width: 320, aspect: 16 / 9, quality: 20 });\n  return (<>{a && <img src={a.src} width={a.width} height={a.height} alt="" />}{b && <img src={b.src} width={b.width} height={b.height} alt="" />}<h1>{title}</h1>'));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const srcs = [...r.read('about/index.html').matchAll(/<img src="(\/assets\/img\/[0-9a-f]{22}\/cover-320x180\.jpg)" width="320" height="180" alt=""\/>/g)].map((m) => m[1]);
      // (two qualities: two names, each made)
      expect(srcs).toHaveLength(2);
      expect(srcs[0]).not.toBe(srcs[1]);
      expect(await size(path.join(r.outDir, srcs[0]))).toBe('jpeg 320x180');
      expect(fs.statSync(path.join(r.outDir, srcs[1])).size).toBeLessThan(fs.statSync(path.join(r.outDir, srcs[0])).size);
    } finally { site.remove(); }
  });

  const problems: [string, string, string][] = [
    ['an aspect of 0', 'aspect={0}', 'aspect={0}: write width / height as a number from 0.05 to 20 (1 for a square, 1.5 for 3:2) or as "16:9"'],
    ['an aspect that is no ratio', 'aspect="wide"', 'aspect={"wide"}: write width / height'],
    ['a quality over 100', 'quality={101}', 'quality={101}: write a whole number from 1 to 100'],
  ];
  for (const [name, prop, text] of problems) {
    it(`${name} is an error at the <Image> that says what to write`, async () => {
      const site = await copyOf('basic', { 'static/img/team.jpg': wide });
      site.edit('templates/pages.tsx', (t) => t
        .replace(IMPORT, "import { Image, type LayoutProps } from 'sitegen-islands';")
        .replace(HOME, `${HOME}<Image src="/img/team.jpg" alt="" ${prop} />`));
      try {
        const r = await site.build();
        expect(r.errors).toHaveLength(1);
        expect(r.errors[0].text).toContain(`<Image src="/img/team.jpg">: ${text}`);
        expect(r.errors[0].location?.file).toBe('templates/pages.tsx');
      } finally { site.remove(); }
    });
  }

  it('a crop or a quality asked of an SVG is an error (it is published as it is); image() names a misspelt option', async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': wide });
    site.edit('templates/pages.tsx', (t) => t
      .replace(IMPORT, "import { Image, image, type LayoutProps } from 'sitegen-islands';")
      .replace(HOME, `${HOME}<Image src="/favicon.svg" alt="" aspect="4:3" />`));
    try {
      const r = await site.build();
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0].text).toContain('<Image src="/favicon.svg">: aspect applies to photos (JPEG, PNG, WebP, AVIF): an SVG is published as it is');
      site.edit('templates/pages.tsx', (t) => t.replace('<Image src="/favicon.svg" alt="" aspect="4:3" />', '<img src={image(\'/img/team.jpg\', { aspec: 1 } as never).src} alt="" />'));
      const other = await site.build();
      expect(other.errors[0].text).toContain('image("/img/team.jpg", { aspec }): image() takes { width, aspect, quality } (did you mean aspect?)');
    } finally { site.remove(); }
  });
});

describe('images.sizes', () => {
  const COLUMN = '(min-width: 46rem) 44rem, 100vw';
  it('is the sizes of every Markdown image and <Image> that names none; one that names its own keeps it', async () => {
    const site = await copyOf('basic', { 'static/img/team.jpg': wide, 'content/pages/photo.jpg': wide, 'content/pages/about.md': post('![A photo](./photo.jpg)\n\n![The same, half](./photo.jpg){sizes="50vw"}') });
    site.edit('sitegen.config.ts', (t) => t.replace('  css:', `  images: { sizes: '${COLUMN}' },\n  css:`));
    site.edit('templates/pages.tsx', (t) => t
      .replace(IMPORT, "import { Image, type LayoutProps } from 'sitegen-islands';")
      .replace(HOME, `${HOME}<Image src="/img/team.jpg" alt="The team" />`));
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      const sizes = (html: string) => [...new Set([...html.matchAll(/<source type="image\/avif" srcset="[^"]*" sizes="([^"]*)"/gi)].map((m) => m[1]))];
      expect(sizes(r.read('about/index.html'))).toEqual([COLUMN, '50vw']);
      expect(sizes(r.read('index.html'))).toEqual([COLUMN]);
      // An empty one says what to write, at the key.
      site.edit('sitegen.config.ts', (t) => t.replace(`sizes: '${COLUMN}'`, "sizes: ' '"));
      const bad = await site.build();
      expect(bad.errors[0]).toMatchObject({ location: { file: 'sitegen.config.ts' } });
      expect(bad.errors[0].text).toContain('Write the width images are shown at');
    } finally { site.remove(); }
  });
});
