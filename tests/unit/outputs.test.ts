// Outputs and head (issue 14): routes that write files other than pages (feeds), per-page head tags,
// `site.base` for sites served under a sub-path and the `trailingSlash` option — through the URL helpers,
// the route table, the host files, the link check, the static host, `sitegen build` and `sitegen dev`.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createElement } from 'react';
import { href } from '../../src/render/urls.ts';
import { routeTable } from '../../src/pipeline/routeTable.ts';
import { shapeOf } from '../../src/pipeline/routeCarry.ts';
import { hostFiles, redirectsChunks } from '../../src/output/hostfiles.ts';
import { makeTargets } from '../../src/pipeline/linkTargets.ts';
import { checkLinks } from '../../src/pipeline/linkMessages.ts';
import { createHost, memorySource } from '../../src/server/host/index.ts';
import { rssFeed, atomFeed, jsonFeed } from '../../src/output/feed.ts';
import { bodyContext } from '../../src/render/document.tsx';
import { startDevServer } from '../../src/dev/index.ts';
import { imageSize, staticImages } from '../../src/output/staticImages.ts';
import type { RouteDef, SiteConfig } from '../../src/core/types.ts';
import { sitegen } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { copyFixture, editFile, removeCopy, until } from './dev-fixture.ts';
import { copyOf } from '../helpers/scratch.ts';
import { contentType } from '../../src/server/host/mime.ts';

