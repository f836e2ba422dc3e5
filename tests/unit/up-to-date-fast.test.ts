// A build with nothing changed answers from the last build's record without loading the rest of the engine:
// it must still see every change a user can make (a content file edited in place, a static file added, an
// output file edited, deleted or added to by hand, a variable the site reads, another flag), and when
// nothing changed it says so, prints what the last build printed, and touches no file. What it prints must not
// cost it the page reports it does not print (--quiet prints none, the summary only their count by page type).
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { type TestSite } from '../helpers/site.ts';
import { warmCopies } from '../helpers/warmCopies.ts';
import { stamps, written } from '../helpers/outputStamps.ts';
import { runBuild, type Io } from '../../cli/commands.ts';

// Each test has the fixture as committed, at one path (its first build reuses the compile: tests/helpers/warmCopies.ts).
const copies = warmCopies('basic');
let site: TestSite;
beforeEach(async () => { site = await copies.next(); });
afterEach(() => { vi.restoreAllMocks(); });
afterAll(() => copies.remove());

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

/** Counts the page reports parsed from text while `run` runs (a list of reports is JSON beginning so). */
async function reportsParsed<T>(run: () => Promise<T>): Promise<{ value: T; parsed: number }> {
  const parse = vi.spyOn(JSON, 'parse');
  try {
    const value = await run();
    return { value, parsed: parse.mock.calls.filter(([text]) => typeof text === 'string' && text.startsWith('[{"path"')).length };
  } finally {
    parse.mockRestore();
  }
}

/** The page-type table of a build's summary. */
const table = (stdout: string) => stdout.slice(stdout.indexOf('  page type'), stdout.indexOf('✓'));

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

  it('with --quiet too, the output and the record are left as they were', async () => {
    const first = await buildOk();
    const before = stamps(first.outDir);
    const recordBefore = fs.statSync(record());
    const r = await buildOk({ quiet: true });
    expect(upToDate(r)).toBe(true);
    expect(written(before, stamps(r.outDir))).toEqual([]);
    expect(fs.statSync(record()).mtimeMs).toBe(recordBefore.mtimeMs);
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

  it('--quiet prints nothing and parses no page report', async () => {
    await buildOk();
    const { value: r, parsed } = await reportsParsed(() => buildOk({ quiet: true }));
    expect(upToDate(r)).toBe(true);
    expect(r.stdout).toBe('');
    expect(parsed).toBe(0);
    // Still there for whoever asks.
    expect(r.result.pageReports.map((p) => p.path)).toEqual(expect.arrayContaining(['/', '/about/', '/items/alpha/']));
  }, 60_000);

  it('the summary lists the page types the last build listed, without parsing a page report', async () => {
    const first = await buildOk();
    expect(table(first.stdout)).toMatch(/Home\s+1\s+[\d.]+ KB\s+Counter/);
    const { value: again, parsed } = await reportsParsed(() => buildOk());
    expect(upToDate(again)).toBe(true);
    expect(table(again.stdout)).toBe(table(first.stdout));
    expect(again.stdout).toMatch(/✓ \d+ pages/);
    expect(parsed).toBe(0);
  }, 60_000);

  it('--json prints the page reports and no field a build did not print before', async () => {
    const first = await buildOk({ json: true });
    const again = await buildOk({ json: true });
    expect(upToDate(again)).toBe(true);
    const a = JSON.parse(first.stdout), b = JSON.parse(again.stdout);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(b.pageReports).toEqual(a.pageReports);
  }, 60_000);

  it('a record of an older format is not trusted: the build runs and writes the record anew', async () => {
    await buildOk();
    const text = fs.readFileSync(record(), 'latin1');
    fs.writeFileSync(record(), text.replace(/"version":\d+/, '"version":3'), 'latin1');
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
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

  it('a template', async () => {
    await buildOk();
    site.edit('templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', '<footer>changed</footer>'));
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(r.read('about/index.html')).toContain('<footer>changed</footer>');
  }, 60_000);

  it('a static file edited in place, at the same size', async () => {
    await buildOk();
    site.edit('static/favicon.svg', (t) => t.replace('<svg', '<SVG'));
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(r.read('favicon.svg')).toBe(site.file('static/favicon.svg'));
  }, 60_000);

  it('a content file removed', async () => {
    const first = await buildOk();
    expect(fs.existsSync(path.join(first.outDir, 'items', 'beta', 'index.html'))).toBe(true);
    fs.rmSync(path.join(site.root, 'content', 'items', 'beta.yaml'));
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(fs.existsSync(path.join(r.outDir, 'items', 'beta', 'index.html'))).toBe(false);
  }, 60_000);
});

describe('a plain `sitegen build` is read without commander', () => {
  /** The flags commander hands the build command for `args`, from a fresh program (it keeps option values between parses). */
  async function commanderFlags(args: string[]): Promise<unknown> {
    vi.resetModules();
    let seen: unknown;
    vi.doMock('../../cli/commands.ts', async (original) => ({
      ...(await original<typeof import('../../cli/commands.ts')>()),
      runBuild: async (flags: unknown) => { seen = { ...(flags as object) }; return { code: 0, result: {} }; },
    }));
    vi.doMock('../../cli/env.ts', () => ({ loadEnvFile: () => {} }));
    try {
      const { runProgram } = await import('../../cli/program.ts');
      await runProgram(['node', 'sitegen', ...args]);
    } finally {
      vi.doUnmock('../../cli/commands.ts');
      vi.doUnmock('../../cli/env.ts');
      vi.resetModules();
    }
    return seen;
  }

  it('to the very flags commander gives, for each option of build in each of its forms', async () => {
    const { plainBuildFlags } = await import('../../cli/buildArgs.ts');
    const lines = [
      ['build'],
      ['build', '--quiet'],
      ['build', '-q', '--json'],
      ['build', '-r', 'site', '-o', 'public', '--drafts'],
      ['build', '--root', 'a b', '--out', 'o', '--site-url', 'https://one.example', '--no-cache'],
      ['build', '--root=site', '--out=public', '--site-url=https://two.example/x?a=b', '--json', '-q'],
      ['build', '-r', 'first', '--root', 'second', '--no-cache', '--no-cache'],
    ];
    for (const args of lines) {
      const plain = plainBuildFlags(args);
      expect(plain, args.join(' ')).not.toBeNull();
      expect(plain, args.join(' ')).toEqual(await commanderFlags(args));
    }
  }, 60_000);

  it('leaves to commander whatever it does not read with certainty', async () => {
    const { plainBuildFlags } = await import('../../cli/buildArgs.ts');
    for (const args of [[], ['check'], ['build', '--help'], ['build', '-h'], ['build', '-qr', 'x'], ['build', '-r'], ['build', '--root', '--json'], ['build', '--root='], ['build', 'extra'], ['build', '--', '-q'], ['build', '--cache'], ['build', '--quiet=1'], ['build', '-rsite'], ['build', '--toString', 'x'], ['build', '--constructor']]) {
      expect(plainBuildFlags(args), args.join(' ')).toBeNull();
    }
  });
});
