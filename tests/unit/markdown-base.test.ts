// A site served under a base (site.base '/blog/'): root-relative links and images written in Markdown
// ("/posts/a/", "/img/a.png") get the base in the HTML, a link that already has it keeps it once, the link
// check checks the URL the page really has, and a site without a base renders as it always did.
import { afterEach, describe, expect, it } from 'vitest';
import { basedUrl, compileMarkdown } from '../../src/markdown/compile.ts';
import { type TestSite } from '../helpers/site.ts';
import { copyOf, siteFrom } from '../helpers/scratch.ts';
import { runInit } from '../../cli/init.ts';

let site: TestSite | null = null;
afterEach(() => { site?.remove(); site = null; });

describe('basedUrl: which Markdown URLs get the base', () => {
  it('prefixes root-relative paths and leaves the rest', () => {
    expect(basedUrl('/posts/a/', '/blog/')).toBe('/blog/posts/a/');
    expect(basedUrl('/img/a.png', '/blog/')).toBe('/blog/img/a.png');
    expect(basedUrl('/', '/blog/')).toBe('/blog/');
    expect(basedUrl('/?q=1', '/blog/')).toBe('/blog/?q=1');
    for (const kept of ['posts/a/', '../a/', '#top', '//cdn.example/x.png', '/\\evil.example/', 'https://example.com/a/', 'mailto:a@b.example']) {
      expect(basedUrl(kept, '/blog/')).toBe(kept);
    }
    expect(basedUrl('/posts/a/', '/')).toBe('/posts/a/');
  });

  it('leaves a URL that already starts with the base (never the base twice)', () => {
    for (const u of ['/blog/', '/blog/posts/a/', '/blog', '/blog#x', '/blog?x']) expect(basedUrl(u, '/blog/')).toBe(u);
    expect(basedUrl('/blogroll/', '/blog/')).toBe('/blog/blogroll/');
  });
});

describe('Markdown under a base', () => {
  it('renders links, reference links and images with the base; without a base, the HTML is unchanged', () => {
    const body = 'See [a](/posts/a/), [b][ref] and ![pic](/img/a.png "T").\n\n[ref]: /posts/b/#part\n';
    expect(compileMarkdown(body, undefined, '/blog/').html).toBe('<p>See <a href="/blog/posts/a/">a</a>, <a href="/blog/posts/b/#part">b</a> and <img src="/blog/img/a.png" alt="pic" title="T">.</p>\n');
    expect(compileMarkdown(body, undefined, '/').html).toBe(compileMarkdown(body).html);
    expect(compileMarkdown(body).html).toContain('href="/posts/a/"');
  });

  it('a site under /blog/ builds clean, its Markdown links and images based once; the cache follows the base', async () => {
    site = await copyOf('base-blog', {
      'content/posts/third.md': '---\ntitle: Third\ndate: 2026-03-01\nsummary: Links.\ntags: [news]\n---\nRead [the first](/posts/first/), [the second again](/blog/posts/second/) and [home](/).\n\n![A picture](/img/site.svg)\n',
    });
    const r = await site.build({ quiet: true });
    expect(r.errors).toEqual([]);
    const page = r.read('posts/third/index.html');
    expect(page).toContain('<a href="/blog/posts/first/">the first</a>');
    expect(page).toContain('<a href="/blog/posts/second/">the second again</a>');
    expect(page).toContain('<a href="/blog/">home</a>');
    expect(page).toMatch(/<img src="\/blog\/[^"]*site[^"]*\.svg"/);
    // The link the fixture wrote with the base stays as it was.
    expect(r.read('posts/first/index.html')).toContain('href="/blog/posts/second/"');

    // Another base: the cached bodies are rendered again under it.
    site.edit('sitegen.config.ts', (t) => t.replace("base: '/blog/'", "base: '/journal/'"));
    const moved = await site.build({ quiet: true });
    // "/blog/posts/second/" is no longer the base: it is a root path, based like any other.
    expect(moved.errors.map((e) => e.text)).toEqual([
      // (quoted as the Markdown writes them, and as served)
      'page /posts/first/ links to /blog/posts/second/ (served as /journal/blog/posts/second/), which is not a page, alias or file',
      'page /posts/third/ links to /blog/posts/second/ (served as /journal/blog/posts/second/), which is not a page, alias or file',
    ]);
    expect(moved.errors.map((e) => e.location?.line)).toEqual([8, 7]);
  }, 120_000);

  it('dev serves the same based links', async () => {
    site = await copyOf('base-blog', {
      'content/posts/third.md': '---\ntitle: Third\ndate: 2026-03-01\nsummary: Links.\ntags: [news]\n---\nRead [the first](/posts/first/).\n',
    });
    const dev = await site.dev();
    try {
      expect(dev.code).toBe(0);
      expect(await (await fetch(`${dev.url}/blog/posts/third/`)).text()).toContain('<a href="/blog/posts/first/">the first</a>');
    } finally { await dev.close(); }
  }, 120_000);

  it('the link check checks the based URL, located at the Markdown line and quoted as written there', async () => {
    site = await copyOf('base-blog', {
      'content/posts/third.md': '---\ntitle: Third\ndate: 2026-03-01\nsummary: Links.\ntags: [news]\n---\nFine: [first](/posts/first/).\n\nBroken: [gone](/posts/gone/).\n\nA typo: [second](/posts/secnd/).\n',
    });
    const r = await site.check();
    expect(r.errors.map((e) => [e.text, e.location?.file, e.location?.line])).toEqual([
      ['page /posts/third/ links to /posts/gone/ (served as /blog/posts/gone/), which is not a page, alias or file', 'content/posts/third.md', 9],
      ['page /posts/third/ links to /posts/secnd/ (served as /blog/posts/secnd/), which is not a page, alias or file', 'content/posts/third.md', 11],
    ]);
    // The page it likely meant, as the Markdown writes links: without the base.
    expect(r.errors[1].hint).toBe('Did you mean /posts/second/?');
  }, 120_000);
});

describe('the init templates under a base', () => {
  it('build clean with only site.base set, every link of theirs under it', async () => {
    site = await siteFrom();
    expect(await runInit(site.root, {})).toBe(0);
    site.edit('sitegen.config.ts', (t) => t.replace("url: 'https://example.com',", "url: 'https://example.com', base: '/blog/',"));
    const r = await site.build({ quiet: true });
    expect(r.errors).toEqual([]);
    const hrefs = Object.entries(r.output()).filter(([f]) => f.endsWith('.html')).flatMap(([, html]) => [...html.matchAll(/ (?:href|src)="(\/[^"]*)"/g)].map((m) => m[1]));
    expect(hrefs.length).toBeGreaterThan(10);
    expect(hrefs.filter((h) => !h.startsWith('/blog/'))).toEqual([]);
  }, 120_000);
});
