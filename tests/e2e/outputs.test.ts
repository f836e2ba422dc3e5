// Outputs and head, end to end: a blog built with `site.base: '/blog/'` (as a GitHub Pages project site is
// served) and run by `sitegen preview`, seen in Chromium — every page's assets load under the base, its
// island hydrates, the 404 page is styled at any depth, the feeds are well-formed XML/JSON with the right
// Content-Type, the per-page head (og:image, meta, JSON-LD) is there and escaped, and the blog scenario of
// issue 14 works as a reader uses it: dates and tags, a tags page, highlighted code and a footnote. The same blog
// with `cspMeta`, served without its _headers (as GitHub Pages serves it), enforces the policy its pages carry.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeOf } from '../helpers/axe.ts';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import type { PreviewServer } from '../../src/server/preview.ts';
import { copyOf, type TestSite } from '../helpers/site.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';

// A copy of the fixture, built and served in this process by the code `sitegen build` and `sitegen preview` run.
let site: TestSite;
let dist: string;
let server: PreviewServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  site = await copyOf('base-blog');
  const b = await site.build({ quiet: true });
  if (b.code !== 0) throw new Error(b.stderr + b.stdout);
  dist = b.outDir;
  server = await site.preview();
  origin = new URL(server.url).origin;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  site?.remove();
});

/** Opens a URL and records every response the page gets (documents, CSS, JS chunks, images). */
async function open(url: string): Promise<{ page: Page; status: number | undefined; responses: { url: string; status: number }[]; problems: ReturnType<typeof watchProblems> }> {
  const page = await browser.newPage();
  const problems = watchProblems(page);
  const responses: { url: string; status: number }[] = [];
  page.on('response', (r) => responses.push({ url: r.url(), status: r.status() }));
  const res = await page.goto(url, { waitUntil: 'networkidle' });
  return { page, status: res?.status(), responses, problems };
}

const assetsOf = (responses: { url: string; status: number }[]) => responses.filter((r) => new URL(r.url).pathname.includes('/assets/'));