/** `sitegen dev` for a site folder on a free loopback port. */
async function serveDev(root: string) {
  const dev = await startDevServer({ root });
  const server = http.createServer(dev.handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { dev, url, close: async () => { server.close(); await dev.close(); } };
}

const Page = () => createElement('p', null, 'x');
const site = (extra: Partial<SiteConfig> = {}, siteExtra: Partial<SiteConfig['site']> = {}): SiteConfig =>
  ({ site: { title: 'T', url: 'https://t.example', ...siteExtra }, collections: {}, routes: () => [], ...extra });

describe('URL policy: href()', () => {
  it('applies the trailing-slash rule and the base, and leaves files, fragments and other URLs alone', () => {
    const always = { base: '/', trailingSlash: 'always' as const };
    const never = { base: '/', trailingSlash: 'never' as const };
    const under = { base: '/repo/', trailingSlash: 'always' as const };
    expect(href('/faqs', always)).toBe('/faqs/');
    expect(href('/faqs/?a=1#b', never)).toBe('/faqs?a=1#b');
    expect(href('/faqs?a=1#b', always)).toBe('/faqs/?a=1#b');
    expect(href('/', under)).toBe('/repo/');
    expect(href('/posts/a', under)).toBe('/repo/posts/a/');
    expect(href('/rss.xml', under)).toBe('/repo/rss.xml');
    for (const p of ['https://x.example/a', '#top', '//cdn.example/x', 'mailto:a@b.c']) expect(href(p, under)).toBe(p);
  });
});

describe('the route table', () => {
  it("with trailingSlash 'never' writes <path>.html and keeps paths without a slash", () => {
    const t = routeTable({}, site({ trailingSlash: 'never', routes: () => [
      { path: '/', component: Page, props: {}, title: 'Home' },
      { path: '/about/', component: Page, props: {}, title: 'About', aliases: ['/old-about/'] },
      { path: '/docs/intro', component: Page, props: {}, title: 'Intro' },
    ] }));
    expect(t.errors).toEqual([]);
    expect(t.routes.map((r) => [r.path, r.output])).toEqual([['/', 'index.html'], ['/about', 'about.html'], ['/docs/intro', 'docs/intro.html']]);
    expect(t.aliases.map((a) => [a.from, a.to, a.output])).toEqual([['/old-about', '/about', 'old-about.html']]);
  });

  it('writes a path that names an HTML file (/legacy.html, an old URL kept) as that file, under either slash rule, in the sitemap', () => {
    for (const trailingSlash of ['always', 'never'] as const) {
      const config = site({ trailingSlash, routes: () => [
        { path: '/legacy.html', component: Page, props: {}, title: 'Legacy' },
        { path: '/blog/old-post.htm', component: Page, props: {}, title: 'Old post' },
      ] });
      const t = routeTable({}, config);
      expect(t.errors).toEqual([]);
      expect(t.routes.map((r) => [r.path, r.output])).toEqual([['/legacy.html', 'legacy.html'], ['/blog/old-post.htm', 'blog/old-post.htm']]);
      expect(hostFiles(t, config, 'https://t.example', {})['sitemap.xml']).toContain('<loc>https://t.example/legacy.html</loc>');
    }
  });

  it('refuses a page below a path that names a file (/legacy.html/sub): that file would have to be a folder', () => {
    const t = routeTable({}, site({ routes: () => [
      { path: '/legacy.html', component: Page, props: {}, title: 'Legacy' },
      { path: '/legacy.html/sub', component: Page, props: {}, title: 'Sub' },
    ] }));
    expect(t.errors.map((e) => e.text)).toEqual(['page /legacy.html/sub/ writes legacy.html/sub/index.html, inside legacy.html, which page /legacy.html writes as a file']);
  });

  it('refuses a non-HTML output without a body, naming the fix', () => {
    const t = routeTable({}, site({ routes: () => [{ path: '/rss.xml', output: 'rss.xml', component: Page, props: {}, title: 'Feed' }] }));
    expect(t.errors.map((e) => e.text)).toEqual(['route /rss.xml writes rss.xml, which is not an HTML page: give it a `body` (e.g. rssFeed(...)) that returns the file\'s text']);
    const noOutput = routeTable({}, site({ routes: () => [{ path: '/feed.json', props: {}, title: 'Feed', body: () => '{}' }] }));
    expect(noOutput.errors.map((e) => e.text)).toEqual(['route /feed.json has a `body` but no `output`: name the file it writes (e.g. output: "rss.xml")']);
  });
});

describe('an alias that names a file other than a page', () => {
  it('is an error with the _redirects line that does it instead; an old .html URL stays an alias page', () => {
    const t = routeTable({}, site({ routes: () => [
      { path: '/feed', output: 'feed.xml', props: {}, title: 'Feed', body: () => '<rss/>', aliases: [] },
      { path: '/atom', component: Page, props: {}, title: 'Atom', aliases: ['/feed.xml', '/2019/05/post.html'], source: 'sitegen.config.ts' },
    ] }));
    expect(t.errors.map((e) => e.text)).toEqual(['alias "/feed.xml" of /atom/ names a file that is not a page (an alias page is HTML, which a feed reader or a browser asking for /feed.xml cannot use): redirect it in static/_redirects instead ("/feed.xml /atom/ 301"), which the build merges into the generated one']);
    expect(t.aliases.map((a) => [a.from, a.output])).toEqual([['/2019/05/post.html', '2019/05/post.html']]);
    // Its redirect is the file's URL alone: no "/2019/05/post.html/" beside it.
    const redirects = [...redirectsChunks(t.aliases)].join('');
    expect(redirects).toContain('\n/2019/05/post.html /atom/ 301\n');
    expect(redirects).not.toContain('post.html/');
  });
});

describe('a page without a title', () => {
  it('is an error naming the route, where it came from, and the field; a file with a body needs none', () => {
    const t = routeTable({}, site({ routes: () => [
      { path: '/notes/x', component: Page, props: {}, source: 'content/notes/x.md' } as never,
      { path: '/y', component: Page, props: {}, title: 42 } as never,
      { path: '/feed.json', output: 'feed.json', props: {}, body: () => '{}' } as never,
    ] }));
    expect(t.errors.map((e) => [e.text, e.location?.file ?? null])).toEqual([
      ["route /notes/x has no title: a page needs one for its <title> (title: '…')", 'content/notes/x.md'],
      ["route /y has a title that is not text (number): a page needs one for its <title> (title: '…')", null],
    ]);
    expect(t.routes.map((r) => r.path)).toEqual(['/feed.json']);
    expect(shapeOf([{ path: '/notes/x', component: Page }], {})).toBeNull();
  });
});

/** The sitemap.xml of a site of these routes at https://t.example. */
function sitemapOf(routes: RouteDef[]): string {
  const config = site({ routes: () => routes });
  return hostFiles(routeTable({}, config), config, 'https://t.example', {})['sitemap.xml'];
}

describe('sitemap <lastmod>', () => {
  it('writes a route\'s lastmod (a Date, with its time when it has one, or a W3C date string), and refuses any other value naming the route', () => {
    const routes = [
      { path: '/a', component: Page, props: {}, title: 'A', lastmod: new Date('2025-01-10') },
      { path: '/b', component: Page, props: {}, title: 'B', lastmod: new Date('2025-01-10T08:30:15.250Z') },
      { path: '/c', component: Page, props: {}, title: 'C', lastmod: '2025-02-01T10:00:00+02:00' },
      { path: '/d', component: Page, props: {}, title: 'D' },
    ];
    const sitemap = sitemapOf(routes);
    expect(sitemap).toContain('<url><loc>https://t.example/a/</loc><lastmod>2025-01-10</lastmod></url>');
    expect(sitemap).toContain('<url><loc>https://t.example/b/</loc><lastmod>2025-01-10T08:30:15Z</lastmod></url>');
    expect(sitemap).toContain('<url><loc>https://t.example/c/</loc><lastmod>2025-02-01T10:00:00+02:00</lastmod></url>');
    expect(sitemap).toContain('<url><loc>https://t.example/d/</loc></url>');
    const bad = routeTable({}, site({ routes: () => [
      { path: '/x', component: Page, props: {}, title: 'X', lastmod: 'last Tuesday', source: 'content/x.md' },
      { path: '/y', component: Page, props: {}, title: 'Y', lastmod: new Date('nope') },
      { path: '/z', component: Page, props: {}, title: 'Z', lastmod: '2025-13-45' },
      { path: '/w', component: Page, props: {}, title: 'W', lastmod: '2025-02-30' },
      { path: '/v', component: Page, props: {}, title: 'V', lastmod: '2025-01-10T08:30:00' },
    ] }));
    expect(bad.errors.map((e) => [e.text, e.location?.file ?? null])).toEqual([
      ['route /x lastmod "last Tuesday" is not a date: use a Date or a string such as "2025-01-10" or "2025-01-10T08:30:00Z"', 'content/x.md'],
      ['route /y lastmod is an invalid Date: use a Date or a string such as "2025-01-10" or "2025-01-10T08:30:00Z"', null],
      ['route /z lastmod "2025-13-45" is not a date: use a Date or a string such as "2025-01-10" or "2025-01-10T08:30:00Z"', null],
      ['route /w lastmod "2025-02-30" is not a date: use a Date or a string such as "2025-01-10" or "2025-01-10T08:30:00Z"', null],
      ['route /v lastmod "2025-01-10T08:30:00" has a time but no time zone (Z or +hh:mm): use a Date or a string such as "2025-01-10" or "2025-01-10T08:30:00Z"', null],
    ]);
    // The carried checks (routeCarry.ts) never trust a table with an invalid lastmod.
    expect(shapeOf([{ path: '/x', lastmod: 'last Tuesday' }], {})).toBeNull();
    expect(shapeOf([{ path: '/x', lastmod: '2025-01-10' }], {})).toBe(shapeOf([{ path: '/x', lastmod: '2026-01-10' }], {}));
  });
});

describe('sitemap <loc>', () => {
  it('percent-encodes a path that is not ASCII, as the sitemap protocol asks, and keeps the page itself at its path', async () => {
    const routes = [
      { path: '/fr/crème-brûlée', component: Page, props: {}, title: 'Crème brûlée' },
      { path: '/100%-rye', component: Page, props: {}, title: 'Rye' },
      { path: '/日本', component: Page, props: {}, title: 'Japan' },
    ];
    const sitemap = sitemapOf(routes);
    expect(sitemap).toContain('<loc>https://t.example/fr/cr%C3%A8me-br%C3%BBl%C3%A9e/</loc>');
    expect(sitemap).toContain('<loc>https://t.example/100%25-rye/</loc>');
    expect(sitemap).toContain('<loc>https://t.example/%E6%97%A5%E6%9C%AC/</loc>');
    expect(routeTable({}, site({ routes: () => routes })).routes.map((r) => r.output)).toContain('fr/crème-brûlée/index.html');
  });
});

describe('sitemap <lastmod> and route checks in dev', () => {
  it('a content edit that changes only a lastmod updates sitemap.xml; one that makes it invalid, or drops a title, is the build\'s error', async () => {
    const site = await copyOf('basic');
    site.edit('sitegen.config.ts', (t) => t.replace("title: i.data.title, source: i.file, aliases:", "title: i.data.title, lastmod: `2025-01-${String(i.data.price).padStart(2, '0')}`, source: i.file, aliases:"));
    const dev = await site.dev();
    try {
      const sitemap = async () => (await fetch(`${dev.url}/sitemap.xml`)).text();
      expect(await sitemap()).toContain('/items/alpha/</loc><lastmod>2025-01-03</lastmod>');
      site.edit('content/items/alpha.yaml', (t) => t.replace('price: 3', 'price: 7'));
      await until(async () => (await sitemap()).includes('/items/alpha/</loc><lastmod>2025-01-07</lastmod>'), 15_000, 'the new lastmod');
      site.edit('content/items/alpha.yaml', (t) => t.replace('price: 7', 'price: 99'));
      await until(() => dev.output().includes('route /items/alpha lastmod "2025-01-99" is not a date'), 15_000, 'the lastmod error');
    } finally { await dev.close(); site.remove(); }
  });
});

describe('a 404 page of its own for a folder (a language)', () => {
  it("gets a _redirects rule for the paths below it, under the base, after the aliases; the site's own 404 none", () => {
    const config = site({ routes: () => [] }, { base: 'repo' });
    const table = routeTable({}, { ...config, routes: () => [
      { path: '/', component: Page, props: {}, title: 'Home', aliases: ['/old'] },
      { path: '/404', output: '404.html', component: Page, props: {}, title: 'Not found', noindex: true },
      { path: '/fr/404', output: 'fr/404.html', component: Page, props: {}, title: 'Page introuvable', noindex: true, lang: 'fr' },
    ] });
    expect(table.errors).toEqual([]);
    const redirects = hostFiles(table, config, 'https://u.example.io', {})['_redirects'];
    expect(redirects.endsWith('/repo/old /repo/ 301\n/repo/fr/* /repo/fr/404.html 404\n')).toBe(true);
    expect(redirects).not.toContain('/repo/* ');
  });
});

describe('host files and the link check under a base', () => {
  const config = site({ routes: () => [] }, { base: 'repo' });
  const table = routeTable({}, { ...config, routes: () => [
    { path: '/', component: Page, props: {}, title: 'Home', aliases: ['/old'] },
    { path: '/rss.xml', output: 'rss.xml', props: {}, title: 'Feed', body: () => '<rss/>', contentType: 'application/rss+xml' },
  ] });

  it('writes every path of sitemap, robots, _redirects and _headers with the base', () => {
    const files = hostFiles(table, config, 'https://u.example.io', {});
    expect(files['sitemap.xml']).toContain('<loc>https://u.example.io/repo/</loc>');
    expect(files['sitemap.xml']).not.toContain('rss.xml');
    expect(files['robots.txt']).toBe('User-agent: *\nAllow: /repo/\n\nSitemap: https://u.example.io/repo/sitemap.xml\n');
    expect(files['_redirects']).toContain('/repo/old/ /repo/ 301\n/repo/old /repo/ 301\n');
    expect(files['_headers']).toContain('/repo/*\n  Content-Security-Policy:');
    expect(files['_headers']).toContain('/repo/assets/*\n  Cache-Control');
    expect(files['_headers']).toContain('/repo/rss.xml\n  Content-Type: application/rss+xml');
  });

  it('accepts links under the base and flags links that miss it, with the fix', () => {
    const targets = makeTargets(['/', '/a/'], ['index.html', 'rss.xml'], '/repo/');
    expect(checkLinks([{ page: '/a/', source: null, links: ['/repo/', '/repo/rss.xml', '../rss.xml', '/repo/a/'] }], targets)).toEqual([]);
    const [e] = checkLinks([{ page: '/a/', source: null, links: ['/a/'] }], targets);
    expect(e.text).toBe('page /a/ links to /a/, which is not a page, alias or file');
    expect(e.hint).toBe('The site is served under /repo/: in a template write href(\'/a/\') from "sitegen-islands", which adds the base, or /repo/a/ (Markdown links and images get the base by themselves).');
    // An image is pointed at image(), which gives its size too.
    const img = makeTargets(['/'], ['img/og.png'], '/repo/');
    expect(checkLinks([{ page: '/', source: null, links: ['/img/og.png'] }], img)[0]!.hint).toBe('The site is served under /repo/: in a template write image(\'/img/og.png\').src from "sitegen-islands" (with its width and height), or href(\'/img/og.png\'), which adds the base, or /repo/img/og.png (Markdown links and images get the base by themselves).');
    // Not when the path names no page under the base either: a path a typo away, or nothing (the base alone would not fix it).
    const [near, none] = checkLinks([{ page: '/a/', source: null, links: ['/b/', '/changelog/'] }], targets);
    expect([near!.text, near!.hint]).toEqual(['page /a/ links to /b/, which is not a page, alias or file', 'Did you mean /repo/a/?']);
    expect(none!.hint ?? '').not.toContain('served under');
    // A path written with the base but not the page URL's form: the fix as served, with the base.
    const [slash] = checkLinks([{ page: '/a/', source: null, links: ['/repo/a'] }], targets);
    expect(slash.hint).toBe('Page URLs end with "/": link to /repo/a/ instead.');
    // The base twice: href() given a URL that had it (paginate()'s prev), said as such.
    const [twice] = checkLinks([{ page: '/a/', source: null, links: ['/repo/repo/a/'] }], targets);
    expect(twice.hint).toBe("The site's base /repo/ is in this link twice: href() adds it to a URL that already has it. Write such a URL as it is (paginate()'s prev and next include the base); pass href() a path without it.");
    // Not when the path without one base is no page either (a route of its own may start with the base's name).
    const [typo] = checkLinks([{ page: '/a/', source: null, links: ['/repo/repo/zzz/'] }], targets);
    expect(typo.hint ?? '').not.toContain('twice');
  });
});

describe('the static host', () => {
  const files: Record<string, string> = { 'index.html': 'home', 'about.html': 'about', 'docs/index.html': 'docs', '404.html': 'lost' };
  const serve = (base?: string) => {
    const server = http.createServer(createHost({ source: memorySource((rel) => files[rel]), base }));
    return new Promise<{ url: string; close: () => void }>((resolve) => server.listen(0, '127.0.0.1', () => {
      const a = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${a.port}`, close: () => server.close() });
    }));
  };
  const get = (url: string) => fetch(url, { redirect: 'manual' }).then(async (r) => [r.status, r.headers.get('location') ?? await r.text()]);

  it('serves a site under its base: the root and the bare base redirect into it, outside it is a 404', async () => {
    const s = await serve('/repo/');
    try {
      expect(await get(`${s.url}/`)).toEqual([302, '/repo/']);
      expect(await get(`${s.url}/repo`)).toEqual([302, '/repo/']);
      expect(await get(`${s.url}/repo/`)).toEqual([200, 'home']);
      expect(await get(`${s.url}/repo/docs`)).toEqual([301, '/repo/docs/']);
      expect(await get(`${s.url}/repo/about`)).toEqual([200, 'about']);
      expect(await get(`${s.url}/repo/nope`)).toEqual([404, 'lost']);
      expect(await get(`${s.url}/about`)).toEqual([404, 'lost']);
    } finally { s.close(); }
  });

  it('gives a file page (about.html) one URL, without the slash', async () => {
    const s = await serve();
    try {
      expect(await get(`${s.url}/about/?x=1`)).toEqual([301, '/about?x=1']);
      expect(await get(`${s.url}/about`)).toEqual([200, 'about']);
      expect(await get(`${s.url}/docs/`)).toEqual([200, 'docs']);
    } finally { s.close(); }
  });

  it('serves a page written as .htm or .HTML as HTML, as static hosts do', () => {
    for (const f of ['old.htm', 'OLD.HTML', 'a/b.Htm']) expect(contentType(f)).toBe('text/html; charset=utf-8');
  });
});

describe('feeds', () => {
  const ctx = bodyContext({ siteUrl: 'https://u.example.io/', policy: { base: '/repo/', trailingSlash: 'always' } });
  const items = [
    { title: 'Old & "quoted"', path: '/posts/old', date: '2026-01-01', summary: 'a <b>bold</b> claim\u0001' },
    { title: 'New', path: '/posts/new/', date: new Date('2026-03-01T10:00:00Z'), html: '<p>x</p>', categories: ['a&b'] },
  ];

  it('RSS: newest first, escaped, absolute URLs under the base, dated by its newest item, no XML-illegal characters', () => {
    const xml = rssFeed(ctx, { title: 'T <&>', self: '/rss.xml', items });
    expect(xml).toContain('<title>T &lt;&amp;&gt;</title>');
    expect(xml).toContain('<atom:link href="https://u.example.io/repo/rss.xml" rel="self" type="application/rss+xml"/>');
    expect(xml).toContain('<lastBuildDate>Sun, 01 Mar 2026 10:00:00 GMT</lastBuildDate>');
    expect(xml.indexOf('<title>New</title>')).toBeLessThan(xml.indexOf('<title>Old &amp; &quot;quoted&quot;</title>'));
    expect(xml).toContain('<link>https://u.example.io/repo/posts/old/</link>');
    expect(xml).toContain('<description>a &lt;b&gt;bold&lt;/b&gt; claim</description>');
    expect(xml).toContain('<category>a&amp;b</category>');
    expect(xml).not.toContain('\u0001');
  });

  it("RSS: an author's name is a dc:creator (RSS's <author> takes an email address); an email stays an <author>", () => {
    const named = rssFeed(ctx, { title: 'T', self: '/rss.xml', items: [{ ...items[1], author: 'Ada Lovelace' }, { ...items[0], author: 'ada@example.com (Ada)' }] });
    expect(named).toContain('<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">');
    expect(named).toContain('<dc:creator>Ada Lovelace</dc:creator>');
    expect(named).toContain('<author>ada@example.com (Ada)</author>');
    expect(named).not.toContain('<author>Ada Lovelace</author>');
    const plain = rssFeed(ctx, { title: 'T', self: '/rss.xml', items: [{ ...items[1], author: 'ada@example.com' }] });
    expect(plain).toContain('<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">');
    expect(plain).toContain('<author>ada@example.com</author>');
  });

  it("an item's image: RSS's media:content, Atom's enclosure link, JSON Feed's image, each absolute under the base", () => {
    const pictured = [{ ...items[1], image: '/img/cover.jpg' }, { ...items[0], image: 'https://cdn.example/a.webp?w=2' }];
    const rss = rssFeed(ctx, { title: 'T', self: '/rss.xml', items: pictured });
    expect(rss).toContain('xmlns:media="http://search.yahoo.com/mrss/"');
    expect(rss).toContain('<media:content url="https://u.example.io/repo/img/cover.jpg" medium="image" type="image/jpeg"/></item>');
    expect(rss).toContain('<media:content url="https://cdn.example/a.webp?w=2" medium="image" type="image/webp"/>');
    expect(atomFeed(ctx, { title: 'T', self: '/atom.xml', items: pictured })).toContain('<link rel="enclosure" type="image/jpeg" href="https://u.example.io/repo/img/cover.jpg"/>');
    expect(JSON.parse(jsonFeed(ctx, { title: 'T', self: '/feed.json', items: pictured })).items.map((i: { image?: string }) => i.image)).toEqual(['https://u.example.io/repo/img/cover.jpg', 'https://cdn.example/a.webp?w=2']);
    // Without one, no media namespace. A path as it is (a file has no trailing-slash form); anything but a site
    // path or an http(s) URL, or one with the base in it, is an error naming the item.
    expect(rssFeed(ctx, { title: 'T', self: '/rss.xml', items })).not.toContain('media');
    expect(rssFeed(ctx, { title: 'T', self: '/rss.xml', items: [{ ...items[1], image: '/img/cover' }] })).toContain('url="https://u.example.io/repo/img/cover"');
    const refused = (image: string | never) => { try { rssFeed(ctx, { title: 'T', self: '/rss.xml', items: [{ ...items[1], image }] }); return null; } catch (e) { return (e as Error).message; } };
    expect(refused('evening.jpg')).toBe('feed item "New" has image "evening.jpg": write a site path from the root ("/evening.jpg" for a file of static/) or an https:// URL');
    expect(refused('//cdn.example/a.png')).toBe('feed item "New" has image "//cdn.example/a.png": write a site path from the root or an https:// URL');
    expect(refused('/repo/favicon.svg')).toBe('feed item "New" has image /repo/favicon.svg, with site.base /repo/ in it, which the build adds: write /favicon.svg');
    expect(refused({ image: '/a.jpg' } as never)).toBe('feed item "New" has image object: give a site path from the root, an https:// URL or an imageFile() field\'s image');
  });

  it("an item's image from an imageFile() field: its version at most 1200 px wide, once under the base, noted for the build to make", () => {
    const linked: string[] = [];
    const based = bodyContext({ siteUrl: 'https://u.example.io/', policy: { base: '/repo/', trailingSlash: 'always' } }, linked);
    const cover = { file: 'content/posts/new/cover.jpg', hash: '0123456789abcdef', name: 'cover', width: 3000, height: 2000, format: 'jpeg' as const };
    const rss = rssFeed(based, { title: 'T', self: '/rss.xml', items: [{ ...items[1], image: cover }] });
    const url = rss.match(/<media:content url="([^"]+)" medium="image" type="image\/jpeg"\/>/)![1];
    expect(url).toMatch(/^https:\/\/u\.example\.io\/repo\/assets\/img\/0123456789abcdef\w{6}\/cover-1200\.jpg$/);
    expect(linked).toEqual([url.slice('https://u.example.io'.length)]);
  });

  it("an item's relative links are made absolute against its own page, as they resolve there", () => {
    const html = '<p><a href="#note">1</a> <a href="../old/">old</a> <img src="pic.png" srcset="pic-2x.png 2x"> <a href="/repo/x/">x</a> <a href="mailto:a@b.example">m</a> <a href="//cdn.example/y">y</a></p>';
    const xml = rssFeed(ctx, { title: 'T', self: '/rss.xml', items: [{ ...items[1], html }] });
    const description = xml.match(/<description>(.*?)<\/description>/g)!.at(-1)!;
    for (const url of ['https://u.example.io/repo/posts/new/#note', 'https://u.example.io/repo/posts/old/', 'https://u.example.io/repo/posts/new/pic.png',
      'https://u.example.io/repo/posts/new/pic-2x.png 2x', 'https://u.example.io/repo/x/', 'mailto:a@b.example', '//cdn.example/y']) expect(description).toContain(`=&quot;${url}`);
  });

  it("keeps a srcset holding a data: URL as written, and an item's relative link when the site URL is no URL", () => {
    const html = '<img src="a.png" srcset="data:image/png;base64,AAAA 1x"> <a href="#n">n</a>';
    const xml = rssFeed(ctx, { title: 'T', self: '/rss.xml', items: [{ ...items[1], html }] });
    expect(xml).toContain('srcset=&quot;data:image/png;base64,AAAA 1x&quot;');
    const bare = bodyContext({ siteUrl: '', policy: { base: '/', trailingSlash: 'always' } });
    expect(() => rssFeed(bare, { title: 'T', self: '/rss.xml', items: [{ ...items[1], html }] })).not.toThrow();
  });

  it('Atom: ids and links absolute, a feed author, an invalid date is an error naming the item', () => {
    const xml = atomFeed(ctx, { title: 'T', self: '/atom.xml', items });
    expect(xml).toContain('<id>https://u.example.io/repo/posts/new/</id>');
    expect(xml).toContain('<author><name>T</name></author>');
    expect(xml).toContain('<content type="html">&lt;p&gt;x&lt;/p&gt;</content>');
    expect(() => atomFeed(ctx, { title: 'T', self: '/atom.xml', items: [{ title: 'Bad', path: '/b/', date: 'soon' }] })).toThrow('feed item "Bad" has no valid date (soon)');
  });
});

let dir = '';
afterEach(() => { if (dir) removeCopy(dir); dir = ''; });

describe('static images', () => {
  const png = Buffer.alloc(33); png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]); png.write('IHDR', 12); png.writeUInt32BE(640, 16); png.writeUInt32BE(480, 20);
  const gif = Buffer.from('GIF89a\x10\x00\x20\x00', 'latin1');
  // A JPEG: SOI, an APP0 segment to skip, then a baseline frame header with height 300 and width 400.
  const jpg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x01, 0x90, 0x03, 0, 0, 0, 0, 0, 0, 0, 0]);
  const webp = Buffer.alloc(30); webp.write('RIFF', 0); webp.write('WEBP', 8); webp.write('VP8X', 12); webp.writeUIntLE(1919, 24, 3); webp.writeUIntLE(1079, 27, 3);

  it('reads width and height from PNG, GIF, JPEG, WebP and SVG headers', () => {
    expect(imageSize(png, 'a.png')).toEqual({ width: 640, height: 480 });
    expect(imageSize(gif, 'a.gif')).toEqual({ width: 16, height: 32 });
    expect(imageSize(jpg, 'a.jpg')).toEqual({ width: 400, height: 300 });
    expect(imageSize(webp, 'a.webp')).toEqual({ width: 1920, height: 1080 });
    expect(imageSize(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 60"></svg>'), 'a.svg')).toEqual({ width: 120, height: 60 });
    expect(imageSize(Buffer.from('not an image'), 'a.png')).toBeNull();
  });

  it('fingerprints into /assets/ with a name that follows the bytes, keeping the original', () => {
    const a = staticImages([['img/a.png', png]], true);
    const b = staticImages([['img/a.png', Buffer.concat([png, Buffer.from([1])])]], true);
    expect(a.table['/img/a.png']).toMatchObject({ width: 640, height: 480 });
    expect(a.table['/img/a.png'].src).toMatch(/^\/assets\/img\/a-[0-9a-f]{10}\.png$/);
    expect(b.table['/img/a.png'].src).not.toBe(a.table['/img/a.png'].src);
    expect([...a.copies.keys()]).toEqual([a.table['/img/a.png'].src.slice(1)]);
    expect(staticImages([['img/a.png', png]], false).table['/img/a.png'].src).toBe('/img/a.png');
  });

  it('image() of a file that is not there fails the build at the template, naming the path', async () => {
    dir = copyFixture('base-blog');
    editFile(dir, 'templates/pages.tsx', (t) => t.replace("image('/img/site.svg')", "image('/img/missing.png')"));
    const r = await siteAt(dir).build();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/templates\/pages\.tsx:\d+:\d+ rendering \/ failed: image\("\/img\/missing\.png"\): there is no such image in static\//);
  }, 60_000);
});

describe("a site with trailingSlash 'never' and a feed route, built and served by dev", () => {

  const neverSite = () => {
    const root = copyFixture('basic');
    editFile(root, 'sitegen.config.ts', (t) => t
      .replace("import { defineConfig, href } from 'sitegen-islands';", "import { defineConfig, href, rssFeed, type Entry } from 'sitegen-islands';")
      .replace("site: { title: 'Fixture',", "trailingSlash: 'never',\n  site: { title: 'Fixture',")
      .replace("    { path: '/404',", "    { path: '/rss.xml', output: 'rss.xml', props: c.items, title: 'Feed', contentType: 'application/rss+xml', body: (items: Entry[], ctx) => rssFeed(ctx, { title: 'Items', self: '/rss.xml', items: items.map((i) => ({ title: i.data.title, path: `/items/${i.slug}`, date: '2026-01-01' })) }) },\n    { path: '/404',"));
    return root;
  };

  it('a template link with the wrong slash fails the build with the fix; with href() it builds file pages and the raw feed', async () => {
    dir = neverSite();
    const bad = await siteAt(dir).build();
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Page URLs have no trailing \"/\" (trailingSlash: 'never'): link to /about instead.");

    editFile(dir, 'templates/pages.tsx', (t) => t
      .replace("import type { LayoutProps } from 'sitegen-islands';", "import { href, type LayoutProps } from 'sitegen-islands';")
      .replace('<a href="/about/">About</a>', '<a href={href("/about")}>About</a>')
      .replace('<a href={`/items/${i.slug}/`}>', '<a href={href(`/items/${i.slug}`)}>'));
    editFile(dir, 'content/pages/about.md', (t) => t.replace('(/items/alpha/)', '(/items/alpha)'));
    const ok = await siteAt(dir).build();
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    // The build's table of page types calls the feed route what it writes: a file, not a component.
    expect(ok.stdout).toMatch(/^ {2}file \.xml +1 /m);
    expect(ok.stdout).not.toContain('BodyRoute');
    const dist = path.join(dir, 'dist');
    for (const f of ['index.html', 'about.html', 'items/alpha.html', 'old/alpha.html', '404.html']) expect(fs.existsSync(path.join(dist, f)), f).toBe(true);
    const home = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    expect(home).toContain('<a href="/about">About</a>');
    expect(home).toContain('href="/items/alpha"');
    const rss = fs.readFileSync(path.join(dist, 'rss.xml'), 'utf8');
    expect(rss.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss')).toBe(true);
    expect(rss).toContain('<link>https://fixture.example/items/alpha</link>');
    expect(fs.readFileSync(path.join(dist, '_headers'), 'utf8')).toContain('/rss.xml\n  Content-Type: application/rss+xml');

    const { dev, url, close } = await serveDev(dir);
    try {
      expect(dev.initial.errors).toEqual([]);
      const feed = await fetch(`${url}/rss.xml`);
      expect(feed.headers.get('content-type')).toBe('application/rss+xml');
      expect(await feed.text()).toBe(rss); // as written: no dev client script in a feed
      const about = await fetch(`${url}/about/`, { redirect: 'manual' });
      expect([about.status, about.headers.get('location')]).toEqual([301, '/about']);
      expect(await (await fetch(`${url}/about`)).text()).toContain('/__sitegen/client.js');
    } finally {
      await close();
    }
  }, 90_000);

  it('dev serves a site with a base under it', async () => {
    dir = copyFixture('base-blog');
    const { dev, url, close } = await serveDev(dir);
    try {
      expect(dev.initial.errors).toEqual([]);
      const root = await fetch(`${url}/`, { redirect: 'manual' });
      expect([root.status, root.headers.get('location')]).toEqual([302, '/blog/']);
      const home = await (await fetch(`${url}/blog/`)).text();
      const css = home.match(/href="(\/blog\/assets\/site[^"]*\.css)"/)?.[1]; // dev: no hash, swapped in place on edits
      expect(css).toBeTruthy();
      expect((await fetch(url + css)).status).toBe(200);
      // The fingerprinted image is served from memory as the build writes it.
      const logo = home.match(/<img class="logo" src="(\/blog\/assets\/img\/site-[0-9a-f]+\.svg)" width="48" height="32"/)?.[1];
      expect(logo).toBeTruthy();
      expect((await fetch(url + logo)).status).toBe(200);
      expect((await fetch(`${url}/blog/posts/first/`)).status).toBe(200);
      expect((await fetch(`${url}/blog/rss.xml`)).headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    } finally {
      await close();
    }
  }, 90_000);
});

describe('a page\'s language', () => {
  it('sets <html lang> from the route\'s lang, else site.lang; an edit of it alone renders the page again; a bad tag is an error naming the route', async () => {
    const site = await copyOf('basic');
    try {
      site.edit('sitegen.config.ts', (t) => t
        .replace("titleTemplate: '%s | Fixture'", "lang: 'en-GB', titleTemplate: '%s | Fixture'")
        .replace("title: i.data.title, source: i.file,", "title: i.data.title, lang: i.slug === 'alpha' ? 'fr' : undefined, source: i.file,"));
      const first = await site.build();
      expect(first.errors).toEqual([]);
      expect(first.read('items/alpha/index.html')).toMatch(/^<!DOCTYPE html><html lang="fr">/);
      expect(first.read('items/beta/index.html')).toMatch(/^<!DOCTYPE html><html lang="en-GB">/);
      expect(first.read('index.html')).toMatch(/^<!DOCTYPE html><html lang="en-GB">/);
      // With the cache of the build before: only the language changed, and the page follows.
      site.edit('sitegen.config.ts', (t) => t.replace("? 'fr' :", "? 'fr-CA' :"));
      const again = await site.build();
      expect(again.errors).toEqual([]);
      expect(again.read('items/alpha/index.html')).toMatch(/^<!DOCTYPE html><html lang="fr-CA">/);

      site.edit('sitegen.config.ts', (t) => t.replace("? 'fr-CA' :", "? 'fr_FR' :"));
      const bad = await site.build();
      expect(bad.errors.map((e) => [e.text, e.location?.file, e.notes[0]?.text])).toEqual([['route /items/alpha lang "fr_FR" is not a language tag such as "en", "fr" or "pt-BR" (a hyphen, not an underscore)', 'sitegen.config.ts', 'the route of content/items/alpha.yaml']]);
      expect((await site.check()).errors.map((e) => e.text)).toEqual(bad.errors.map((e) => e.text));
      // The output of the build before is left as it was.
      expect(site.file('dist/items/alpha/index.html')).toMatch(/<html lang="fr-CA">/);

      site.edit('sitegen.config.ts', (t) => t.replace("? 'fr_FR' :", "? 'fr' :").replace("lang: 'en-GB'", "lang: 'en GB'"));
      const badSite = await site.build();
      expect(badSite.errors.map((e) => [e.location?.file, e.text])).toEqual([['sitegen.config.ts', 'Config "site.lang" must be a language tag such as "en", "fr" or "pt-BR" (a hyphen, not an underscore)']]);
    } finally { site.remove(); }
  });

  it('follows an edit of a route\'s lang in dev', async () => {
    const site = await copyOf('basic');
    site.edit('sitegen.config.ts', (t) => t.replace("title: i.data.title, source: i.file,", "title: i.data.title, lang: i.data.price > 4 ? 'de' : 'fr', source: i.file,"));
    const dev = await site.dev();
    try {
      expect(await (await fetch(`${dev.url}/items/alpha/`)).text()).toMatch(/<html lang="fr">/);
      site.edit('content/items/alpha.yaml', (t) => t.replace(/price: \d+/, 'price: 9'));
      await until(async () => /<html lang="de">/.test(await (await fetch(`${dev.url}/items/alpha/`)).text()), 20_000, 'the page in its new language');
    } finally { await dev.close(); site.remove(); }
  });
});
