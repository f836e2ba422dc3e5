// Incremental builds that leave every file they need not change as it was: a build whose inputs did not
// change writes nothing (pages, static files, assets, host files), one Markdown edit writes only the pages
// that show it, render workers skip unchanged pages too, and a build that fails leaves dist/ as it was.
// A file's identity on disk is its inode and mtime: a file written again gets a new mtime.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { readTree, siteAt, type TestSite } from '../helpers/site.ts';
import { warmCopies } from '../helpers/warmCopies.ts';
import { cleanBuilder } from '../helpers/cleanBuild.ts';
import { stamps, written } from '../helpers/outputStamps.ts';
import { build } from '../../src/pipeline/build.ts';

// Each test has the fixture as committed, at one path (its first build reuses the compile: tests/helpers/warmCopies.ts).
const copies = warmCopies('basic');
let site: TestSite;
beforeEach(async () => { site = await copies.next(); });
afterAll(() => copies.remove());

async function buildOk(env: Record<string, string> = {}) {
  const r = await site.build({ env });
  expect(r.errors).toEqual([]);
  expect(r.code).toBe(0);
  return r;
}

// A clean build of the site as it is now: no output, content, page or build-record cache before it, and
// a compile from nothing whenever the site's code differs from the last clean build's (tests/helpers/cleanBuild.ts).
const cleanBuild = cleanBuilder(siteAt(copies.root));

/** The output a clean build makes of the site as it is now. */
async function clean(): Promise<Record<string, string>> {
  const r = await cleanBuild();
  expect(r.errors).toEqual([]);
  return r.output();
}

describe('a build whose inputs did not change', () => {
  it('writes no file, static files, assets and host files included, and reports what the last build reported', async () => {
    const first = await buildOk();
    const before = stamps(first.outDir);
    expect([...before.keys()]).toEqual(expect.arrayContaining(['favicon.svg', 'sitemap.xml', 'robots.txt', 'index.html']));
    expect([...before.keys()].some((f) => f.startsWith('assets/'))).toBe(true);
    const again = await buildOk();
    expect(written(before, stamps(again.outDir))).toEqual([]);
    expect(again.result.cached).toEqual(['up to date']);
    expect(again.result.pages).toBe(first.result.pages);
    expect(again.result.pageReports).toEqual(first.result.pageReports);
    expect(again.result.rendered).toBe(0);
    expect(again.stdout).toContain(`✓ ${first.result.pages} pages (0 rendered, ${first.result.pages} unchanged),`);
  }, 60_000);

  it('a content file saved again unchanged: the build runs, and still writes no file', async () => {
    const first = await buildOk();
    const before = stamps(first.outDir);
    const about = path.join(site.root, 'content/pages/about.md');
    fs.utimesSync(about, new Date(), new Date(Date.now() + 5000));
    const again = await buildOk();
    expect(again.result.cached).not.toContain('up to date');
    expect(written(before, stamps(again.outDir))).toEqual([]);
  }, 60_000);

  it('a file of dist/ changed, removed or added by hand: the next build puts dist/ back as a clean build has it', async () => {
    const first = await buildOk();
    fs.writeFileSync(path.join(first.outDir, 'about/index.html'), 'edited by hand');
    let r = await buildOk();
    expect(r.output()).toEqual(await clean());
    fs.rmSync(path.join(first.outDir, 'robots.txt'));
    r = await buildOk();
    expect(r.output()).toEqual(await clean());
    fs.writeFileSync(path.join(first.outDir, 'items', 'stray.html'), 'not the build\'s');
    r = await buildOk();
    expect(r.output()).toEqual(await clean());
  }, 90_000);

  it('a content file added is seen although nothing else changed', async () => {
    await buildOk();
    site.write('content/items/gamma.yaml', 'title: Gamma\ntags: [g, h]\nprice: 3\n');
    const r = await buildOk();
    expect(r.output()['items/gamma/index.html']).toContain('Gamma');
    expect(r.output()).toEqual(await clean());
  }, 60_000);

  it('a stylesheet edited (a file of the client bundle, not of content/ or static/) is seen', async () => {
    await buildOk();
    fs.appendFileSync(path.join(site.root, 'templates/site.css'), '\nmain { margin: 7px }\n');
    const r = await buildOk();
    expect(r.result.cached).not.toContain('up to date');
    const css = Object.keys(r.output()).filter((f) => f.endsWith('.css'));
    expect(css.map((f) => r.output()[f]).join('')).toContain('margin:7px');
    expect(r.output()).toEqual(await clean());
  }, 60_000);
});

describe('the environment', () => {
  it('a variable the site reads changes the build; one it never reads does not', async () => {
    // The layout reads it while it renders (read at each render: the site module is imported once per process).
    site.edit('templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', "<footer>footer {process.env.SG_TEST_BRAND ?? ''}</footer>"));
    // In process with process.env itself, as the CLI runs: the build sees which variables are read.
    const run = () => build({ root: site.root, env: process.env });
    try {
      expect((await run()).errors).toEqual([]);
      process.env.SG_TEST_UNRELATED = String(Date.now());
      const same = await run();
      expect(same.cached).toEqual(['up to date']);
      process.env.SG_TEST_BRAND = 'Other brand';
      const changed = await run();
      expect(changed.errors).toEqual([]);
      expect(changed.cached).not.toContain('up to date');
      expect(fs.readFileSync(path.join(site.root, 'dist', 'about', 'index.html'), 'utf8')).toContain('Other brand');
    } finally {
      delete process.env.SG_TEST_UNRELATED;
      delete process.env.SG_TEST_BRAND;
    }
  }, 60_000);
});

