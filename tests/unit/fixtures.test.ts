// Each broken fixture site gives exactly the located message a user would read; the valid one builds.
// Builds and checks run in process (tests/helpers/site.ts: the CLI's own code and text, --json included);
// the not-a-site exit stays a real `sitegen` process, a smoke test of the CLI (build-cache.test.ts spawns
// whole builds with --json).
import { describe, expect, it, onTestFinished } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sitegen, fixture } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';
import { treeSnapshot } from '../helpers/tree.ts';

describe('sitegen check on fixture sites', () => {
  it('accepts the valid fixture', async () => {
    const r = await siteAt(fixture('basic')).check();
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/✓ content valid: 5 routes, 2 aliases/);
    expect(r.code).toBe(0);
  });

  it('points each schema problem at its own line, all at once', async () => {
    const r = await siteAt(fixture('schema-error')).check();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('content/items/beta.yaml:2:1 tags: Must have exactly 2 items');
    expect(r.stderr).toContain('content/items/beta.yaml:4:8 price: Expected number, received string "five"');
    expect(r.stderr).toContain('content/items/beta.yaml:5:1 colour: Unknown field "colour"');
    // and, as build does, the fixture's static/ (a link to ../basic/static, outside the site) is refused
    expect(r.stderr).toContain('static Symlink to outside the site root');
    expect(r.stderr).toContain('4 problems found');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('reports YAML syntax errors with line and column', async () => {
    const r = await siteAt(fixture('yaml-error')).check();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/content\/items\/beta\.yaml:2:7 The list that starts with this \[ never ends with a \] \(YAML looked for it up to line 3\)/);
  });

  it('locates an alias in front matter that takes the place of a page, and one written with the base', async () => {
    const site = await copyOf('basic');
    onTestFinished(() => site.remove());
    site.edit('sitegen.config.ts', (t) => t.replace("description: z.string().optional() })", "description: z.string().optional(), aliases: z.array(z.string()).optional() })")
      .replace('title: p.data.title, source: p.file })', 'title: p.data.title, source: p.file, aliases: p.data.aliases })'));
    site.edit('content/pages/about.md', (t) => t.replace('---\n', '---\naliases: [/old-about/, /items/alpha/]\n'));
    const clash = await siteAt(site.root).check();
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('content/pages/about.md:2:24 alias /items/alpha/ → /about/ and page /items/alpha/ (content/items/alpha.yaml) both write items/alpha/index.html');
    site.edit('sitegen.config.ts', (t) => t.replace("url: 'https://fixture.example',", "url: 'https://fixture.example', base: '/sub/',"));
    site.edit('content/pages/about.md', (t) => t.replace('aliases: [/old-about/, /items/alpha/]', 'aliases: [/sub/old-about/]'));
    const based = await siteAt(site.root).check();
    expect(based.code).toBe(1);
    expect(based.stderr).toMatch(/content\/pages\/about\.md:2:11 alias "\/sub\/old-about\/" of \/about\/ starts with site\.base \/sub\/, which the build adds to every path[\s\S]*hint: Write the old URL without the base: "\/old-about\/" \(served as \/sub\/old-about\/\)\./);
    // A site with routes of its own under the base's name (/items/… under base /items/) may mean such an alias.
    site.edit('sitegen.config.ts', (t) => t.replace("base: '/sub/',", "base: '/items/',"));
    site.edit('content/pages/about.md', (t) => t.replace('aliases: [/sub/old-about/]', 'aliases: [/items/old-about/]'));
    expect((await siteAt(site.root).check()).stderr).not.toContain('starts with site.base');
  });

  it('names both sources of a duplicate output path', async () => {
    const r = await siteAt(fixture('duplicate-route')).check();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('content/items/alpha.yaml alias /about/ → /items/alpha/ and page /about/ (content/pages/about.md) both write about/index.html');
  });
});

