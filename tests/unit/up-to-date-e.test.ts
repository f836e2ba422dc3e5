// A build with nothing changed answers from the last build's record; what it prints must not cost it the
// page reports it does not print (--quiet prints none, the summary only their count by page type), and
// every kind of input a user edits must still make the build run again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { copyOf, type TestSite } from '../helpers/site.ts';
import { stamps, written } from '../helpers/outputStamps.ts';

let site: TestSite;
beforeEach(async () => { site = await copyOf('basic'); });
afterEach(() => { vi.restoreAllMocks(); site?.remove(); });

async function buildOk(opts: Parameters<TestSite['build']>[0] = {}) {
  const r = await site.build(opts);
  expect(r.errors).toEqual([]);
  expect(r.code).toBe(0);
  return r;
}

const upToDate = (r: { result: { cached: string[] } }) => r.result.cached.includes('up to date');

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

describe('nothing changed: what is printed, and nothing more', () => {
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
    const record = path.join(site.root, '.sitegen', 'cache', 'build.json');
    const text = fs.readFileSync(record, 'latin1');
    fs.writeFileSync(record, text.replace(/"version":\d+/, '"version":3'), 'latin1');
    const r = await buildOk();
    expect(upToDate(r)).toBe(false);
    expect(upToDate(await buildOk())).toBe(true);
  }, 60_000);
});

describe('each kind of input edited makes the build run again', () => {
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

  it('nothing: the output and the record are left as they were', async () => {
    const first = await buildOk();
    const record = path.join(site.root, '.sitegen', 'cache', 'build.json');
    const before = stamps(first.outDir);
    const recordBefore = fs.statSync(record);
    const r = await buildOk({ quiet: true });
    expect(upToDate(r)).toBe(true);
    expect(written(before, stamps(r.outDir))).toEqual([]);
    expect(fs.statSync(record).mtimeMs).toBe(recordBefore.mtimeMs);
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
