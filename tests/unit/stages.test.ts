// Unit tests of the pure stages: YAML locations, validation messages, glob, routes, links, host files, staging.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createElement } from 'react';
import { parseYamlSource, locate, formatPath } from '../../src/content/yamlSource.ts';
import { validateData } from '../../src/content/validate.ts';
import { matchFiles, globBase, listFiles } from '../../src/content/glob.ts';
import { routeTable, normalisePath, outputFor } from '../../src/pipeline/routeTable.ts';
import { extractLinks, forEachLinkAttr, type PageLinks } from '../../src/pipeline/linkScan.ts';
import { makeTargets } from '../../src/pipeline/linkTargets.ts';
import { checkLinks } from '../../src/pipeline/linkMessages.ts';
import { parseHeadersFile, redirectsChunks, contentSecurityPolicy } from '../../src/output/hostfiles.ts';
import { parseRedirectsFile } from '../../src/output/redirectRules.ts';
import { stageOutput } from '../../src/output/write.ts';
import { defineIsland, collectIslands } from '../../src/render/island.tsx';
import { renderToStaticMarkup } from 'react-dom/server';
import { formatMessage } from '../../src/core/errors.ts';
import { href } from '../../src/public.ts';
import { scratchDir } from '../helpers/scratch.ts';

const YAML_TEXT = `name: x
skills:
  - role: A
    description: a
  - role: B
metrics: [1, 2]
`;

describe('YAML locations', () => {
  const { source } = parseYamlSource(YAML_TEXT, 'c.yaml');
  it('points a scalar at its value and a list at its key', () => {
    expect(locate(source, ['name'])).toMatchObject({ line: 1, column: 7 });
    expect(locate(source, ['skills'])).toMatchObject({ line: 2, column: 1, lineText: 'skills:' });
    expect(locate(source, ['skills', 0, 'description'])).toMatchObject({ line: 4, column: 18 });
  });
  it('points a missing field at its nearest parent', () => {
    expect(locate(source, ['skills', 1, 'description'])).toMatchObject({ line: 5, column: 5 });
  });
  it('offsets front matter lines', () => {
    const { source: fm } = parseYamlSource('title: 1\n', 'a.md', 1);
    expect(locate(fm, ['title'])).toMatchObject({ line: 2 });
  });
  it('formats field paths', () => {
    expect(formatPath(['skills', 3, 'description'])).toBe('skills[3].description');
  });
});

describe('schema validation', () => {
  const schema = z.strictObject({ name: z.string(), skills: z.array(z.strictObject({ role: z.string(), description: z.string() })).length(3) });
  it('reports every issue at its own line with plain messages', () => {
    const { source } = parseYamlSource(YAML_TEXT, 'c.yaml');
    const { errors } = validateData(schema, source.doc.toJS(), source);
    expect(errors.map(formatMessage)).toEqual([
      'c.yaml:2:1 skills: Must have exactly 3 items',
      'c.yaml:5:5 skills[1].description: Required',
      'c.yaml:6:1 metrics: Unknown field "metrics"',
    ]);
  });
  it('one value where a list goes (Eleventy\'s tags: posts): the hint writes it as a list', () => {
    const { source } = parseYamlSource('title: A\ntags: posts\n', 'p.md', 1);
    const { errors } = validateData(z.strictObject({ title: z.string(), tags: z.array(z.string()) }), source.doc.toJS(), source);
    expect(errors.map((e) => [formatMessage(e), e.hint])).toEqual([['p.md:3:7 tags: Expected array, received string "posts"', 'Write a list, even of one: tags: [posts]']]);
  });
  it('a number written as people write it (a decimal comma, separators, a currency, quotes): the hint gives the number', () => {
    const hintFor = (written: string) => {
      const { source } = parseYamlSource(`price: ${written}\n`, 'm.yaml');
      return validateData(z.strictObject({ price: z.number() }), source.doc.toJS(), source).errors.map((e) => e.hint);
    };
    const digits = (n: string) => [`Write a number as YAML and JSON read one: digits with a decimal point, no separators, currency or % (${n}).`];
    expect(hintFor('3,50')).toEqual(digits('3.50'));
    expect(hintFor('1 200,50 €')).toEqual(digits('1200.50'));
    expect(hintFor('1.234,5')).toEqual(digits('1234.5'));
    expect(hintFor('1,200')).toEqual(digits('1200, or 1.200 if the comma is a decimal one'));
    expect(hintFor('1,200,000')).toEqual(digits('1200000'));
    expect(hintFor('$4.99')).toEqual(digits('4.99'));
    expect(hintFor('"3.5"')).toEqual(['Write the number without quotes: 3.5']);
    // Text that is no number keeps the general message and hint.
    const general = ['Fix the field named, or change the schema in the site config.'];
    expect(hintFor('three')).toEqual(general);
    expect(hintFor('3,50,7')).toEqual(general);
    // Tried on the first 40 characters: a long run of digits and separators takes no time.
    expect(hintFor(`${'1,'.repeat(50_000)}x`)).toEqual(general);
  });
});