describe('one Markdown file changed', () => {
  it('rewrites only the pages that show it, and writes the output a clean build writes', async () => {
    const first = await buildOk();
    const before = stamps(first.outDir);
    site.edit('content/pages/about.md', (t) => t.replace('This is **Markdown**', 'This is **edited Markdown**'));
    const r = await buildOk();
    expect(written(before, stamps(r.outDir))).toEqual(['about/index.html']);
    expect(r.output()).toEqual(await clean());
    // The summary says how much of the site was made again.
    expect(first.result.rendered).toBe(first.result.pages);
    expect(r.result.rendered).toBe(1);
    expect(r.stdout).toContain(`✓ ${r.result.pages} pages (1 rendered, ${r.result.pages - 1} unchanged),`);
  }, 60_000);

  it('a page whose template reads the collection is rewritten with it; the others are not', async () => {
    site.edit('templates/pages.tsx', (t) => t
      .replace('export function Layout({ children }: LayoutProps) {', 'export function Layout({ children, content }: LayoutProps) {')
      .replace('<footer>footer</footer>', "<footer>footer {content.items.map((p: any) => p.data.title).join(' / ')}</footer>"));
    const first = await buildOk();
    const before = stamps(first.outDir);
    site.edit('content/pages/about.md', (t) => t.replace('This is **Markdown**', 'This is **edited Markdown**'));
    let r = await buildOk();
    expect(written(before, stamps(r.outDir))).toEqual(['about/index.html']);
    const middle = stamps(r.outDir);
    site.edit('content/items/beta.yaml', (t) => t.replace(/^title: .*$/m, 'title: Beta renamed'));
    r = await buildOk();
    // Every page with the layout reads the items' titles: all of them, and no file besides pages.
    const again = written(middle, stamps(r.outDir));
    expect(again).toEqual(expect.arrayContaining(['index.html', 'about/index.html', 'items/alpha/index.html', 'items/beta/index.html']));
    expect(again.every((f) => f.endsWith('.html'))).toBe(true);
    expect(r.output()).toEqual(await clean());
  }, 90_000);
});

describe('render workers', () => {
  // Two workers render (the main thread takes no task), and every build stages a whole output: the workers'
  // own path, where the pages kept from the output before the last are neither rendered nor written.
  const env = { SITEGEN_WORKERS: '2', SITEGEN_PARALLEL_MIN: '0', SITEGEN_POOL_MAIN: '0', SITEGEN_POOL_RENDER: '1', SITEGEN_PATCH_MAX: '0' };

  it('render only the pages whose inputs changed', async () => {
    const first = await buildOk(env);
    expect(first.result.workers?.workers).toBe(2);
    await buildOk(env); // into a new folder: the first output is kept for the next build
    const third = await buildOk(env); // in the first output: nothing changed, nothing written
    expect(written(stamps(first.outDir), stamps(third.outDir)).filter((f) => f.endsWith('.html'))).toEqual([]);
    expect(third.result.workers?.tasks.some).toBeUndefined(); // no page rendered at all
    const second = stamps(third.outDir);
    site.edit('content/pages/about.md', (t) => t.replace('This is **Markdown**', 'This is **edited Markdown**'));
    await buildOk(env); // in the second output
    const fifth = await buildOk(env); // in the third: only about changed since
    expect(fifth.result.workers?.tasks.some).toEqual({ total: 1, onMain: 0 });
    expect(written(second, stamps(fifth.outDir)).filter((f) => f.endsWith('.html'))).toEqual(['about/index.html']);
    expect(fifth.output()).toEqual(await clean());
  }, 120_000);
});

describe('a failed incremental build', () => {
  it('leaves dist/ untouched, byte for byte and file for file, and the next good build is a clean one', async () => {
    const first = await buildOk();
    const before = stamps(first.outDir);
    const bytes = readTree(first.outDir);
    // Rendered, then refused by the link check: the changed page waits in memory and is never written.
    site.edit('content/pages/about.md', (t) => t.replace('[an item](/items/alpha/)', '[an item](/items/nowhere/)'));
    site.edit('content/items/alpha.yaml', (t) => t.replace(/price: \d+/, 'price: 12345'));
    const r = await site.build();
    expect(r.code).toBe(1);
    expect(r.errors.length).toBeGreaterThan(0);
    expect(stamps(first.outDir)).toEqual(before);
    expect(readTree(first.outDir)).toEqual(bytes);
    site.edit('content/pages/about.md', (t) => t.replace('/items/nowhere/', '/items/alpha/'));
    const good = await buildOk();
    expect(good.output()).toEqual(await clean());
  }, 90_000);
});
