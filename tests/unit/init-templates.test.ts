// `sitegen init --template blog|docs|minimal`: each starter, as a user gets it, builds with and without a
// site base (every link of its pages under the base, the link check clean), passes `sitegen check` with its
// type check, and is valid HTML on every page; and the features each starter promises are on its pages: the
// blog's pages of posts, tag pages, feed and draft, the docs' sidebar, contents, previous/next and search index.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { runInit, selfSpec } from '../../cli/init.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { siteFrom, type BuildRun, type TestSite } from '../helpers/site.ts';
import { REPO } from '../helpers/cli.ts';

const validator = new HtmlValidate(new FileSystemConfigLoader());

/** Runs init in process, returning its exit code and what it printed. */
async function init(dir: string, flags: { template?: string; force?: boolean }): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => { err += String(s); return true; });
  try {
    const code = await runInit(dir, flags);
    return { code, out: out.replace(/\x1b\[[0-9;]*m/g, ''), err: err.replace(/\x1b\[[0-9;]*m/g, '') };
  } finally { o.mockRestore(); e.mockRestore(); }
}

/** A new folder with the starter `template` written by init, its tsconfig pointing sitegen-islands at this checkout. */
async function starter(template: string): Promise<TestSite> {
  const site = await siteFrom();
  const r = await init(site.root, { template });
  expect(r.code, r.err).toBe(0);
  expect(r.out).toContain(`created a ${template} site`);
  // An installed site resolves the package's shipped types; here the engine's sources stand in for them.
  const tsconfig = JSON.parse(site.file('tsconfig.json'));
  tsconfig.compilerOptions.paths = { 'sitegen-islands': [path.join(REPO, 'src/public.ts')] };
  tsconfig.compilerOptions.types = [...tsconfig.compilerOptions.types, 'node'];
  site.write('tsconfig.json', JSON.stringify(tsconfig, null, 2));
  return site;
}

const pagesOf = (out: Record<string, string>) => Object.entries(out).filter(([f]) => f.endsWith('.html'));
const linksOf = (html: string) => [...html.matchAll(/ (?:href|src)="([^"]*)"/g)].map((m) => m[1]!);

async function invalidHtml(out: Record<string, string>): Promise<string[]> {
  const problems: string[] = [];
  for (const [file, html] of pagesOf(out)) {
    const report = await validator.validateString(html, path.join(REPO, 'x.html'));
    problems.push(...report.results.flatMap((r) => r.messages.map((m) => `${file}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`)));
  }
  return problems;
}

interface Built { site: TestSite; plain: Record<string, string>; based: Record<string, string>; basedRun: BuildRun }
const built: Record<string, Built> = {};
const building: Record<string, Promise<Built>> = {};
/** Each starter is built once, by whichever describe block needs it first. */
async function builtStarter(template: string): Promise<void> {
  built[template] = await (building[template] ??= buildBoth(template));
}

/** Init, build, then build again under /sub/. */
async function buildBoth(template: string): Promise<Built> {
  const site = await starter(template);
  const plainRun = await site.build({ quiet: true });
  expect(plainRun.errors, plainRun.stderr).toEqual([]);
  const plain = plainRun.output();
  site.edit('sitegen.config.ts', (t) => t.replace("url: 'https://example.com',", "url: 'https://example.com', base: '/sub/',"));
  const basedRun = await site.build({ quiet: true });
  expect(basedRun.errors, basedRun.stderr).toEqual([]);
  return { site, plain, based: basedRun.output(), basedRun };
}

afterAll(() => { for (const b of Object.values(built)) b.site.remove(); });

describe.each(['blog', 'docs', 'minimal'])('sitegen init --template %s', (template) => {
  beforeAll(() => builtStarter(template), 180_000);

  it('builds valid HTML with and without a base; under /sub/ every link of its pages is under it', async () => {
    const { plain, based } = built[template]!;
    expect(pagesOf(plain).length).toBeGreaterThan(3);
    expect(await invalidHtml(plain)).toEqual([]);
    expect(await invalidHtml(based)).toEqual([]);
    const rooted = pagesOf(based).flatMap(([file, html]) => linksOf(html).filter((l) => l.startsWith('/') && !l.startsWith('/sub/')).map((l) => `${file}: ${l}`));
    expect(rooted).toEqual([]);
    const files = (out: Record<string, string>) => Object.keys(out).map((f) => f.replace(/-[A-Z0-9]{8}\.(js|css)$/, '.$1')).sort();
    expect(files(based)).toEqual(files(plain));
  });

  it('passes sitegen check, its type check included', async () => {
    const r = await built[template]!.site.check();
    expect(r.errors, r.stderr).toEqual([]);
    expect(r.stdout).toMatch(/✓ content valid: \d+ routes, 0 aliases, \d+ files type-checked/);
  }, 120_000);
});

describe('the minimal starter\'s pages of posts under a base', () => {
  it('link to each other under the base once there is more than one (its two published posts, one a page)', async () => {
    const site = await starter('minimal');
    try {
      site.edit('sitegen.config.ts', (t) => t.replace('{ size: 10, path: \'/\' }', '{ size: 1, path: \'/\' }').replace("url: 'https://example.com',", "url: 'https://example.com', base: '/sub/',"));
      const run = await site.build({ quiet: true });
      expect(run.errors, run.stderr).toEqual([]);
      const out = run.output();
      expect(out['index.html']).toContain('<a href="/sub/page/2/" rel="next">');
      expect(out['page/2/index.html']).toContain('<a href="/sub/" rel="prev">');
    } finally { site.remove(); }
  }, 120_000);
});

describe('init\'s next step', () => {
  it('says to run npm install while a package the site\'s package.json names (one init added: TypeScript) is not installed', async () => {
    // A folder of its own, with a node_modules of its own (a test site's is a link to the repository's).
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-init-next-'));
    const write = (rel: string, text: string) => { fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true }); fs.writeFileSync(path.join(root, rel), text); };
    try {
      write('package.json', JSON.stringify({ name: 'mine', dependencies: { react: '^19' } }));
      write('node_modules/react/package.json', '{"name":"react"}');
      const first = await init(root, {});
      expect(first.out).toMatch(/added to your package\.json: .*typescript/);
      // sitegen itself is named by a version range, which the registry does not answer yet: the tarball route.
      expect(first.out).toMatch(/next: sitegen-islands is not on the npm registry yet, so npm install cannot fetch it: pack this copy of it once,\n {8}\(cd \S+ && npm pack --pack-destination \/tmp\)\n {8}then (cd \S+ && )?mkdir -p vendor && cp \/tmp\/sitegen-islands-[\d.]+\.tgz vendor\/ && npm install \.\/vendor\/sitegen-islands-[\d.]+\.tgz && npm run dev\n$/);
      write('node_modules/sitegen-islands/package.json', '{"name":"sitegen-islands"}');
      expect((await init(root, { force: true })).out).toMatch(/next: (cd \S+ && )?npm install && npm run dev\n$/);
      const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
      for (const d of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) write(`node_modules/${d}/package.json`, JSON.stringify({ name: d }));
      const again = await init(root, { force: true });
      expect(again.out).toMatch(/next: (cd \S+ && )?npm run dev\n$/);
    } finally { fs.rmSync(root, { recursive: true, force: true }); }
  });
});

