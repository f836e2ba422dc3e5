// Progress of a build's long stages: the engine counts content files parsed and pages rendered (in process
// and on worker threads), and the CLI shows the count in one line redrawn in place on a terminal, or as a
// plain line every ten seconds elsewhere.
import { describe, expect, it, onTestFinished } from 'vitest';
import { build } from '../../src/pipeline/build.ts';
import { progressLine } from '../../cli/progress.ts';
import { runBuild, terminal, type Io } from '../../cli/commands.ts';
import { copyOf } from '../helpers/scratch.ts';

type Count = [string, number, number];

async function counts(settings: Parameters<typeof build>[0]['settings']): Promise<{ seen: Count[]; pages: number; files: number }> {
  const site = await copyOf('basic');
  onTestFinished(() => site.remove());
  const seen: Count[] = [];
  const r = await build({ root: site.root, settings: { cache: false, ...settings }, onProgress: (stage, done, total) => { seen.push([stage, done, total]); } });
  expect(r.errors).toEqual([]);
  const files = seen.filter(([s]) => s === 'content').at(-1)?.[2] ?? 0;
  return { seen, pages: r.pages, files };
}

function expectClimbsToTotal(seen: Count[], stage: string, total: number) {
  const mine = seen.filter(([s]) => s === stage);
  expect(mine.length).toBeGreaterThan(0);
  expect(mine.every(([, , t]) => t === total)).toBe(true);
  expect(mine.map(([, d]) => d)).toEqual([...mine.map(([, d]) => d)].sort((a, b) => a - b));
  expect(mine.at(-1)![1]).toBe(total);
}

describe('a build counts its work', () => {
  it('in process: every content file parsed, then every page rendered, in that order', async () => {
    const { seen, pages, files } = await counts({ workers: 0 });
    expect(files).toBe(3); // the fixture's content files
    expectClimbsToTotal(seen, 'content', files);
    expectClimbsToTotal(seen, 'render', pages);
    expect(seen.findIndex(([s]) => s === 'render')).toBeGreaterThan(seen.findLastIndex(([s]) => s === 'content'));
  }, 60_000);

  it('the image versions its pages link, made or found, after the pages', async () => {
    const { photo, post } = await import('../helpers/photo.ts');
    const site = await copyOf('basic', { 'content/pages/photo.jpg': await photo(800, 500, 3), 'content/pages/about.md': post('![A photo](./photo.jpg)') });
    onTestFinished(() => site.remove());
    const seen: Count[] = [];
    const r = await build({ root: site.root, settings: { cache: false }, onProgress: (stage, done, total) => { seen.push([stage, done, total]); } });
    expect(r.errors).toEqual([]);
    // 640 and 800 px in AVIF and WebP, and the JPEG fallback.
    expectClimbsToTotal(seen, 'images', 5);
    expect(seen.findIndex(([s]) => s === 'images')).toBeGreaterThan(seen.findLastIndex(([s]) => s === 'render'));
  }, 60_000);

  it('on worker threads: the files and pages the workers did count too', async () => {
    const { seen, pages, files } = await counts({ workers: 2, parallelMin: 0, mainTakesTasks: false, renderOnWorkers: true });
    expectClimbsToTotal(seen, 'content', files);
    expectClimbsToTotal(seen, 'render', pages);
  }, 60_000);
});

describe('the progress line', () => {
  it('on a terminal: drawn once a stage has run half a second, at most every 100 ms, wiped before the next line', () => {
    let t = 0, out = '';
    const line = progressLine((s) => { out += s; }, true, () => t);
    line.update('content', 10, 1000);
    t = 400; line.update('content', 400, 1000);
    expect(out).toBe('');
    t = 600; line.update('content', 600, 1000);
    expect(out).toContain(' 600/1000 files parsed');
    expect(out.startsWith('\r\x1b[K')).toBe(true);
    const drawn = out;
    t = 650; line.update('content', 650, 1000);
    expect(out).toBe(drawn);
    line.clear();
    expect(out.endsWith('\r\x1b[K')).toBe(true);
    const cleared = out;
    line.clear();
    expect(out).toBe(cleared); // nothing drawn: nothing wiped
    t = 700; line.update('render', 1, 50); // a new stage starts its own half second
    expect(out).toBe(cleared);
  });

  it('elsewhere: a plain line every ten seconds, never a control character', () => {
    let t = 0, out = '';
    const line = progressLine((s) => { out += s; }, false, () => t);
    line.update('render', 1, 100000);
    t = 9_000; line.update('render', 20000, 100000);
    expect(out).toBe('');
    t = 10_000; line.update('render', 25000, 100000);
    t = 15_000; line.update('render', 40000, 100000);
    t = 20_500; line.update('render', 60000, 100000);
    expect(out).toBe('  render        25000/100000 pages rendered\n  render        60000/100000 pages rendered\n');
    line.clear();
    expect(out).not.toContain('\r');
  });

  it('on a terminal: what a template or plugin prints meanwhile wipes the line first, and starts on a line of its own', async () => {
    // The terminal's hook: every write to stdout or stderr but the command's own runs `before` first.
    const io = terminal();
    let before = 0;
    const unhook = io.others!(() => { before++; });
    try {
      process.stdout.write(''); // (console.log in a template ends in these writes)
      process.stderr.write('');
      expect(before).toBe(2);
      io.out(''); io.err(''); // the progress line's own writes and the report's
      expect(before).toBe(2);
    } finally { unhook(); }
    process.stdout.write('');
    expect(before).toBe(2); // gone once the command ends

    // A write another library puts over ours meanwhile stays when the command ends; a stream nobody else
    // touched gets its own write back.
    const [out0, err0] = [process.stdout.write, process.stderr.write];
    const unhook2 = io.others!(() => {});
    const ours = process.stdout.write;
    const theirs = function (this: unknown, ...args: unknown[]) { return (ours as (...a: unknown[]) => boolean).apply(process.stdout, args); } as typeof out0;
    process.stdout.write = theirs;
    try {
      unhook2();
      expect(process.stdout.write).toBe(theirs);
      expect(process.stderr.write).toBe(err0);
    } finally { process.stdout.write = out0; }

    // A build on a terminal wipes its progress line before such a write, and takes the hook away when it ends.
    const site = await copyOf('basic');
    onTestFinished(() => site.remove());
    let out = '', hooked: (() => void) | null = null, hooks = 0;
    const fake: Io = { out: (s) => { out += s; }, err: () => {}, env: {}, cwd: site.root, live: true, others: (b) => { hooked = b; hooks++; return () => { hooked = null; }; } };
    const { code } = await runBuild({ root: '.', cache: false }, fake);
    expect(code).toBe(0);
    expect(hooks).toBe(1);
    expect(hooked).toBeNull();
    // Off a terminal nothing is drawn in place, so nothing is hooked.
    const { code: plain } = await runBuild({ root: '.', cache: false }, { ...fake, live: false });
    expect(plain).toBe(0);
    expect(hooks).toBe(1);
  }, 60_000);
});
