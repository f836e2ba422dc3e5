// The incremental build's record and its answer to "may this build patch the output?" do no more work than
// the answer needs: a key is compared without decoding its page's entry (a template edit: no key matches),
// and the count of pages to render stops at the patch limit (past it, every page renders in a staged build).
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { openIncremental } from '../../src/pipeline/incremental.ts';
import { readGeneration, recordFiles, writeDelta, writeGeneration, type Entry } from '../../src/pipeline/pageRecord.ts';
import type { Route } from '../../src/core/types.ts';
import { SCRATCH } from '../helpers/scratch.ts';
import { registerExports } from '../../src/site/exportRegistry.ts';

let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
const tmpRoot = () => (root = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-inc-f-')));

const entry = (key: string): Entry => ({ key, reads: [], islands: [], links: ['/a/'], stamp: { size: 1, mtimeMs: 2, ino: 3 } });

describe('a page record asked for keys', () => {
  it('answers each file\'s key as its entry has it, with the changes a patch wrote beside the record', async () => {
    const files = recordFiles(tmpRoot());
    const out = path.join(root, 'dist');
    await writeGeneration(files.live, out, [['a/index.html', entry('ka')], ['b/index.html', entry('kb')], ['c/index.html', entry('kc')]], { files: ['a/index.html', 'b/index.html', 'c/index.html'] });
    const g = readGeneration(files.live, out)!;
    // A patch: b's page changed, c's page is gone, d's page is new.
    expect(await writeDelta(files.live, out, g, { entries: new Map([['b/index.html', entry('kb2')], ['c/index.html', null], ['d/index.html', entry('kd')]]), added: ['d/index.html'], removed: ['c/index.html'], stamps: {}, dirs: {}, env: 'x' })).toBe(true);
    const now = readGeneration(files.live, out)!;
    for (const f of ['a/index.html', 'b/index.html', 'c/index.html', 'd/index.html', 'e/index.html']) expect(now.key(f), f).toBe(now.entry(f)?.key);
    expect(['a', 'b', 'c', 'd'].map((x) => now.key(`${x}/index.html`))).toEqual(['ka', 'kb2', undefined, 'kd']);
  });
});

describe('whether fewer pages than the patch limit must render', () => {
  // A component of the site's own modules, as a compiled site registers it (a function made elsewhere has no key).
  const Page = function Page() { return null; };
  /** Routes whose data counts how often the build looks at it. */
  function routes(n: number, looked: Set<number>): Route[] {
    return Array.from({ length: n }, (_, i) => ({
      path: `/p${i}/`, output: `p${i}/index.html`, title: `P${i}`, description: '', noindex: false, sitemap: true, source: null, ogType: 'website',
      component: Page,
      props: { get n() { looked.add(i); return i; } },
    }) as unknown as Route);
  }

  /** A record with no pages yet, over an empty output folder; `out` is that folder. */
  async function emptyRecord() {
    tmpRoot();
    registerExports(path.join(fs.realpathSync(root), 'templates', 'pages.tsx'), { Page });
    const out = path.join(root, 'dist');
    fs.mkdirSync(out);
    const inc = await openIncremental(root, out, 'build-key', {} as never, {});
    inc.at(out, true);
    return { inc, out };
  }

  it('stops looking at routes once the limit is reached, and then keeps no answer', async () => {
    const { inc, out } = await emptyRecord();
    const looked = new Set<number>();
    const list = routes(50, looked);
    // No record: every page must render, so the answer is known after the fifth route.
    expect(inc.fewerThan(5, list, [])).toBe(false);
    expect(looked.size).toBe(5);
    // Nothing half-known is kept: the full answer lists every route.
    inc.at(out, true);
    expect(inc.changes(list, []).routes).toHaveLength(50);
    expect(looked.size).toBe(50);
  });

  it('below the limit, answers as changes() does and keeps that answer', async () => {
    const { inc } = await emptyRecord();
    const list = routes(4, new Set());
    expect(inc.fewerThan(5, list, [])).toBe(true);
    const c = inc.changes(list, []);
    expect(c.routes).toEqual([0, 1, 2, 3]);
    expect(inc.fewerThan(4, list, [])).toBe(false);
  });
});

describe('a staged build over the output before, whose record it cannot use', () => {
  it('reads that record once, not once for every page it asks about', async () => {
    const files = recordFiles(tmpRoot());
    const out = path.join(root, 'dist');
    const staging = path.join(root, 'staging');
    fs.mkdirSync(out);
    fs.mkdirSync(staging);
    // The output before has a record of another output folder: unusable here (as one of another environment is).
    await writeGeneration(files.before, path.join(root, 'elsewhere'), [['p0/index.html', entry('k')]], { files: ['p0/index.html'], env: {} });
    const inc = await openIncremental(root, out, 'build-key', {} as never, {});
    inc.at(staging, true);
    const reads = vi.spyOn(fs, 'readFileSync');
    try {
      const list = Array.from({ length: 50 }, (_, i) => ({ path: `/p${i}/`, output: `p${i}/index.html`, title: 'P', description: '', noindex: false, sitemap: true, source: null, ogType: 'website', props: {} }) as unknown as Route);
      expect(inc.changes(list, []).routes).toHaveLength(50);
      const ofBefore = reads.mock.calls.filter(([f]) => String(f) === files.before.base);
      expect(ofBefore.length).toBeLessThanOrEqual(1);
    } finally {
      reads.mockRestore();
    }
  });
});