describe('init in a folder with a package.json of its own', () => {
  it('keeps its keys in their order and adds only what the site needs (no name, version or private of the starter\'s)', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-init-merge-'));
    try {
      const own = { name: 'mine', description: 'my notes', license: 'MIT', scripts: { test: 'node t.js', build: 'make' }, dependencies: { react: '^19' } };
      fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify(own, null, 2));
      expect((await init(root, {})).code).toBe(0);
      const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
      expect(Object.keys(pkg).slice(0, 5)).toEqual(['name', 'description', 'license', 'scripts', 'dependencies']);
      expect(pkg).not.toHaveProperty('private');
      expect(pkg).not.toHaveProperty('version');
      expect(pkg.type).toBe('module');
      // Its own scripts first and unchanged (its build stays make); the starter's others after them.
      expect(Object.keys(pkg.scripts).slice(0, 2)).toEqual(['test', 'build']);
      expect(pkg.scripts.build).toBe('make');
      expect(pkg.scripts.dev).toBe('sitegen dev');
      expect(pkg.dependencies.react).toBe('^19');
      expect(Object.keys(pkg.dependencies)).toContain('sitegen-islands');
    } finally { fs.rmSync(root, { recursive: true, force: true }); }
  });
});

describe('init into a new folder, run from a sitegen installed from a tarball', () => {
  it('copies the tarball into the new site\'s vendor/ and names it there, so npm install finds it (it is not on the registry)', () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-init-spec-'));
    try {
      const pkgDir = path.join(project, 'node_modules', 'sitegen-islands');
      fs.mkdirSync(pkgDir, { recursive: true });
      fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify({ name: 'sitegen-islands', version: '0.1.0' }));
      fs.mkdirSync(path.join(project, 'vendor'));
      fs.writeFileSync(path.join(project, 'vendor/sitegen-islands-0.1.0.tgz'), 'a tarball');
      fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'p', dependencies: { 'sitegen-islands': 'file:vendor/sitegen-islands-0.1.0.tgz' } }));
      const site = path.join(project, 'my-site');
      expect(selfSpec(site, pkgDir)).toBe('file:vendor/sitegen-islands-0.1.0.tgz');
      expect(fs.readFileSync(path.join(site, 'vendor/sitegen-islands-0.1.0.tgz'), 'utf8')).toBe('a tarball');
      // In the project itself: its own spec, nothing copied. From a registry install: the version range.
      expect(selfSpec(project, pkgDir)).toBe('file:vendor/sitegen-islands-0.1.0.tgz');
      fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'p', dependencies: { 'sitegen-islands': '^0.1.0' } }));
      expect(selfSpec(path.join(project, 'other'), pkgDir)).toBe('^0.1.0');
      expect(fs.existsSync(path.join(project, 'other'))).toBe(false);
    } finally { fs.rmSync(project, { recursive: true, force: true }); }
  });
});

