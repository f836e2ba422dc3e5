// The worker-thread pool (src/parallel/) gives the same output and the same located errors as the
// in-process path. SITEGEN_PARALLEL_MIN=0 forces the pool on these tiny fixture sites.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { warmCopies } from '../helpers/warmCopies.ts';

function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, f.name);
      if (f.isDirectory()) walk(p); else out.set(path.relative(dir, p), fs.readFileSync(p).toString('base64'));
    }
  };
  walk(dir);
  return out;
}

// A copy of the fixture per test, at one path (its first build reuses the compile: tests/helpers/warmCopies.ts):
// the tests delete its content cache, and other files build the committed fixture meanwhile.
const copies = warmCopies('basic');
afterAll(() => copies.remove());

const inProcess = { SITEGEN_WORKERS: '0' };
// The content cache off, so the workers parse every file themselves.
const pooled = { SITEGEN_WORKERS: '2', SITEGEN_PARALLEL_MIN: '0', SITEGEN_POOL_MAIN: '0', SITEGEN_POOL_RENDER: '1', SITEGEN_NO_CACHE: '1' };

describe('render workers', () => {
  it('write the same files as the in-process render', async () => {
    const root = (await copies.next()).root;
    const outs = ['dist-inprocess', 'dist-workers'];
    try {
      expect((await siteAt(root).build({ out: outs[0], quiet: true, env: inProcess })).code).toBe(0);
      const r = await siteAt(root).build({ out: outs[1], json: true, env: pooled });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).pages).toBe(5);
      // the workers rendered every page (one task) and alias page (one task), and parsed every file
      expect(JSON.parse(r.stdout).workers).toEqual({ workers: 2, tasks: { load: { total: 1, onMain: 0 }, pages: { total: 2, onMain: 0 } } });
      const a = tree(path.join(root, outs[0])), b = tree(path.join(root, outs[1]));
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
      for (const [f, bytes] of a) expect(b.get(f), f).toBe(bytes);
      // Parsed on the workers with the content cache on: what they parsed is cached correctly (a build
      // from that cache alone writes the same files).
      fs.rmSync(path.join(root, '.sitegen', 'cache', 'content'), { recursive: true, force: true });
      outs.push('dist-workers-fill', 'dist-from-worker-cache');
      expect((await siteAt(root).build({ out: outs[2], quiet: true, env: { ...pooled, SITEGEN_NO_CACHE: '' } })).code).toBe(0);
      const e = await siteAt(root).build({ out: outs[3], json: true, env: inProcess });
      expect(JSON.parse(e.stdout).cached).toContain('content');
      const fromCache = tree(path.join(root, outs[3]));
      for (const [f, bytes] of a) expect(fromCache.get(f), f).toBe(bytes);
      // With the content cache warm the main thread parses nothing and sends the workers every entry.
      outs.push('dist-workers-cached');
      const c = await siteAt(root).build({ out: outs[4], json: true, env: { ...pooled, SITEGEN_NO_CACHE: '' } });
      expect(c.code, c.stderr).toBe(0);
      const tasks = JSON.parse(c.stdout).workers.tasks;
      expect(tasks.load?.total ?? 0).toBe(0); // nothing to parse
      // With the caches, the workers render the pages whose inputs changed (all: a new output folder).
      expect(tasks.some).toEqual({ total: 2, onMain: 0 });
      const d = tree(path.join(root, outs[4]));
      for (const [f, bytes] of a) expect(d.get(f), f).toBe(bytes);
    } finally {
      for (const o of outs) fs.rmSync(path.join(root, o), { recursive: true, force: true });
    }
  });

  it('with one worker (2 cores) parse only: the main thread renders, the same files, and the parse fills the content cache', async () => {
    const root = (await copies.next()).root;
    const outs = ['dist-inprocess-1', 'dist-one-worker', 'dist-after-one-worker'];
    const oneWorker = { SITEGEN_WORKERS: '1', SITEGEN_PARALLEL_MIN: '0', SITEGEN_POOL_MAIN: '0' };
    try {
      expect((await siteAt(root).build({ out: outs[0], quiet: true, cache: false, env: inProcess })).code).toBe(0);
      fs.rmSync(path.join(root, '.sitegen', 'cache', 'content'), { recursive: true, force: true });
      const r = await siteAt(root).build({ out: outs[1], json: true, env: oneWorker });
      expect(r.code, r.stderr).toBe(0);
      // The worker parsed every file and rendered nothing.
      expect(JSON.parse(r.stdout).workers).toEqual({ workers: 1, tasks: { load: { total: 1, onMain: 0 } } });
      const a = tree(path.join(root, outs[0])), b = tree(path.join(root, outs[1]));
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
      for (const [f, bytes] of a) expect(b.get(f), f).toBe(bytes);
      // The cache was empty, so no file was stat'ed for it: each parsed file is keyed by its read's stamp,
      // and the next build finds every file there.
      const c = await siteAt(root).build({ out: outs[2], json: true, env: inProcess });
      expect(JSON.parse(c.stdout).cached).toContain('content');
      const d = tree(path.join(root, outs[2]));
      for (const [f, bytes] of a) expect(d.get(f), f).toBe(bytes);
    } finally {
      for (const o of outs) fs.rmSync(path.join(root, o), { recursive: true, force: true });
    }
  });

  it('report content errors located exactly as in-process', async () => {
    for (const name of ['schema-error', 'yaml-error', 'broken-link']) {
      const a = await siteAt(fixture(name)).build({ env: inProcess });
      const b = await siteAt(fixture(name)).build({ env: pooled });
      // One worker (2 cores): it parses, the main thread renders.
      const c = await siteAt(fixture(name)).build({ env: { SITEGEN_WORKERS: '1', SITEGEN_PARALLEL_MIN: '0', SITEGEN_POOL_MAIN: '0', SITEGEN_NO_CACHE: '1' } });
      expect(a.code).toBe(1);
      expect(b.code).toBe(1);
      expect(c.code).toBe(1);
      const strip = (s: string) => s.replace(/dist\.tmp-\S+/g, '').replace(/\d+ ms/g, '');
      expect(strip(b.stderr)).toBe(strip(a.stderr));
      expect(strip(c.stderr)).toBe(strip(a.stderr));
    }
  });
});

describe('page writer thread', () => {
  it('a build that writes from its own thread (a site of ≥ 1,000 pages, forced here) writes the same files', async () => {
    const root = (await copies.next()).root;
    const outs = ['dist-sync-writes', 'dist-thread-writes'];
    try {
      expect((await siteAt(root).build({ out: outs[0], quiet: true, env: { ...inProcess, SITEGEN_WRITES: 'sync' } })).code).toBe(0);
      const r = await siteAt(root).build({ out: outs[1], quiet: true, env: { ...inProcess, SITEGEN_WRITES: 'thread' } });
      expect(r.code, r.stderr).toBe(0);
      const a = tree(path.join(root, outs[0])), b = tree(path.join(root, outs[1]));
      expect(a.size).toBeGreaterThan(5);
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
      for (const [f, bytes] of a) expect(b.get(f), f).toBe(bytes);
    } finally {
      for (const o of outs) fs.rmSync(path.join(root, o), { recursive: true, force: true });
    }
  });
});