describe('sitegen build', () => {
  it('fails on a broken link naming page, link and line, and leaves the previous dist untouched', async () => {
    const site = await copyOf('broken-link', {}, { beside: ['basic'] });
    onTestFinished(() => site.remove());
    const root = site.root;
    const dist = path.join(root, 'dist');
    fs.rmSync(dist, { recursive: true, force: true });
    fs.mkdirSync(dist, { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), 'previous build');
    fs.mkdirSync(path.join(dist, 'keep'));
    fs.writeFileSync(path.join(dist, 'keep', 'a.txt'), Buffer.from([0, 1, 2, 255]));
    const before = treeSnapshot(dist);
    const r = await siteAt(root).build();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('content/pages/about.md:4:15 page /about/ links to /nowhere/, which is not a page, alias or file');
    expect(r.stderr).toContain('links to /about, which is not a page, alias or file');
    expect(r.stderr).toContain('hint: Page URLs end with "/": link to /about/ instead.');
    expect(treeSnapshot(dist)).toBe(before);
    expect(fs.readdirSync(root).filter((f) => f.startsWith('dist.'))).toEqual([]);
  });

  it('builds the valid fixture: pages, 404, aliases, host files, hashed assets, summary', async () => {
    // A copy: other test files, in parallel, serve and copy the committed fixture's own dist/.
    const site = await copyOf('basic');
    onTestFinished(() => site.remove());
    const root = site.root;
    const r = await siteAt(root).build();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/render\s+\d+ ms/);
    expect(r.stdout).toMatch(/✓ 5 pages, 2 aliases, \d+ assets/);
    const dist = path.join(root, 'dist');
    for (const f of ['index.html', '404.html', 'about/index.html', 'items/alpha/index.html', 'old/alpha/index.html', 'sitemap.xml', 'robots.txt', '_redirects', '_headers', 'favicon.svg']) {
      expect(fs.existsSync(path.join(dist, f)), f).toBe(true);
    }
    const home = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    expect(home).toMatch(/^<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">/);
    expect(home).toContain('<link rel="canonical" href="https://fixture.example/"/>');
    expect(home).toContain('<meta property="og:title" content="Fixture"/>');
    expect(home).toMatch(/<link rel="stylesheet" href="\/assets\/site-[A-Z0-9]+\.css"\/>/);
    expect(home).toMatch(/<script type="module" src="\/assets\/runtime-[A-Z0-9]+\.js"><\/script>/);
    expect(home).toContain('<sitegen-island data-island="Counter" data-props="{&quot;start&quot;:2,&quot;label&quot;:&quot;Clicks&quot;}" data-hydrate="load"');
    const item = fs.readFileSync(path.join(dist, 'items/alpha/index.html'), 'utf8');
    expect(item).not.toContain('<script');
    expect(item).toContain('<title>Alpha | Fixture</title>');
    expect(fs.readFileSync(path.join(dist, '404.html'), 'utf8')).toContain('<meta name="robots" content="noindex"/>');
    const sitemap = fs.readFileSync(path.join(dist, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('<loc>https://fixture.example/items/alpha/</loc>');
    expect(sitemap).not.toContain('404');
    expect(fs.readFileSync(path.join(dist, '_redirects'), 'utf8')).toContain('/old/alpha/ /items/alpha/ 301');
    expect(fs.readFileSync(path.join(dist, 'old/alpha/index.html'), 'utf8')).toContain('<meta http-equiv="refresh" content="0; url=/items/alpha/">');
    const headers = fs.readFileSync(path.join(dist, '_headers'), 'utf8');
    expect(headers).toContain("script-src 'self';");
    expect(headers).toMatch(/\/assets\/\*\n\s+Cache-Control: public, max-age=31536000, immutable/);
  });

  it('prints errors in the exact esbuild Message shape with --json (0-based byte columns), which esbuild.formatMessages renders', async () => {
    const r = await siteAt(fixture('schema-error')).build({ json: true });
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.errors[0]).toEqual({
      id: 'ContentSchemaError', pluginName: 'sitegen', text: 'tags: Must have exactly 2 items',
      location: { file: 'content/items/beta.yaml', namespace: 'file', line: 2, column: 0, length: 0, lineText: 'tags:', suggestion: '' },
      notes: [{ text: 'hint: Fix the field named, or change the schema in the site config.', location: null }],
      detail: { title: 'Content does not match its schema', hint: 'Fix the field named, or change the schema in the site config.', field: 'tags' },
    });
    // The terminal says 4:8 (1-based); esbuild's column is 0-based.
    expect(json.errors.find((e: any) => e.text.startsWith('price:')).location).toMatchObject({ line: 4, column: 7, lineText: 'price: "five"' });
    expect(json).toHaveProperty('timings');
    const { formatMessages } = await import('esbuild');
    const text = (await formatMessages(json.errors, { kind: 'error', color: false })).join('');
    expect(text).toContain('content/items/beta.yaml:4:7:');
    expect(text).toContain('4 │ price: "five"');
    expect(text).toContain('hint: Fix the field named');
  });

  it('counts esbuild columns in UTF-8 bytes, as esbuild does', async () => {
    const { toEsbuildMessage } = await import('../../src/core/esbuildMessage.ts');
    const m = toEsbuildMessage({ id: 'BrokenLink', text: 'x', location: { file: 'a.md', line: 3, column: 8, lineText: 'Café [a](/b)' }, notes: [] });
    expect(m.location?.column).toBe(8); // "Café [a" is 7 characters and 8 bytes
  });

  it('uses --site-url for canonical URLs and the sitemap', async () => {
    const site = await copyOf('basic');
    onTestFinished(() => site.remove());
    const root = site.root;
    const r = await siteAt(root).build({ out: 'dist-url', siteUrl: 'https://other.example/', quiet: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(fs.readFileSync(path.join(root, 'dist-url/sitemap.xml'), 'utf8')).toContain('https://other.example/about/');
    fs.rmSync(path.join(root, 'dist-url'), { recursive: true, force: true });
  });

  it('refuses a site URL without a scheme or not http(s), naming where it came from, and writes nothing', async () => {
    const site = await copyOf('basic');
    onTestFinished(() => site.remove());
    const flag = await siteAt(site.root).build({ out: 'dist-url', siteUrl: 'example.com', quiet: true });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/The site URL "example\.com" \(--site-url\) is not an absolute http\(s\) URL[\s\S]*hint: Write the origin the site is served at, with its scheme: https:\/\/example\.com\./);
    expect(fs.existsSync(path.join(site.root, 'dist-url'))).toBe(false);
    expect((await siteAt(site.root).build({ out: 'dist-url', siteUrl: 'localhost:3000', quiet: true })).stderr).toContain('with its scheme: https://localhost:3000.');
    const env = await siteAt(site.root).check({ env: { SITE_URL: 'ftp://files.example' } });
    expect(env.stderr).toMatch(/The site URL "ftp:\/\/files\.example" \(SITE_URL\) is not an absolute http\(s\) URL/);
    site.edit('sitegen.config.ts', (t) => t.replace("url: 'https://fixture.example'", "url: 'fixture.example'"));
    const query = await siteAt(site.root).check({ env: { SITE_URL: 'https://other.example/?a=1' } });
    expect(query.stderr).toMatch(/The site URL "https:\/\/other\.example\/\?a=1" \(SITE_URL\) is not an absolute http\(s\) URL without a query or fragment/);
    // One the URL parser reads as an origin is written as it reads it: no stray space, no missing slashes.
    const loose = await siteAt(site.root).build({ out: 'dist-url', siteUrl: ' https:other.example/ ', quiet: true });
    expect(loose.code, loose.stderr).toBe(0);
    expect(fs.readFileSync(path.join(site.root, 'dist-url/sitemap.xml'), 'utf8')).toContain('<loc>https://other.example/about/</loc>');
    const config = await siteAt(site.root).check({ env: { SITE_URL: '' } });
    expect(config.stderr).toMatch(/sitegen\.config\.ts:\d+:\d+ The site URL "fixture\.example" \(site\.url\) is not an absolute http\(s\) URL/);
  });

  it('refuses a site URL with a path when the site has a base (every canonical URL would hold the path twice)', async () => {
    const site = await copyOf('base-blog'); // (site.base '/blog/')
    onTestFinished(() => site.remove());
    const r = await siteAt(site.root).check({ env: { SITE_URL: 'https://user.example.io/blog/' } });
    expect(r.stderr).toMatch(/The site URL "https:\/\/user\.example\.io\/blog\/" \(SITE_URL\) has a path, and site\.base "\/blog\/" adds its own to every URL[\s\S]*hint: The site URL is the origin alone: write https:\/\/user\.example\.io, and keep the path in site\.base\./);
    expect((await siteAt(site.root).check({ env: { SITE_URL: 'https://user.example.io/' } })).code).toBe(0);
  });

  it('refuses a site URL with a path when the site has no base (its links and assets would be written from the host\'s root)', async () => {
    const site = await copyOf('basic');
    onTestFinished(() => site.remove());
    site.edit('sitegen.config.ts', (t) => t.replace("url: 'https://fixture.example'", "url: 'https://user.github.io/repo/'"));
    const r = await siteAt(site.root).build({ quiet: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/sitegen\.config\.ts:\d+:\d+ The site URL "https:\/\/user\.github\.io\/repo\/" \(site\.url\) has a path, but site\.base is not set: links, scripts and stylesheets would be written from the host's root, not from \/repo\/[\s\S]*hint: The site URL is the origin alone: write https:\/\/user\.github\.io, and put the path in site\.base \('\/repo\/'\)/);
    expect(fs.existsSync(path.join(site.root, 'dist'))).toBe(false);
    // The same URL from the environment, and the origin alone passes.
    expect((await siteAt(site.root).check({ env: { SITE_URL: 'https://user.github.io/repo' } })).stderr).toContain('(SITE_URL) has a path, but site.base is not set');
    expect((await siteAt(site.root).check({ env: { SITE_URL: 'https://user.github.io/' } })).code).toBe(0);
  });

  it('refuses a site.base that is a URL or holds what a path cannot, at the key, and takes a bare folder name', async () => {
    const site = await copyOf('base-blog'); // (site.base '/blog/')
    onTestFinished(() => site.remove());
    const cases: [string, RegExp][] = [
      ['https://x.github.io/blog/', /sitegen\.config\.ts:\d+:\d+ site\.base "https:\/\/x\.github\.io\/blog\/" is a URL, not a path[\s\S]*hint: Write the path the site is served under: "\/blog\/"; the origin goes in site\.url\./],
      ['/my blog/', /site\.base "\/my blog\/" has " ", which a URL path cannot hold as it is[\s\S]*hint: Write the folder with a hyphen instead of a space/],
      ['/blog/?x', /site\.base "\/blog\/\?x" has "\?", which a URL path cannot hold as it is/],
    ];
    for (const [base, expected] of cases) {
      fs.writeFileSync(path.join(site.root, 'sitegen.config.ts'), fs.readFileSync(path.join(site.root, 'sitegen.config.ts'), 'utf8').replace(/base: '[^']*'/, `base: '${base}'`));
      const r = await siteAt(site.root).check();
      expect(r.code, base).toBe(1);
      expect(r.stderr, base).toMatch(expected);
    }
    fs.writeFileSync(path.join(site.root, 'sitegen.config.ts'), fs.readFileSync(path.join(site.root, 'sitegen.config.ts'), 'utf8').replace(/base: '[^']*'/, "base: 'blog'"));
    expect((await siteAt(site.root).check()).code).toBe(0);
  });

  it('exits 1 with a clear message when the folder is not a site', () => {
    const r = sitegen(['build', '--root', fixture('')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No sitegen.config.ts in');
    // (no output folder there: none is said to be left as it was)
    expect(r.stderr).toMatch(/✗ build failed with 1 error; nothing was written \(.*dist was not made\)/);
  });
});