describe('init in the folder Getting started makes', () => {
  it('takes a folder with vendor/ holding the sitegen tarball as empty, and not one whose vendor/ holds anything else', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-init-vendor-'));
    try {
      fs.mkdirSync(path.join(root, 'vendor'));
      fs.writeFileSync(path.join(root, 'vendor/sitegen-islands-0.1.0.tgz'), 'a tarball');
      fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'mine', dependencies: { 'sitegen-islands': 'file:vendor/sitegen-islands-0.1.0.tgz' } }));
      const first = await init(root, {});
      expect(first.code).toBe(0);
      expect(fs.existsSync(path.join(root, 'sitegen.config.ts'))).toBe(true);
      expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies['sitegen-islands']).toBe('file:vendor/sitegen-islands-0.1.0.tgz');
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-init-vendor-'));
      try {
        fs.mkdirSync(path.join(other, 'vendor'));
        fs.writeFileSync(path.join(other, 'vendor/notes.txt'), 'mine');
        const refused = await init(other, {});
        expect(refused.code).toBe(1);
        expect(refused.err).toMatch(/is not empty \(vendor\)/);
      } finally { fs.rmSync(other, { recursive: true, force: true }); }
    } finally { fs.rmSync(root, { recursive: true, force: true }); }
  });
});