describe('a site with base "/blog/" under sitegen preview', () => {
  it('sends / to the base, loads every asset of the home page under it and hydrates the island', async () => {
    const { page, status, responses, problems } = await open(origin + '/');
    expect(status).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/blog/');
    // CSS, the runtime, its chunks and the image the stylesheet references: all loaded, all under /blog/.
    const assets = assetsOf(responses);
    expect(assets.map((a) => new URL(a.url).pathname).some((p) => p.endsWith('.css'))).toBe(true);
    expect(assets.map((a) => new URL(a.url).pathname).some((p) => p.endsWith('.svg'))).toBe(true);
    expect(assets.map((a) => new URL(a.url).pathname).some((p) => p.endsWith('.js'))).toBe(true);
    for (const r of responses) {
      expect(new URL(r.url).pathname.startsWith('/blog/') || new URL(r.url).pathname === '/', r.url).toBe(true);
      expect(r.status, r.url).toBeLessThan(400);
    }
    // The fingerprinted logo: its hashed copy under /blog/assets/, sized by the build, cached for a year.
    const logo = page.locator('img.logo');
    expect(await logo.getAttribute('src')).toMatch(/^\/blog\/assets\/img\/site-[0-9a-f]{10}\.svg$/);
    expect([await logo.getAttribute('width'), await logo.getAttribute('height')]).toEqual(['48', '32']);
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
    const logoRes = await fetch(origin + (await logo.getAttribute('src')));
    expect(logoRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await page.getByRole('button', { name: 'count is 1' }).click();
    await expect(page.getByRole('button', { name: 'count is 2' }).isVisible()).resolves.toBe(true);
    // href() inside the island gives the same URL in the browser as on the server (no hydration mismatch).
    expect(await page.locator('sitegen-island a').textContent()).toBe('/blog/posts/first/');
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('sans-serif');
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    // Readers find the feeds from the page.
    const alternates = await page.locator('link[rel="alternate"]').evaluateAll((ls) => ls.map((l) => l.getAttribute('href')));
    expect(alternates).toEqual(['/blog/rss.xml', '/blog/atom.xml']);
    await page.close();
  });

  it('follows links between pages under the base; a post carries its own og:image, meta and escaped JSON-LD', async () => {
    const { page, problems } = await open(origin + '/blog/');
    await page.getByRole('link', { name: 'First & foremost' }).click();
    await page.waitForURL('**/blog/posts/first/');
    expect(await page.locator('h1').textContent()).toBe('First & foremost');
    expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toBe('https://user.example.io/blog/img/first.svg');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe('https://user.example.io/blog/posts/first/');
    expect(await page.locator('meta[name="author"]').getAttribute('content')).toBe('Ada </script> Lovelace');
    // The JSON-LD block holds exactly the data, and its "</script>" text did not end the element.
    const ld = await page.locator('script[type="application/ld+json"]').evaluateAll((s) => s.map((e) => JSON.parse(e.textContent ?? 'null')));
    expect(ld).toEqual([{ '@context': 'https://schema.org', '@type': 'BlogPosting', headline: 'First & foremost', about: '</script><script>alert(1)</script>' }]);
    expect(await page.locator('head script:not([type="application/ld+json"])').count()).toBe(0);
    await page.getByRole('link', { name: 'the second' }).click();
    await page.waitForURL('**/blog/posts/second/');
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('serves the styled 404 page at any depth under the base, and redirects aliases and slashless pages', async () => {
    const { page, status, responses } = await open(origin + '/blog/no/such/page/');
    expect(status).toBe(404);
    expect(await page.locator('.lost').evaluate((e) => getComputedStyle(e).color)).toBe('rgb(120, 0, 0)');
    expect(assetsOf(responses).length).toBeGreaterThan(0);
    for (const r of assetsOf(responses)) expect(r.status, r.url).toBe(200);
    await page.close();
    for (const [from, to] of [['/blog/old/first', '/blog/posts/first/'], ['/blog/old/first/', '/blog/posts/first/'], ['/blog/posts/second', '/blog/posts/second/'], ['/blog', '/blog/']]) {
      const r = await fetch(origin + from, { redirect: 'manual' });
      expect([301, 302], from).toContain(r.status);
      expect(r.headers.get('location'), from).toBe(to);
    }
    // Outside the base there is no site.
    expect((await fetch(origin + '/posts/first/', { redirect: 'manual' })).status).toBe(404);
  });

  it('serves the feeds as written — well-formed, with absolute URLs under the base and their Content-Type', async () => {
    const rss = await fetch(origin + '/blog/rss.xml');
    expect(rss.status).toBe(200);
    expect(rss.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    const rssText = await rss.text();
    expect(rssText.startsWith('<?xml')).toBe(true);
    const atom = await fetch(origin + '/blog/atom.xml');
    expect(atom.headers.get('content-type')).toBe('application/xml');
    const atomText = await atom.text();
    const page = await browser.newPage();
    await page.goto(origin + '/blog/');
    const parsed = await page.evaluate(([r, a]) => {
      const parse = (t: string) => new DOMParser().parseFromString(t, 'application/xml');
      const rd = parse(r), ad = parse(a);
      return {
        errors: [rd, ad].map((d) => d.getElementsByTagName('parsererror').length),
        rssLinks: [...rd.querySelectorAll('item > link')].map((l) => l.textContent),
        rssTitles: [...rd.querySelectorAll('item > title')].map((l) => l.textContent),
        description: rd.querySelector('item > description')?.textContent,
        atomSelf: ad.querySelector('feed > link[rel="self"]')?.getAttribute('href'),
        atomEntries: [...ad.querySelectorAll('entry > id')].map((l) => l.textContent),
      };
    }, [rssText, atomText]);
    await page.close();
    expect(parsed.errors).toEqual([0, 0]);
    expect(parsed.rssLinks).toEqual(['https://user.example.io/blog/posts/second/', 'https://user.example.io/blog/posts/first/']);
    expect(parsed.rssTitles).toEqual(['Second post', 'First & foremost']);
    expect(parsed.description).toMatch(/^<p>The second post, with a note\.<sup>/); // the post's HTML, footnote and all
    expect(parsed.atomSelf).toBe('https://user.example.io/blog/atom.xml');
    expect(parsed.atomEntries).toHaveLength(2);
    const json = await (await fetch(origin + '/blog/feed.json')).json();
    expect(json).toMatchObject({ version: 'https://jsonfeed.org/version/1.1', feed_url: 'https://user.example.io/blog/feed.json' });
    expect(json.items.map((i: { url: string }) => i.url)).toEqual(['https://user.example.io/blog/posts/second/', 'https://user.example.io/blog/posts/first/']);
  });

  it('the blog scenario: a post links its date and tags, a tag page lists its posts, the code is highlighted and the footnote goes there and back', async () => {
    const { page, status, problems } = await open(`${origin}/blog/posts/second/`);
    expect(status).toBe(200);
    await expect(page.locator('article time').getAttribute('datetime')).resolves.toBe('2026-02-10');
    // Highlighted at build time: token spans in the HTML, coloured by the site's CSS, and no script for it.
    const keyword = page.locator('pre code .token.keyword').first();
    await expect(keyword.innerText()).resolves.toBe('const');
    await expect(keyword.evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(120, 0, 160)');
    // The footnote reference scrolls to the note, and the note's back link returns to the reference.
    await page.locator('a[data-footnote-ref]').click();
    await expect(page.evaluate(() => location.hash)).resolves.toBe('#footnote-why');
    await expect(page.locator('#footnote-why').innerText()).resolves.toContain('Footnotes link back');
    await page.locator('a[data-footnote-backref]').click();
    await expect(page.evaluate(() => location.hash)).resolves.toBe('#footnote-ref-why');
    // Headings have ids a link can name.
    await expect(page.locator('h2#some-code').count()).resolves.toBe(1);
    // The tag link leads to the tag page under the base, which lists both posts tagged "news", newest first.
    await page.locator('a[rel="tag"]', { hasText: 'news' }).click();
    await page.waitForURL(`${origin}/blog/tags/news/`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Posts tagged news');
    await expect(page.locator('main li a').allInnerTexts()).resolves.toEqual(['Second post', 'First & foremost']);
    await page.getByRole('link', { name: 'All tags' }).click();
    await page.waitForURL(`${origin}/blog/tags/`);
    await expect(page.locator('ul.tags li').allInnerTexts()).resolves.toEqual(['intro (1)', 'news (2)']);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it("gives a click that comes while the island's code still loads to the island once it is live; a link works at once", async () => {
    // The runtime and what it imports at its start load; React and the island's code (imported when the island
    // starts) wait until the test lets them go.
    const html = await (await fetch(origin + '/blog/')).text();
    const runtime = new URL(/<script type="module" src="([^"]+)"/.exec(html)![1], origin).href;
    const code = await (await fetch(runtime)).text();
    const atStart = new Set([runtime, ...[...code.matchAll(/import\s*"([^"]+)"|from\s*"([^"]+)"/g)].map((m) => new URL(m[1] ?? m[2], origin).href)]);
    const holdIslandCode = async (page: Page, until: Promise<void>) => page.route('**/blog/assets/**/*.js', async (route) => {
      if (!atStart.has(route.request().url())) await until;
      await route.continue();
    });
    const page = await browser.newPage();
    const problems = watchProblems(page);
    let letGo!: () => void;
    await holdIslandCode(page, new Promise<void>((resolve) => { letGo = resolve; }));
    await page.goto(origin + '/blog/', { waitUntil: 'domcontentloaded' }); // (the runtime has run: module scripts run before)
    expect(await page.locator('sitegen-island').getAttribute('data-hydrated')).toBeNull();
    // Pressed twice while it waits (nothing seemed to happen): kept once, as a second press would undo a toggle.
    await page.getByRole('button', { name: 'count is 1' }).click();
    await page.getByRole('button', { name: 'count is 1' }).press('Enter');
    expect(await page.getByRole('button', { name: /^count is/ }).textContent()).toBe('count is 1'); // as the server wrote it, still
    // What works without the island's code works at once: the summary opens its details.
    await page.getByText('About this counter').click();
    expect(await page.locator('sitegen-island details').getAttribute('open')).toBe('');
    letGo();
    await page.waitForSelector('sitegen-island[data-hydrated]');
    await page.getByRole('button', { name: 'count is 2' }).waitFor();
    // Given again once, not kept for later.
    await page.getByRole('button', { name: 'count is 2' }).click();
    await page.getByRole('button', { name: 'count is 3' }).waitFor();
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
    // A link in an island that is not live navigates as a link does.
    const again = await browser.newPage();
    await holdIslandCode(again, new Promise<void>(() => {}));
    await again.goto(origin + '/blog/', { waitUntil: 'domcontentloaded' });
    await again.locator('sitegen-island a').click();
    await again.waitForURL('**/blog/posts/first/');
    await again.close();
  });

  it('has valid, accessible pages', async () => {
    const validator = new HtmlValidate(new FileSystemConfigLoader());
    for (const rel of ['index.html', 'posts/first/index.html', 'posts/second/index.html', 'tags/index.html', 'tags/news/index.html', '404.html', 'old/first/index.html']) {
      const report = await validator.validateString(fs.readFileSync(path.join(dist, rel), 'utf8'), rel);
      expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`)), rel).toEqual([]);
    }
    // One page loads each in turn: each load is a new document, and a new page would start a renderer.
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const url of ['/blog/', '/blog/posts/first/', '/blog/posts/second/', '/blog/tags/news/']) {
      await page.goto(origin + url);
      const axe = await axeOf(page).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), url).toEqual([]);
    }
    await context.close();
  });
});

describe('the same blog with cspMeta, on a host that sends no headers (GitHub Pages)', () => {
  let metaSite: TestSite;
  let metaServer: PreviewServer;
  let metaOrigin: string;
  let metaDist: string;
  beforeAll(async () => {
    metaSite = await copyOf('base-blog');
    metaSite.edit('sitegen.config.ts', (t) => t.replace("  images: { fingerprint: true },\n", "  images: { fingerprint: true },\n  cspMeta: true,\n"));
    const b = await metaSite.build({ quiet: true });
    if (b.code !== 0) throw new Error(b.stderr + b.stdout);
    // What GitHub Pages does with the output: `_headers` is not read, so no policy comes from a header.
    metaDist = b.outDir;
    fs.rmSync(path.join(b.outDir, '_headers'));
    metaServer = await metaSite.preview();
    metaOrigin = new URL(metaServer.url).origin;
  });
  afterAll(async () => { await metaServer?.close(); metaSite?.remove(); });

  it("enforces the page's own policy: the island hydrates, an injected inline script is refused, nothing else is", async () => {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    const res = await page.goto(metaOrigin + '/blog/', { waitUntil: 'networkidle' });
    expect(res?.headers()['content-security-policy']).toBeUndefined();
    expect(await page.locator('head > meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toContain("script-src 'self'");
    await page.getByRole('button', { name: 'count is 1' }).click();
    await expect(page.getByRole('button', { name: 'count is 2' }).isVisible()).resolves.toBe(true);
    // What an injection would add: an inline script. The policy from the page's head stops it.
    const outcome = await page.evaluate(() => new Promise<{ ran: boolean; directive: string }>((resolve) => {
      document.addEventListener('securitypolicyviolation', (e) => resolve({ ran: 'injected' in window, directive: e.effectiveDirective }), { once: true });
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.body.append(s);
      setTimeout(() => resolve({ ran: 'injected' in window, directive: '' }), 1000);
    }));
    expect(outcome).toEqual({ ran: false, directive: 'script-src-elem' });
    expect(problems.errors).toEqual([]);
    // The one complaint is the refusal: none of a directive a <meta> policy cannot carry (frame-ancestors).
    expect(problems.console).toHaveLength(1);
    expect(problems.console[0]).toMatch(/inline script violates .*script-src 'self'/);
    await page.close();
  });

  it('has valid pages with the policy in their head', async () => {
    const validator = new HtmlValidate(new FileSystemConfigLoader());
    for (const rel of ['index.html', 'posts/first/index.html', '404.html']) {
      const html = fs.readFileSync(path.join(metaDist, rel), 'utf8');
      expect(html).toContain(`<head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self';`);
      const report = await validator.validateString(html, rel);
      expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`)), rel).toEqual([]);
    }
  });
});
