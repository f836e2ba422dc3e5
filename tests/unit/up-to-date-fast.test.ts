// A build with nothing changed answers from the last build's record without loading the rest of the engine:
// it must still see every change a user can make (a content file edited in place, a static file added, an
// output file edited, deleted or added to by hand, a variable the site reads, another flag), and when
// nothing changed it says so, prints what the last build printed, and touches no file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { copyOf, type TestSite } from '../helpers/site.ts';
import { stamps, written } from '../helpers/outputStamps.ts';
import { runBuild, type Io } from '../../cli/commands.ts';

let site: TestSite;
beforeEach(async () => { site = await copyOf('basic'); });
afterEach(() => site?.remove());

const record = () => path.join(site.root, '.sitegen', 'cache', 'build.json');

async function buildOk(opts: Parameters<TestSite['build']>[0] = {}) {
  const r = await site.build(opts);
  expect(r.errors).toEqual([]);
  expect(r.code).toBe(0);
  return r;
}

const upToDate = (r: { result: { cached: string[] } }) => r.result.cached.includes('up to date');

/** The terminal text without the times, which differ from run to run. */
const untimed = (s: string) => s.split('\n').filter((l) => !/\d+ ms/.test(l)).join('\n');

describe('nothing changed', () => {
  it('says up to date, prints the page types the last build printed, and writes no file, its record included', async () => {
    const first = await buildOk();
    const before = stamps(first.outDir);
    const recordBefore = fs.statSync(record());
    const again = await buildOk();
    expect(upToDate(again)).toBe(true);
    expect(again.stdout).toContain('up to date');
    expect(untimed(again.stdout)).toContain(untimed(first.stdout.slice(first.stdout.indexOf('  page type'))));
    expect(written(before, stamps(again.outDir))).toEqual([]);
    const recordAfter = fs.statSync(record());
    expect([recordAfter.ino, recordAfter.mtimeMs]).toEqual([recordBefore.ino, recordBefore.mtimeMs]);
  }, 60_000);

  it('--json gives the page reports of the build it stands for, page for page', async () => {
    const first = await buildOk();
    const again = await buildOk({ json: true });
    const printed = JSON.parse(again.stdout);
    expect(printed.cached).toEqual(['up to date']);
    expect(printed.pageReports.length).toBeGreaterThan(0);
    expect(printed.pageReports).toEqual(first.result.pageReports);
    expect(printed.pageReports.map((p: { path: string }) => p.path)).toEqual(expect.arrayContaining(['/', '/about/', '/items/alpha/']));
  }, 60_000);

  it('a record cut short is not trusted: the build runs, and the next one is up to date again', async () => {
    await buildOk();
    const text = fs.readFileSync(record());
    fs.writeFileSync(record(), text.subarray(0, text.length - 40));
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(r.result.pageReports.length).toBeGreaterThan(0);
    expect(upToDate(await buildOk())).toBe(true);
  }, 60_000);
});

describe('each change makes the build run again', () => {
  it('a content file edited in place, at the same size', async () => {
    await buildOk();
    site.edit('content/pages/about.md', (t) => t.replace('This is **Markdown**', 'This is **markdown**'));
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(r.read('about/index.html')).toContain('This is <strong>markdown</strong>');
  }, 60_000);

  it('a static file added', async () => {
    await buildOk();
    site.write('static/robots-extra.txt', 'hello');
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(r.read('robots-extra.txt')).toBe('hello');
  }, 60_000);

  it('an output file edited in place by hand, at the same size', async () => {
    const first = await buildOk();
    const file = path.join(first.outDir, 'about', 'index.html');
    const good = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, good.replace('footer', 'FOOTER'));
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(good);
  }, 60_000);

  it('an output file deleted by hand', async () => {
    const first = await buildOk();
    const file = path.join(first.outDir, 'items', 'alpha', 'index.html');
    const good = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(good);
  }, 60_000);

  it("a file added by hand beside a page's index.html", async () => {
    const first = await buildOk();
    const stray = path.join(first.outDir, 'about', 'stray.html');
    fs.writeFileSync(stray, 'not the build\'s');
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(fs.existsSync(stray)).toBe(false);
  }, 60_000);

  it('a variable the site reads, and not one it never reads', async () => {
    site.edit('templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', "<footer>footer {process.env.SG_TEST_NOOP_BRAND ?? ''}</footer>"));
    // As the CLI runs: process.env itself, so the build sees which variables the site reads.
    const io: Io = { out: () => {}, err: () => {}, env: process.env, cwd: site.root };
    const run = async () => { const r = await runBuild({ root: site.root, quiet: true }, io); expect(r.result.errors).toEqual([]); return r; };
    try {
      process.env.SG_TEST_NOOP_BRAND = 'One';
      await run();
      process.env.SG_TEST_NOOP_OTHER = 'anything';
      expect(upToDate(await run())).toBe(true);
      process.env.SG_TEST_NOOP_BRAND = 'Two';
      expect(upToDate(await run())).toBe(false);
      expect(fs.readFileSync(path.join(site.root, 'dist', 'about', 'index.html'), 'utf8')).toContain('footer Two');
    } finally {
      delete process.env.SG_TEST_NOOP_BRAND;
      delete process.env.SG_TEST_NOOP_OTHER;
    }
  }, 60_000);

  it('another flag: --site-url, then --drafts', async () => {
    await buildOk();
    const url = await buildOk({ siteUrl: 'https://other.example' });
    expect(upToDate(url)).toBe(false);
    expect(url.read('sitemap.xml')).toContain('https://other.example/');
    expect(upToDate(await buildOk({ siteUrl: 'https://other.example' }))).toBe(true);
    expect(upToDate(await buildOk({ siteUrl: 'https://other.example', drafts: true }))).toBe(false);
  }, 60_000);
});