describe('the blog starter', () => {
  beforeAll(() => builtStarter('blog'), 180_000);
  const page = (rel: string) => built.blog!.plain[rel] ?? '';
  const postLinks = (html: string) => [...html.matchAll(/<h2><a href="\/posts\/([^"/]+)\/">/g)].map((m) => m[1]);

  it('splits the posts into pages of three, newest first, linked to each other', () => {
    expect(postLinks(page('index.html'))).toEqual(['feeds', 'tags-and-pages', 'a-picture']);
    expect(postLinks(page('page/2/index.html'))).toEqual(['writing-posts', 'welcome']);
    expect(page('index.html')).toContain('<a href="/page/2/" rel="next">');
    expect(page('index.html')).not.toContain('rel="prev"');
    expect(page('page/2/index.html')).toContain('<a href="/" rel="prev">');
    expect(page('page/2/index.html')).not.toContain('rel="next"');
    expect(built.blog!.based['page/2/index.html']).toContain('<a href="/sub/" rel="prev">');
  });

  it('shows each post with its author, reading time and excerpt in the list', () => {
    const home = page('page/2/index.html');
    expect(home).toMatch(/January 5, 2026<\/time> · Ada Park · 1 min read/);
    // The excerpt of a post with a `<!-- more -->` line is what comes before it.
    expect(home).toContain('<p>This blog is a starting point: change the posts, the authors and the templates and it becomes yours. ');
    expect(home).not.toContain('What is where');
  });

  it('has a page per tag listing its posts, and an index of tags with their counts', () => {
    expect(postLinks(page('tags/writing/index.html'))).toEqual(['tags-and-pages', 'writing-posts']);
    expect(postLinks(page('tags/publishing/index.html'))).toEqual(['feeds', 'tags-and-pages']);
    const index = page('tags/index.html');
    expect([...index.matchAll(/<a href="\/tags\/([^"/]+)\/">#[^<]+<\/a> <span>(\d+) posts?<\/span>/g)].map((m) => `${m[1]}:${m[2]}`))
      .toEqual(['images:1', 'markdown:1', 'publishing:2', 'welcome:1', 'writing:2']);
  });

  it('leaves the draft out of pages, lists, tags, the feed and the sitemap; --drafts builds it', async () => {
    const { plain, site } = built.blog!;
    expect(Object.keys(plain).filter((f) => /coming-soon|unpublished/.test(f))).toEqual([]);
    for (const [file, text] of Object.entries(plain)) expect(text, file).not.toMatch(/Coming soon|coming-soon|unpublished/);
    const drafts = await site.build({ drafts: true, out: 'dist-drafts' });
    expect(drafts.errors).toEqual([]);
    // Said under the summary: such an output is a preview.
    expect(drafts.stdout).toMatch(/note built with --drafts: drafts are published in this output, so it is a preview; build without --drafts to deploy/);
    expect(drafts.read('posts/coming-soon/index.html')).toContain('<mark>draft</mark>');
    expect(drafts.read('tags/unpublished/index.html')).toContain('/sub/posts/coming-soon/');
  }, 60_000);

  it('writes an RSS feed of every published post with absolute URLs, linked from the pages', () => {
    const rss = page('rss.xml');
    expect([...rss.matchAll(/<item><title>([^<]+)<\/title><link>([^<]+)<\/link>/g)].map((m) => m[2]))
      .toEqual(['feeds', 'tags-and-pages', 'a-picture', 'writing-posts', 'welcome'].map((s) => `https://example.com/posts/${s}/`));
    expect(built.blog!.based['rss.xml']).toContain('<link>https://example.com/sub/posts/welcome/</link>');
    // The post with a cover carries it (its version at most 1200 px wide), under the base too: one item, one image.
    expect(rss.match(/<media:content url="https:\/\/example\.com\/assets\/img\/\w{22}\/morning-1200\.jpg" medium="image" type="image\/jpeg"\/>/g)).toHaveLength(1);
    expect(built.blog!.based['rss.xml']).toMatch(/<media:content url="https:\/\/example\.com\/sub\/assets\/img\/\w{22}\/morning-1200\.jpg"/);
    expect(page('index.html')).toMatch(/<link rel="alternate" type="application\/rss\+xml" title="My blog \(RSS\)" href="\/rss\.xml"\/?>/);
    // Served as RSS by hosts that read _headers (and by preview and dev).
    expect(page('_headers')).toContain('/rss.xml\n  Content-Type: application/rss+xml; charset=utf-8');
  });

  it('dates each post in the sitemap by its date, and no other page', () => {
    const sitemap = page('sitemap.xml');
    expect(sitemap).toContain('<url><loc>https://example.com/posts/welcome/</loc><lastmod>2026-01-05</lastmod></url>');
    expect(sitemap.match(/<lastmod>/g)).toHaveLength(5);
    expect(sitemap).toContain('<url><loc>https://example.com/tags/</loc></url>');
  });

  it('renders posts with heading ids, footnotes, highlighted code, the author and a picture', () => {
    const post = page('posts/writing-posts/index.html');
    expect(post).toMatch(/<h2 id="code-that-is-highlighted">Code that is highlighted /);
    expect(post).toContain('href="#code-that-is-highlighted"');
    expect(post).toContain('<sup><a id="footnote-ref-1" href="#footnote-1"');
    expect(post).toContain('id="footnote-1"');
    expect(post).toContain('<span class="token keyword">export</span>');
    expect(post).toContain('<strong>Ada Park</strong> — Writes about the web, type systems and bread.');
    const picture = page('posts/a-picture/index.html');
    // The picture next to the post is published as AVIF and WebP variants, sized and lazy.
    expect(picture).toMatch(/<picture><source type="image\/avif" srcset="\/assets\/img\/\w+\/evening-640\.avif 640w, [^"]+"/);
    expect(picture).toMatch(/<source type="image\/webp" srcset="\/assets\/img\/\w+\/evening-640\.webp 640w/);
    expect(picture).toMatch(/<img src="\/assets\/img\/\w+\/evening-960\.jpg" alt="Orange evening sky over two dark blue mountain ridges, with a pale sun" width="960" height="540" loading="lazy" decoding="async">/);
    expect(built.blog!.based['posts/a-picture/index.html']).toMatch(/<img src="\/sub\/assets\/img\/\w+\/evening-960\.jpg"/);
    // Every variant is published, and the original is not.
    const based = built.blog!.based['posts/a-picture/index.html']!;
    const variants = [...based.matchAll(/\/sub\/(assets\/img\/\w+\/evening-\d+\.(?:avif|webp|jpg))/g)].map((m) => m[1]!);
    expect(new Set(variants).size).toBe(5);
    for (const v of new Set(variants)) expect(fs.statSync(path.join(built.blog!.basedRun.outDir, v)).size).toBeLessThan(60_000);
    expect(fs.existsSync(path.join(built.blog!.basedRun.outDir, 'posts/a-picture/evening.jpg'))).toBe(false);
    // The cover its front matter names (imageFile()): the page's main image, preloaded, its versions made; the
    // 1600 px original is not published anywhere.
    expect(post).toMatch(/<link rel="preload" as="image" href="\/assets\/img\/\w+\/morning-1280\.jpg" imagesrcset="\/assets\/img\/\w+\/morning-640\.avif 640w, [^"]*" imagesizes="\(min-width: 46\.5rem\) 44rem, calc\(100vw - 2\.5rem\)" type="image\/avif" fetchpriority="high"\/?>/i);
    expect(post).toMatch(/<picture><source type="image\/avif" srcset="[^"]*morning-1600\.avif 1600w" sizes="[^"]+"\/?><source type="image\/webp"[^>]*><img src="\/assets\/img\/\w+\/morning-1280\.jpg" alt="A yellow sun rising between two green hills under a pale blue sky" width="1280" height="720" decoding="auto" fetchpriority="high" class="cover"\/?><\/picture>/i);
    const out = built.blog!.basedRun.outDir;
    const covers = [...built.blog!.based['posts/writing-posts/index.html']!.matchAll(/\/sub\/(assets\/img\/\w+\/morning-\d+\.(?:avif|webp|jpg))/g)].map((m) => m[1]!);
    expect(new Set(covers).size).toBe(10); // (nine in the picture and its preload, one for link previews)
    for (const v of new Set(covers)) expect(fs.existsSync(path.join(out, v))).toBe(true);
    expect(fs.readdirSync(out, { recursive: true, encoding: 'utf8' }).some((f) => f.endsWith('morning.jpg'))).toBe(false);
    // (that post is a folder, posts/writing-posts/index.md beside its picture, served at the folder's name)
    expect(fs.existsSync(path.join(built.blog!.site.root, 'content/posts/writing-posts/index.md'))).toBe(true);
    // …and its link preview image, at most 1200 px wide.
    expect(post).toMatch(/<meta property="og:image" content="https:\/\/example\.com\/assets\/img\/\w+\/morning-1200\.jpg"\/?><meta property="og:image:width" content="1200"\/?><meta property="og:image:height" content="675"\/?>/);
  });

  it("has no hand-written pagination, tag grouping or draft filter in routes()", () => {
    const config = built.blog!.site.file('sitegen.config.ts');
    expect(config).toContain('paginate(');
    expect(config).toContain('taxonomy(');
    expect(config).not.toMatch(/\.filter\(|\.reduce\(|groupBy/);
    // (one slice: the feed's 20 newest posts, not a page of them)
    expect(config.match(/\.slice\([^)]*\)/g)).toEqual(['.slice(0, 20)']);
  });
});

describe('the docs starter', () => {
  beforeAll(() => builtStarter('docs'), 180_000);
  const page = (rel: string) => built.docs!.plain[rel] ?? '';
  const sidebar = (html: string) => {
    const nav = /<nav id="docs-nav" class="sidebar" aria-label="Documentation" popover="auto">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    return [...nav.matchAll(/<h2>([^<]+)<\/h2>|<a href="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
  };

  it('lists every page in the sidebar, nested pages under their section, in order', () => {
    const expected = ['/', 'Getting started', '/getting-started/installation/', '/getting-started/first-page/',
      'Guides', '/guides/writing-pages/', '/guides/components/', '/guides/search/', 'Reference', '/reference/configuration/'];
    expect(sidebar(page('guides/search/index.html'))).toEqual(expected);
    expect(sidebar(built.docs!.based['index.html'])).toEqual(expected.map((e) => (e.startsWith('/') ? `/sub${e}` : e)));
    expect(page('guides/search/index.html')).toContain('<a href="/guides/search/" aria-current="page">Search</a>');
  });

  it('has an on-page contents list that links to the ids of the headings', () => {
    const html = page('guides/writing-pages/index.html');
    const toc = /<nav class="toc" aria-label="On this page">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    const links = [...toc.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    expect(links).toEqual(['headings', 'linking-to-another-page', 'code', 'footnotes']);
    for (const id of links) expect(html).toMatch(new RegExp(`<h[23] id="${id}">`));
    expect(html).toContain('<span class="token keyword">export</span>');
  });

  it('links each page to the previous and the next in the sidebar order', () => {
    const prevNext = (rel: string) => {
      const html = page(rel);
      return [/<a href="([^"]+)" rel="prev">/.exec(html)?.[1] ?? null, /<a href="([^"]+)" rel="next">/.exec(html)?.[1] ?? null];
    };
    expect(prevNext('index.html')).toEqual([null, '/getting-started/installation/']);
    expect(prevNext('getting-started/first-page/index.html')).toEqual(['/getting-started/installation/', '/guides/writing-pages/']);
    expect(prevNext('reference/configuration/index.html')).toEqual(['/guides/search/', null]);
  });

  it('writes a search index of titles, sections, excerpts and headings, with links under the base', () => {
    const index = JSON.parse(built.docs!.based['search.json']!) as { title: string; path: string; section: string | null; excerpt: string; headings: { text: string; path: string }[] }[];
    expect(index.map((e) => e.path)).toEqual(['/sub/', '/sub/getting-started/installation/', '/sub/getting-started/first-page/',
      '/sub/guides/writing-pages/', '/sub/guides/components/', '/sub/guides/search/', '/sub/reference/configuration/']);
    const install = index[1]!;
    expect(install).toMatchObject({ title: 'Installation', section: 'Getting started', excerpt: 'You need Node.js 20.19 or later. Check the version you have:' });
    expect(install.headings).toEqual([{ text: 'Install', path: '/sub/getting-started/installation/#install' }, { text: 'Run it', path: '/sub/getting-started/installation/#run-it' }]);
  });

  it('renders the components its pages use in Markdown: tabs as an island, readable before its script runs, and callouts', () => {
    const home = page('index.html');
    expect(home).toContain('data-island="Tabs"');
    expect([...home.matchAll(/<section class="tab" data-label="([^"]+)"/g)].map((m) => m[1])).toEqual(['npm', 'pnpm', 'yarn']);
    const install = page('getting-started/installation/index.html');
    expect([...install.matchAll(/<section class="tab" data-label="([^"]+)"/g)].map((m) => m[1])).toEqual(['npm', 'pnpm', 'yarn']);
    expect(install).toContain('<div class="callout callout-warning" role="note"><p class="callout-title">Node.js 20.19 or later</p>');
    const components = page('guides/components/index.html');
    expect(components).toContain('<div class="callout callout-tip" role="note"><p class="callout-title">Keep it short</p>');
    expect([...components.matchAll(/<section class="tab" data-label="([^"]+)"/g)].map((m) => m[1])).toEqual(['macOS', 'Windows']);
  });

  it('refuses a component attribute its schema does not accept, at its line', async () => {
    const { site } = built.docs!;
    const file = 'content/docs/guides/components.md';
    const before = site.file(file);
    // The callout after the Markdown sample (the one in the ````md fence is text, not a component).
    site.edit(file, (t) => t.replace('````\n\n:::Callout{type="tip"', '````\n\n:::Callout{type="danger"'));
    try {
      const r = await site.check({ typecheck: false });
      expect(r.code).toBe(1);
      expect(r.errors.map((e) => [e.id, e.location?.file, e.location?.line])).toEqual([['ComponentError', file, 21]]);
      expect(r.errors[0]!.text).toMatch(/^Attribute "type" of Callout: /);
    } finally { site.write(file, before); }
  }, 60_000);

  it('refuses a page in a folder that is not a section, at that page', async () => {
    const { site } = built.docs!;
    site.write('content/docs/recipes/one.md', '---\ntitle: One\ndescription: A recipe.\norder: 1\n---\nText.\n');
    try {
      const r = await site.check({ typecheck: false });
      expect(r.code).toBe(1);
      expect(r.errors.map((e) => [e.location?.file, e.text])).toEqual([
        ['content/docs/recipes/one.md', 'the folder "recipes" is not a section of content/sections.yaml: add it there'],
      ]);
    } finally { fs.rmSync(path.join(site.root, 'content/docs/recipes'), { recursive: true }); }
  }, 60_000);

  it("serves a folder's index.md at the folder's path (a page kept beside its pictures)", async () => {
    const { site } = built.docs!;
    const file = 'content/docs/guides/deploying/index.md';
    const dev = await createDevSite({ root: site.root });
    try {
      site.write(file, '---\ntitle: Deploying\ndescription: Put it online.\norder: 9\n---\n\nSteps.\n');
      expect((await dev.start()).errors).toEqual([]);
      expect(dev.output.pages.has('guides/deploying/index.html')).toBe(true);
      expect([...dev.output.pages.keys()].some((f) => f.includes('deploying/index/'))).toBe(false);
    } finally { await dev.close(); fs.rmSync(path.join(site.root, 'content/docs/guides/deploying'), { recursive: true, force: true }); }
  }, 60_000);

  it('in dev, a page added is in the sidebar of every page, and once deleted in none (no stale link to it)', async () => {
    const { site } = built.docs!;
    const file = 'content/docs/reference/glossary.md';
    const dev = await createDevSite({ root: site.root });
    try {
      expect((await dev.start()).errors).toEqual([]);
      const pages = () => [...dev.output.pages].filter(([f]) => f.endsWith('index.html') && f !== '404.html');
      expect(pages().length).toBeGreaterThan(4);
      site.write(file, '---\ntitle: Glossary\ndescription: Words.\norder: 5\n---\n\nWords.\n');
      expect((await dev.apply([{ file, kind: 'add' }]))?.errors).toEqual([]);
      const glossary = (html: string) => sidebar(html).some((l) => l?.endsWith('/reference/glossary/'));
      for (const [f, p] of pages()) expect(glossary(p.html), f).toBe(true);
      fs.rmSync(path.join(site.root, file));
      expect((await dev.apply([{ file, kind: 'unlink' }]))?.errors).toEqual([]);
      for (const [f, p] of pages()) expect(glossary(p.html), f).toBe(false);
    } finally { await dev.close(); fs.rmSync(path.join(site.root, file), { force: true }); }
  }, 60_000);
});

describe('sitegen init --template with an unknown name', () => {
  it('is an error that lists the templates, suggests the closest, and writes nothing', async () => {
    const site = await siteFrom();
    try {
      const r = await init(site.root, { template: 'blgo' });
      expect(r.code).toBe(1);
      expect(r.err).toBe('✗ there is no starter template "blgo": did you mean "blog"?\n  hint: --template takes one of blog, docs, minimal\n');
      expect(fs.readdirSync(site.root)).toEqual(['node_modules']);
      const far = await init(site.root, { template: 'portfolio' });
      expect(far.err).toContain('✗ there is no starter template "portfolio"\n');
    } finally { site.remove(); }
  });

  it('writes the minimal starter when no template is named', async () => {
    const site = await siteFrom();
    try {
      expect((await init(site.root, {})).code).toBe(0);
      expect(site.file('templates/islands/Counter.tsx')).toContain('export default function Counter');
      expect(fs.existsSync(path.join(site.root, 'content/sections.yaml'))).toBe(false);
    } finally { site.remove(); }
  });
});