describe('glob', () => {
  it('matches * within a segment and ** across folders', () => {
    const files = ['a.yaml', 'sectors/online/saas.yaml', 'sectors/x.md', 'deep/a/b/c.md'];
    expect(matchFiles(files, ['sectors/*/*.yaml'])).toEqual(['sectors/online/saas.yaml']);
    expect(matchFiles(files, ['**/*.md'])).toEqual(['sectors/x.md', 'deep/a/b/c.md']);
    expect(globBase('sectors/*/*.yaml')).toBe('sectors');
  });
  it('survives a symlink loop', async () => {
    const dir = scratchDir('sg-glob-');
    fs.mkdirSync(path.join(dir, 'a'));
    fs.writeFileSync(path.join(dir, 'a', 'f.yaml'), 'x: 1');
    fs.symlinkSync(dir, path.join(dir, 'a', 'loop'));
    const files = await listFiles(dir);
    expect(files).toContain('a/f.yaml');
    expect(files.length).toBeLessThan(5);
  });
});

describe('route table', () => {
  const C = () => null;
  const config = (routes: any[]) => ({ site: { title: 't', url: 'https://x' }, collections: {}, routes: () => routes }) as any;
  it('applies one trailing-slash policy', () => {
    expect(normalisePath('/faqs')).toBe('/faqs/');
    expect(outputFor('/a/b/')).toBe('a/b/index.html');
    const t = routeTable({}, config([{ path: '/faqs', component: C, props: {}, title: 'F', aliases: ['/help'] }]));
    expect(t.routes[0]).toMatchObject({ path: '/faqs/', output: 'faqs/index.html', sitemap: true });
    expect(t.aliases).toEqual([{ from: '/help/', to: '/faqs/', output: 'help/index.html', source: null }]);
  });
  it('refuses invalid paths and duplicate outputs', () => {
    const t = routeTable({}, config([
      { path: 'no-slash', component: C, props: {}, title: 'x' },
      { path: '/a/../b', component: C, props: {}, title: 'x' },
      { path: '/dup', component: C, props: {}, title: 'x', source: 'content/one.yaml' },
      { path: '/dup/', component: C, props: {}, title: 'x', source: 'content/two.yaml' },
    ]));
    expect(t.errors.map((e) => e.id)).toEqual(['InvalidRoute', 'InvalidRoute', 'DuplicateRoute']);
    expect(formatMessage(t.errors[2])).toBe('content/two.yaml page /dup/ (content/two.yaml) and page /dup/ (content/one.yaml) both write dup/index.html');
  });
  it('refuses "." and ".." segments anywhere, in paths and aliases, and only those', () => {
    const bad = ['/.', '/..', '/./a', '/a/.', '/a/..', '/a/./b/', '/a/../'];
    const good = ['/.well-known/x/', '/a/..b/', '/a/b../', '/a/.../', '/v1.2/'];
    const t = routeTable({}, config([...bad, ...good].map((path) => ({ path, component: C, props: {}, title: 'x', aliases: path === '/v1.2/' ? ['/x/../y', '/x/.y'] : [] }))));
    expect(t.errors.map((e) => e.text)).toEqual([
      ...bad.map((p) => `route "${p}" must not contain "." or ".." segments`),
      'alias "/x/../y" of /v1.2/ must not contain "." or ".." segments',
    ]);
    expect(t.routes.map((r) => r.path)).toEqual(good);
    expect(t.aliases.map((a) => a.from)).toEqual(['/x/.y/']);
  });
  it('locates a bad alias where its content file writes it (front matter aliases), not at the file alone', () => {
    const root = scratchDir('alias-at');
    try {
      fs.mkdirSync(path.join(root, 'content/posts'), { recursive: true });
      fs.writeFileSync(path.join(root, 'content/posts/a.md'), '---\ntitle: A\naliases: [hello-old, /ok/]\n---\nText.\n');
      const t = routeTable({}, config([{ path: '/posts/a/', component: C, props: {}, title: 'A', source: 'content/posts/a.md', aliases: ['hello-old', '/ok/'] }]), root);
      expect(t.errors.map((e) => [formatMessage(e), e.location?.line, e.location?.column])).toEqual([['content/posts/a.md:3:11 alias "hello-old" of /posts/a/ must start with "/"', 3, 11]]);
      expect(t.errors[0].hint).toBe('An alias is a path from the site\'s root: for the old URL beside this page, write "/posts/hello-old".');
      // A word of the title that is the alias is not it; a source outside the root is not read.
      fs.writeFileSync(path.join(root, 'content/posts/a.md'), '---\ntitle: Old posts\naliases: [posts]\n---\nText.\n');
      const w = routeTable({}, config([{ path: '/x/', component: C, props: {}, title: 'A', source: 'content/posts/a.md', aliases: ['posts'] }]), root);
      expect(w.errors.map((e) => [e.location?.line, e.location?.column])).toEqual([[3, 11]]);
      const out = routeTable({}, config([{ path: '/y/', component: C, props: {}, title: 'A', source: '../../../../etc/passwd', aliases: ['root'] }]), root);
      expect(out.errors.map((e) => [e.location?.file, e.location?.line ?? 0, e.location?.lineText ?? ''])).toEqual([['../../../../etc/passwd', 0, '']]);
      // Nor one a symlinked folder leads out of it; a hyphen inside another value is no list item.
      const outside = scratchDir('alias-outside');
      try {
        fs.writeFileSync(path.join(outside, 'a.md'), '---\nsecret: TOPSECRET-hello-old\n---\n');
        fs.symlinkSync(outside, path.join(root, 'content/ext'));
        const linked = routeTable({}, config([{ path: '/z/', component: C, props: {}, title: 'A', source: 'content/ext/a.md', aliases: ['hello-old'] }]), root);
        expect(linked.errors.map((e) => e.location?.line ?? 0)).toEqual([0]);
      } finally { fs.rmSync(outside, { recursive: true, force: true }); }
      fs.writeFileSync(path.join(root, 'content/posts/a.md'), '---\ntags: [blog-posts]\naliases: [posts]\n---\n');
      const hyphen = routeTable({}, config([{ path: '/x/', component: C, props: {}, title: 'A', source: 'content/posts/a.md', aliases: ['posts'] }]), root);
      expect(hyphen.errors.map((e) => [e.location?.line, e.location?.column])).toEqual([[3, 11]]);
    } finally { fs.rmSync(root, { recursive: true, force: true }); }
  });
});

