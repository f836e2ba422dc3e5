// A cold build that renders on one thread writes its pages from a writer thread started while the content
// is parsed (output/writers.ts prestartWriter), so the thread is ready when the first page is and the build
// does not wait for it after the last one; the thread makes the pages' folders ahead, while the first
// pages render. The output is the same as with synchronous writes, a write that
// fails on that thread is reported with its path, and a thread no render took is stopped.
import { describe, expect, it, onTestFinished } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { build } from '../../src/pipeline/build.ts';
import { configureEngine } from '../../src/core/settings.ts';
import { createThreadWriter, dropSpareWriter, prestartWriter, writerThreadLog } from '../../src/output/writers.ts';
import { readTree } from '../helpers/site.ts';
import { copyOf, SCRATCH } from '../helpers/scratch.ts';
import { expectWritesStopAtFailure, outWithBlockedFolder } from '../helpers/writerFailure.ts';

const inProcess = { workers: 0 } as const;

describe('cold build: the page writer thread', () => {
  it('starts while the content is parsed, and the build writes the same files as with synchronous writes', async () => {
    const site = await copyOf('basic');
    onTestFinished(() => site.remove());
    const root = site.root;
    const sync = await build({ root, outDir: 'dist-sync', settings: { ...inProcess, writes: 'sync', cache: false } });
    expect(sync.errors).toEqual([]);

    const before = writerThreadLog.started.length;
    let contentEnd = 0, renderEnd = 0;
    const r = await build({
      root, outDir: 'dist-thread', settings: { ...inProcess, writes: 'thread', cache: false },
      onStage: (name) => { if (name === 'content') contentEnd = performance.now(); if (name === 'render') renderEnd = performance.now(); },
    });
    expect(r.errors).toEqual([]);
    // One thread wrote the pages, started before the content stage ended, taken by the render after it.
    const started = writerThreadLog.started.slice(before);
    const taken = writerThreadLog.taken.filter((t) => t > contentEnd && t < renderEnd);
    expect(started).toHaveLength(1);
    expect(started[0]).toBeLessThan(contentEnd);
    expect(taken).toHaveLength(1);

    const a = readTree(path.join(root, 'dist-sync')), b = readTree(path.join(root, 'dist-thread'));
    expect(Object.keys(a).length).toBeGreaterThan(5);
    expect(b).toEqual(a);
  });

  it('a `sitegen check` and a build writing synchronously start no writer thread', async () => {
    const site = await copyOf('basic');
    onTestFinished(() => site.remove());
    const before = writerThreadLog.started.length;
    const { checkSite } = await import('../../src/pipeline/build.ts');
    expect((await checkSite({ root: site.root, settings: { ...inProcess, writes: 'thread', cache: false } })).errors).toEqual([]);
    expect((await build({ root: site.root, settings: { ...inProcess, writes: 'sync', cache: false } })).errors).toEqual([]);
    expect(writerThreadLog.started.length).toBe(before);
  });

  it('a started thread is taken by the next thread writer, reports a failed write with its path, and one not taken is stopped', async () => {
    const dir = fs.mkdtempSync(path.join(SCRATCH, 'sg-spare-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    configureEngine({ writes: 'thread' });
    try {
      const before = writerThreadLog.started.length;
      prestartWriter(0);
      prestartWriter(0); // one at a time
      expect(writerThreadLog.started.length).toBe(before + 1);
      const out = outWithBlockedFolder(dir);
      const w = createThreadWriter(out, true);
      expect(writerThreadLog.started.length).toBe(before + 1); // the started one, not a new one
      await expectWritesStopAtFailure(w, out);

      prestartWriter(0);
      await dropSpareWriter();
      // Dropped: the next thread writer starts a thread of its own.
      const n = writerThreadLog.started.length;
      const w2 = createThreadWriter(path.join(dir, 'out2'));
      await w2.write('c/index.html', 'c');
      await w2.flush();
      expect(writerThreadLog.started.length).toBe(n + 1);
      expect(fs.readFileSync(path.join(dir, 'out2', 'c', 'index.html'), 'utf8')).toBe('c');
    } finally {
      configureEngine();
    }
  });

  it('the writer thread makes the folders of the pages to come before they arrive; one it cannot make fails the flush with its path', async () => {
    const dir = fs.mkdtempSync(path.join(SCRATCH, 'sg-folders-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const w = createThreadWriter(path.join(dir, 'out'), true);
    w.folders!(['blog/page-1', 'blog/page-2', '', 'docs/a/b']);
    await w.flush(); // no page written: the folders are there all the same
    for (const d of ['blog/page-1', 'blog/page-2', 'docs/a/b']) expect(fs.statSync(path.join(dir, 'out', d)).isDirectory(), d).toBe(true);

    // More folders than it makes ahead at once: the rest go with the batches of pages, every page written.
    const w3 = createThreadWriter(path.join(dir, 'out3'), true);
    const rels = Array.from({ length: 700 }, (_, i) => `s${i % 7}/p${i}`);
    w3.folders!(rels);
    for (const [i, r] of rels.entries()) await w3.write(`${r}/index.html`, `page ${i}`);
    await w3.flush();
    for (const [i, r] of rels.entries()) expect(fs.readFileSync(path.join(dir, 'out3', r, 'index.html'), 'utf8')).toBe(`page ${i}`);

    fs.mkdirSync(path.join(dir, 'out2'));
    fs.writeFileSync(path.join(dir, 'out2', 'x'), 'a file where a folder should be');
    const w2 = createThreadWriter(path.join(dir, 'out2'), true);
    w2.folders!(['a', 'x/y', 'b']);
    await w2.write('a/index.html', 'a');
    const failed = await w2.flush().then(() => null, (e: NodeJS.ErrnoException) => e);
    expect(failed?.code).toMatch(/^(ENOTDIR|EEXIST)$/);
    expect(failed?.path?.startsWith(path.join(dir, 'out2', 'x'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'out2', 'a', 'index.html'))).toBe(false); // nothing after the failure
    expect(fs.existsSync(path.join(dir, 'out2', 'b'))).toBe(false);
  });
});
