// Optimized images in Chromium (issue #25): a built page with a priority <Image> at the top and a Markdown
// image far below it, served by `sitegen preview`. The browser takes an AVIF candidate of the <picture>, the
// image below the fold is not fetched until it is scrolled near, the priority one is fetched at once with
// high priority, and nothing moves when the images arrive (width/height reserve their space).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { startServer } from '../helpers/cli.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';
import { copyOf, type TestSite } from '../helpers/site.ts';
import { addCoverField } from '../helpers/coverField.ts';

let site: TestSite;
let server: Awaited<ReturnType<typeof startServer>>;
let browser: Browser;

async function photo(width: number, height: number, colour: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer();
}

beforeAll(async () => {
  const filler = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} of the text above the photo, long enough to push it well below the fold.`).join('\n\n');
  site = await copyOf('basic', {
    'static/img/hero.jpg': await photo(1600, 900, { r: 30, g: 90, b: 160 }),
    'content/pages/photo.jpg': await photo(1200, 800, { r: 200, g: 120, b: 40 }),
    'content/pages/cover.jpg': await photo(1000, 500, { r: 40, g: 160, b: 90 }),
    'content/pages/about.md': `---\ntitle: About\ncover: ./cover.jpg\n---\n# About\n\n${filler}\n\n![An orange field](./photo.jpg)\n\nThe end.\n`,
    'templates/site.css': ':root { --fg: #111; }\nbody { margin: 0; font-family: system-ui, sans-serif; }\nimg { max-width: 100%; height: auto; }\n',
    // An island that shows a static image and renders again on a click.
    'templates/islands/Gallery.tsx': `import { useState } from 'react';\nimport { Image } from 'sitegen-islands';\nexport default function Gallery() {\n  const [wide, setWide] = useState(false);\n  return (<figure><Image src="/img/hero.jpg" alt="The gallery's sky" sizes={wide ? '100vw' : '50vw'} /><figcaption><button type="button" onClick={() => setWide(!wide)}>{wide ? 'Narrower' : 'Wider'}</button></figcaption></figure>);\n}\n`,
    // An island given the page's cover (an imageFile() field's image) as a prop.
    'templates/islands/Cover.tsx': `import { useState } from 'react';\nimport { Image, type ContentImage } from 'sitegen-islands';\nexport default function Cover({ cover }: { cover: ContentImage }) {\n  const [wide, setWide] = useState(false);\n  return (<figure><Image src={cover} alt="The post's cover" sizes={wide ? '100vw' : '50vw'} /><figcaption><button type="button" onClick={() => setWide(!wide)}>{wide ? 'Narrower' : 'Wider'}</button></figcaption></figure>);\n}\n`,
  });
  addCoverField(site, { optional: true });
  site.edit('templates/pages.tsx', (t) => t
    .replace("import type { LayoutProps } from 'sitegen-islands';", "import { Image, type ContentImage, type LayoutProps } from 'sitegen-islands';")
    .replace("import Counter from './islands/Counter.tsx';", "import Counter from './islands/Counter.tsx';\nimport Gallery from './islands/Gallery.tsx';\nimport Cover from './islands/Cover.tsx';")
    .replace('export function Doc({ title, html }: { title: string; html: string }): ReactNode {', 'export function Doc({ title, html, cover }: { title: string; html: string; cover?: ContentImage }): ReactNode {')
    .replace('return (<><h1>{title}</h1><div dangerouslySetInnerHTML', 'return (<><Image src="/img/hero.jpg" alt="A blue sky" priority /><h1>{title}</h1><Gallery hydrate="visible" />{cover && <Cover cover={cover} hydrate="visible" />}<div dangerouslySetInnerHTML'));
  const r = await site.build();
  if (r.code !== 0) throw new Error(r.stderr);
  server = await startServer(['preview', '--root', site.root, '--port', '0', '--no-backend']);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  site?.remove();
});

async function open(): Promise<{ page: Page; requested: string[]; problems: ReturnType<typeof watchProblems> }> {
  const page = await (await browser.newContext({ viewport: { width: 1000, height: 700 } })).newPage();
  const problems = watchProblems(page);
  const requested: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/assets/img/')) requested.push(new URL(r.url()).pathname); });
  // Layout shifts from the first paint on, summed as CLS counts them.
  await page.addInitScript(() => {
    (window as any).__shift = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries() as any[]) if (!e.hadRecentInput) (window as any).__shift += e.value; }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(new URL('/about/', server.url).href, { waitUntil: 'load' });
  return { page, requested, problems };
}