describe('link check', () => {
  it('extracts internal links only (fragments kept, #top dropped) and the page ids', () => {
    const html = '<a href="/a/">x</a><a href="https://e.com">e</a><a href="#top">t</a><a href="mailto:x@y">m</a><img src="/i.png"><a href="/b/?q=1#h">b</a><a href="rel/">r</a><h2 id="x&amp;y">X</h2><a href="#x&amp;y">s</a><a href="/b/#:~:text=x">t</a>';
    expect(extractLinks(html)).toEqual(['/a/', '/i.png', '/b/#h', 'rel/', 'id:x&y', '#x&y', '/b/']);
    // A query before or after the fragment, a protocol-relative URL, a scheme, the bare '?' and '#'.
    const more = ['/q?a=1', '/f#x?y', '/both?a#b', '//cdn.example/x.js', 'data:x', 'tel:1', '?only', '#', 'rel?x#y', '/p/#top', './a#:~:text=t'];
    expect(extractLinks(more.map((h) => `<a href="${h}">x</a>`).join(''))).toEqual(['/q', '/f#x?y', '/both#b', 'rel#y', '/p/', './a']);
  });
  it('finds exactly the attributes /\\s(href|src|id)="([^"]*)"/g matches, in any text', () => {
    // The scan starts from each `="` instead of running the pattern: the same matches on generated text full
    // of near misses (names glued to other letters, other whitespace, quotes left open, `="` inside values).
    const pattern = /\s(href|src|id)="([^"]*)"/g;
    const pieces = [' href="', 'href="', ' src="', '\tsrc="', ' id="', '\nid="', '\u00a0href="', ' xhref="', ' hsrc="', ' idd="', ' HREF="', '="', '"', '=', ' ', 'a', '/p/', '#x', '<a', '>', '&amp;', 'f', 'c', 'd'];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 5000; n++) {
      let text = '';
      for (let k = Math.floor(next() * 30); k > 0; k--) text += pieces[Math.floor(next() * pieces.length)];
      const found: string[][] = [];
      forEachLinkAttr(text, (name, value) => found.push([name, value]));
      expect(found, JSON.stringify(text)).toEqual([...text.matchAll(pattern)].map((m) => [m[1], m[2]]));
    }
  });
  it('checks #fragments against the ids of the page they point at, same-page and cross-page', () => {
    const targets = makeTargets(['/', '/a/', '/b/'], ['f.pdf', 'a/index.html', 'b/index.html']);
    const pages = [
      { page: '/a/', source: 'content/a.md', links: ['id:intro', '#intro', '#gone', '/b/#usage', '/b/#nope', '../b/index.html#caf%C3%A9', '/f.pdf#page=2'] },
      { page: '/b/', source: null, links: ['id:usage', 'id:café'] },
    ];
    expect(checkLinks(pages, targets).map((e) => [e.text, e.location?.file])).toEqual([
      ['page /a/ links to #gone, but the page has no element with id "gone"', 'content/a.md'],
      ['page /a/ links to /b/#nope, but /b/ has no element with id "nope"', 'content/a.md'],
    ]);
  });
  it('suggests the id a broken fragment is a typo away from', () => {
    const targets = makeTargets(['/a/', '/b/'], []);
    const pages: PageLinks[] = [
      { page: '/a/', source: null, links: ['/b/#set-up', '/b/#zzzzzz'] },
      { page: '/b/', source: null, links: ['id:setup', 'id:usage'] },
    ];
    expect(checkLinks(pages, targets).map((e) => e.hint)).toEqual(['Did you mean /b/#setup?', 'Link to an id the page has: #setup, #usage (headings get ids with markdown({ headingIds: true })).']);
  });
  it('resolves against routes, aliases and files', () => {
    const targets = makeTargets(['/', '/a/'], ['i.png', '404.html']);
    const errors = checkLinks([{ page: '/a/', source: null, links: ['/a/', '/i.png', '/404', '../', 'missing.png', '/a'] }], targets);
    expect(errors.map((e) => e.text)).toEqual([
      'page /a/ links to missing.png, which resolves to /a/missing.png, not a page, alias or file',
      'page /a/ links to /a, which is not a page, alias or file',
    ]);
  });
  it("hints at the page a link meant: a Markdown file's page, or a path a typo away", () => {
    const targets = makeTargets(['/', '/posts/', '/posts/first-page/', '/posts/writing-posts/', '/docs/setup'], []);
    const hints = (links: string[], page = '/posts/welcome/') => checkLinks([{ page, source: null, links }], targets).map((e) => [e.text.replace(/^page \S+ links to /, ''), e.hint]);
    // (relative to the page's URL: beside the file, a folder up, or root-relative)
    expect(hints(['first-page.md', '../first-page.md#intro', '/docs/setup.md'])).toEqual([
      ['first-page.md, which resolves to /posts/welcome/first-page.md, not a page, alias or file', "Link to the page's URL, not its Markdown file: /posts/first-page/"],
      ['../first-page.md, which resolves to /posts/first-page.md, not a page, alias or file', "Link to the page's URL, not its Markdown file: /posts/first-page/"],
      ['/docs/setup.md, which is not a page, alias or file', "Link to the page's URL, not its Markdown file: /docs/setup"],
    ]);
    expect(hints(['/posts/writting-posts/', '/posts/frist-page/', '/nothing/like/any/of/them/'])).toEqual([
      ['/posts/writting-posts/, which is not a page, alias or file', 'Did you mean /posts/writing-posts/?'],
      ['/posts/frist-page/, which is not a page, alias or file', 'Did you mean /posts/first-page/?'],
      ['/nothing/like/any/of/them/, which is not a page, alias or file', expect.not.stringContaining('Did you mean')],
    ]);
    // A relative link written from the page's folder: page URLs end with "/", so it went one folder deeper.
    expect(hints(['./writing-posts/', 'first-page/#x'], '/posts/welcome/')).toEqual([
      ['./writing-posts/, which resolves to /posts/welcome/writing-posts/, not a page, alias or file', 'A relative link resolves against the page\'s URL, which ends with "/", so ./writing-posts/ on /posts/welcome/ is /posts/welcome/writing-posts/: link to /posts/writing-posts/ (or ../writing-posts/).'],
      ['first-page/, which resolves to /posts/welcome/first-page/, not a page, alias or file', 'A relative link resolves against the page\'s URL, which ends with "/", so first-page/ on /posts/welcome/ is /posts/welcome/first-page/: link to /posts/first-page/ (or ../first-page/).'],
    ]);
    // Past the first few broken paths, no path is compared with every page (the check stays linear).
    const many = Array.from({ length: 14 }, (_, i) => `/posts/writting-posts-${i}/`);
    expect(hints(many).filter(([, h]) => /Did you mean/.test(h ?? '')).length).toBe(10);
  });
  it("hints at the page made from the Markdown file a link names, whatever its route made of the file's name", () => {
    // (a Jekyll post's date prefix taken off by routes(): content/posts/2024-04-12-garden-notes.md is /posts/garden-notes/)
    const sources = new Map([['content/posts/2024-04-12-garden-notes.md', '/posts/garden-notes/']]);
    const targets = { ...makeTargets(['/posts/garden-notes/', '/posts/hello/'], []), pageOf: (f: string) => sources.get(f) };
    const page = { page: '/posts/hello/', source: 'content/posts/2024-03-05-hello.md' };
    const hints = checkLinks([{ ...page, links: ['./2024-04-12-garden-notes.md', '2024-04-12-garden-notes.md#intro', '/content/posts/2024-04-12-garden-notes.md', './nothing.md'] }], targets).map((e) => e.hint);
    // (the first two are one broken path: one message)
    expect(hints).toEqual([
      "Link to the page's URL, not its Markdown file: /posts/garden-notes/",
      "Link to the page's URL, not its Markdown file: /posts/garden-notes/",
      expect.not.stringContaining('garden'),
    ]);
    // Under a base, a root-relative Markdown link is served with it: the file is named without it.
    const based = { ...makeTargets(['/posts/garden-notes/'], [], '/blog/'), pageOf: (f: string) => sources.get(f) };
    expect(checkLinks([{ ...page, links: ['/blog/content/posts/2024-04-12-garden-notes.md'] }], based).map((e) => e.hint)).toEqual(["Link to the page's URL, not its Markdown file: /blog/posts/garden-notes/"]);
     // A YAML (or JSON) entry's file too.
    const projects = { ...makeTargets(['/projects/trail-map/'], []), pageOf: (f: string) => (f === 'content/projects/trail-map.yaml' ? '/projects/trail-map/' : undefined) };
    expect(checkLinks([{ page: '/projects/other/', source: 'content/projects/other.md', links: ['./trail-map.yaml'] }], projects).map((e) => e.hint)).toEqual(["Link to the page's URL, not its content file: /projects/trail-map/"]);
  });
  it("hints at the page of the content file a link names by its file name (a blog whose URLs were its file names), not at a path a typo away", () => {
    const sources = new Map([['content/posts/code-post.md', '/posts/code-and-more/'], ['content/posts/2024-03-05-hello.md', '/posts/hello/']]);
    const targets = { ...makeTargets(['/posts/code-and-more/', '/posts/hello/', '/posts/old-post/'], []), pageOf: (f: string) => sources.get(f) };
    const hints = checkLinks([{ page: '/posts/hello/', source: 'content/posts/2024-03-05-hello.md', links: ['../code-post/'] }, { page: '/posts/code-and-more/', source: 'content/posts/code-post.md', links: ['../2024-03-05-hello/'] }], targets).map((e) => e.hint);
    expect(hints).toEqual(['content/posts/code-post.md is served at /posts/code-and-more/ (its route names its page): link there.', 'content/posts/2024-03-05-hello.md is served at /posts/hello/ (its route names its page): link there.']);
    // A root-relative link names a place of the site, not a file beside the page: no such hint.
    const rooted = checkLinks([{ page: '/posts/hello/', source: 'content/posts/2024-03-05-hello.md', links: ['/api/code-post/'] }], targets).map((e) => e.hint ?? '');
    expect(rooted[0]).not.toContain('is served at');
  });
  it('hints at the page of the content file at the place a root-relative link names (an old URL that mirrored the folders)', () => {
    const sources = new Map([['content/posts/trip/index.md', '/blog/trip/'], ['content/notes.md', '/writing/notes/']]);
    const targets = { ...makeTargets(['/blog/trip/', '/writing/notes/', '/posts/njk/'], []), pageOf: (f: string) => sources.get(f) };
    const hints = checkLinks([{ page: '/posts/njk/', source: 'content/posts/njk.md', links: ['/posts/trip/', '/notes/', '/posts/nothing/'] }], targets).map((e) => e.hint ?? '');
    expect(hints.slice(0, 2)).toEqual(['content/posts/trip/index.md is served at /blog/trip/ (its route names its page): link there.', 'content/notes.md is served at /writing/notes/ (its route names its page): link there.']);
    expect(hints[2]).not.toContain('is served at');
  });
});

describe('host files', () => {
  it('round-trips _headers and _redirects', () => {
    const rules = parseHeadersFile('/*\n  X-A: 1\n/assets/*\n  Cache-Control: immutable\n');
    expect(rules[1].pattern.test('/assets/x.js')).toBe(true);
    expect(rules[0].headers).toEqual([['X-A', '1']]);
    const r = parseRedirectsFile([...redirectsChunks([{ from: '/old/', to: '/new/', output: '', source: null }])].join(''));
    expect(r.get('/old')).toEqual({ to: '/new/', status: 301 });
    expect(r.get('/old/')).toEqual({ to: '/new/', status: 301 });
    // As hosts read it: the first rule for a path wins, with its status.
    const own = parseRedirectsFile('/a /b 302\n/a /c 301\n/d /e\n/f /g 404\n/f /h 301\n/i /j 302!\n/k /index.html 200\n');
    expect([...own.exact]).toEqual([['/a', { to: '/b', status: 302 }], ['/d', { to: '/e', status: 301 }], ['/i', { to: '/j', status: 302 }]]);
    // A splat and placeholders, as Netlify and Cloudflare read them: the first rule that matches wins.
    const wild = parseRedirectsFile('/blog/old /kept/ 302\n/blog/* /news/:splat 301\n/news/:year/:slug /posts/:year-:slug/ 308\n/blog/later /never/\n/app/* /index.html 200\n/app/x /y/\n/a*b /c/\n/q id=:id /r/:id 301\n/q /tags/ 301\n/feed /rss.xml?utm_source=old 301\n/au /anz/ 302 Country=au\n');
    expect(wild.get('/blog/old')).toEqual({ to: '/kept/', status: 302 });
    expect(wild.get('/blog/a/b/')).toEqual({ to: '/news/a/b/', status: 301 });
    expect(wild.get('/blog')).toEqual({ to: '/news/', status: 301 });
    expect(wild.get('/blog/later')).toEqual({ to: '/news/later', status: 301 }); // (the splat comes first)
    expect(wild.get('/news/2024/hello/')).toEqual({ to: '/posts/2024-hello/', status: 308 });
    expect(wild.get('/news/2024')).toBeUndefined();
    expect(wild.get('/news//hello')).toBeUndefined(); // (a placeholder takes a segment, never an empty one)
    expect(wild.get('/app/x')).toBeUndefined(); // (a rewrite takes what it matches: the later rule never applies)
    expect(wild.get('/axb')).toBeUndefined();
    // A target with a query is a target; a rule with conditions applies to some requests only: passed over.
    expect([wild.get('/feed'), wild.get('/q'), wild.get('/au')]).toEqual([{ to: '/rss.xml?utm_source=old', status: 301 }, { to: '/tags/', status: 301 }, undefined]);
    // Linear in the path: a long one with many segments is read once.
    expect(wild.get(`/blog/${'a/'.repeat(50_000)}`)?.to.length).toBe(100_006);
  });
  it('merges CSP additions into the strict default', () => {
    const csp = contentSecurityPolicy({ csp: (env: any) => ({ 'connect-src': [env.API], 'frame-src': ['https://f.example'] }) } as any, { API: 'https://api.example' });
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self' https://api.example");
    expect(csp).toContain('frame-src https://f.example');
    // The hosts of images.remote load their images.
    expect(contentSecurityPolicy({ images: { remote: ['images.example.com'] } } as any)).toContain("img-src 'self' data: https://images.example.com;");
  });
  it('normalises template links', () => {
    expect(href('/faqs')).toBe('/faqs/');
    expect(href('/faqs#x')).toBe('/faqs/#x');
    expect(href('/favicon.svg')).toBe('/favicon.svg');
    expect(href('https://e.com/a')).toBe('https://e.com/a');
  });
});