describe('optimized images in the browser', () => {
  it('takes an AVIF candidate, fetches the priority image at once and the one below the fold only near view, and nothing moves', async () => {
    const { page, requested, problems } = await open();
    const hero = page.locator('img[alt="A blue sky"]');
    const below = page.locator('img[alt="An orange field"]');
    await expect.poll(() => hero.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
    expect(await hero.evaluate((i: HTMLImageElement) => i.currentSrc)).toMatch(/\/assets\/img\/[0-9a-f]{22}\/hero-\d+\.avif$/);
    expect(await hero.getAttribute('fetchpriority')).toBe('high');
    expect(await hero.getAttribute('loading')).toBeNull();
    // The image far below is lazy: nothing of it was fetched yet, while its box is already its final size.
    expect(await below.getAttribute('loading')).toBe('lazy');
    expect(requested.filter((u) => u.includes('/photo-'))).toEqual([]);
    const boxBefore = await below.boundingBox();
    expect(boxBefore!.width).toBeGreaterThan(0);
    expect(boxBefore!.height / boxBefore!.width).toBeCloseTo(800 / 1200, 2);
    await below.scrollIntoViewIfNeeded();
    await expect.poll(() => below.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
    expect(await below.evaluate((i: HTMLImageElement) => i.currentSrc)).toMatch(/\/assets\/img\/[0-9a-f]{22}\/photo-\d+\.avif$/);
    expect(requested.filter((u) => u.includes('/photo-')).every((u) => u.endsWith('.avif'))).toBe(true);
    const boxAfter = await below.boundingBox();
    expect(boxAfter!.height).toBeCloseTo(boxBefore!.height, 0);
    expect(await page.evaluate(() => (window as any).__shift)).toBe(0);
    expect(problems).toEqual({ console: [], errors: [] });
  });

  it("keeps an island's <Image> when it hydrates and renders again in the browser", async () => {
    const { page, problems } = await open();
    const island = page.locator('sitegen-island[data-island="Gallery"]');
    await expect.poll(() => island.getAttribute('data-hydrated')).toBe('');
    const img = island.locator('img[alt="The gallery\'s sky"]');
    const sources = () => island.locator('picture source').evaluateAll((s) => s.map((e) => `${e.getAttribute('type')} ${e.getAttribute('sizes')}`));
    expect(await sources()).toEqual(['image/avif 50vw', 'image/webp 50vw']);
    await island.getByRole('button', { name: 'Wider' }).click();
    // Rendered again in the browser: the same <picture> of the pipeline's variants, with the new sizes.
    await expect.poll(sources).toEqual(['image/avif 100vw', 'image/webp 100vw']);
    expect(await island.locator('picture source').first().getAttribute('srcset')).toMatch(/^\/assets\/img\/[0-9a-f]{22}\/hero-\d+\.avif \d+w/);
    expect(await img.getAttribute('src')).toMatch(/^\/assets\/img\/[0-9a-f]{22}\/hero-\d+\.jpg$/);
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
    expect(problems).toEqual({ console: [], errors: [] });
  });

  it("renders an island's <Image> of an imageFile() image again in the browser, from the facts in its props", async () => {
    const { page, problems } = await open();
    const island = page.locator('sitegen-island[data-island="Cover"]');
    await island.scrollIntoViewIfNeeded(); // (hydrate="visible", below the first screen)
    await expect.poll(() => island.getAttribute('data-hydrated')).toBe('');
    const img = island.locator('img[alt="The post\'s cover"]');
    const sources = () => island.locator('picture source').evaluateAll((s) => s.map((e) => `${e.getAttribute('type')} ${e.getAttribute('sizes')}`));
    expect(await sources()).toEqual(['image/avif 50vw', 'image/webp 50vw']);
    await island.getByRole('button', { name: 'Wider' }).click();
    await expect.poll(sources).toEqual(['image/avif 100vw', 'image/webp 100vw']);
    expect(await island.locator('picture source').first().getAttribute('srcset')).toMatch(/^\/assets\/img\/[0-9a-f]{22}\/cover-640\.avif 640w, \/assets\/img\/[0-9a-f]{22}\/cover-960\.avif 960w, \/assets\/img\/[0-9a-f]{22}\/cover-1000\.avif 1000w$/);
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
    expect(await img.evaluate((i: HTMLImageElement) => i.currentSrc)).toMatch(/\/cover-\d+\.avif$/);
    expect(problems).toEqual({ console: [], errors: [] });
  });
});