describe('atomic write', () => {
  it('swaps in only on commit and leaves the old output on abort', async () => {
    const dir = scratchDir('sg-write-');
    const out = path.join(dir, 'dist');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'old.html'), 'old');
    const s1 = await stageOutput(out);
    await s1.write('a/index.html', 'new');
    await s1.abort();
    expect(fs.readdirSync(out)).toEqual(['old.html']);
    const s2 = await stageOutput(out);
    await s2.write('a/index.html', 'new');
    await s2.commit();
    expect(fs.readFileSync(path.join(out, 'a/index.html'), 'utf8')).toBe('new');
    expect(fs.existsSync(path.join(out, 'old.html'))).toBe(false);
    expect(fs.readdirSync(dir)).toEqual(['dist']);
  });
});

describe('islands on the server', () => {
  const Hello = ({ name }: { name: string }) => createElement('b', null, 'hi ', name);
  const Island = defineIsland('Hello', Hello);
  it('wraps the island HTML with its name and JSON props, and collects it', () => {
    const { value, islands, eager } = collectIslands(() => renderToStaticMarkup(createElement('div', null, createElement(Island, { name: '</script><x>"', hydrate: 'visible' } as any))));
    expect(value).toBe('<div><sitegen-island data-island="Hello" data-props="{&quot;name&quot;:&quot;&lt;/script&gt;&lt;x&gt;\\&quot;&quot;}" data-hydrate="visible" data-prefix="i0-"><b>hi <!-- -->&lt;/script&gt;&lt;x&gt;&quot;</b></sitegen-island></div>');
    expect(islands).toEqual(['Hello']);
    expect(eager).toEqual([]);
  });
  it('refuses props that are not plain JSON', () => {
    expect(() => collectIslands(() => renderToStaticMarkup(createElement(Island, { name: 'x', onClick: () => 1 } as any)))).toThrow('island Hello: props.onClick is a function; island props must be plain JSON');
    // A Date or a Map says what to pass instead.
    expect(() => collectIslands(() => renderToStaticMarkup(createElement(Island, { name: 'x', since: new Date(0) } as any)))).toThrow('island Hello: props.since is a Date, which JSON carries as a string; pass date.toISOString() and make the Date in the island');
    expect(() => collectIslands(() => renderToStaticMarkup(createElement(Island, { name: 'x', seen: new Set([1]) } as any)))).toThrow('island Hello: props.seen is a Set; island props must be plain JSON (pass an array: [...value])');
  });
});
