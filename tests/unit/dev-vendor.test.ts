// `sitegen dev` bundles the packages islands import (React's development build) once, apart from the site's
// own code: an island edit rebuilds the site's modules only. Seen in the bundle: after the edit, every
// package file is the very same bytes as before (not made again), what was made again is small, and the
// island's new module imports React from the packages' bundle by URL. In process, on the basic fixture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createDevSite, type DevSite } from '../../src/dev/devSite.ts';
import { copyFixture, editFile, removeCopy, until } from './dev-fixture.ts';
import { copyOf } from '../helpers/scratch.ts';

let dir: string;
let site: DevSite;

beforeAll(async () => {
  dir = copyFixture('basic');
  site = await createDevSite({ root: dir });
  const r = await site.start();
  if (r.errors.length) throw new Error(r.errors.map((e) => e.text).join('\n'));
});
afterAll(async () => {
  await site?.close();
  if (dir) removeCopy(dir);
});

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('utf8');

describe('sitegen dev: packages bundled apart', () => {
  it('rebuilds only the site\'s own modules on an island edit; React stays the same file', async () => {
    const before = site.output.manifest!;
    const react = before.baseChunks.find((u) => /\/vendor-react-[A-Z0-9]+\.js$/.test(u));
    expect(react).toBeTruthy();
    // React's development build is among the files a page with a React island preloads.
    expect(before.baseChunks.some((u) => text(before.files.get(u.slice(1))).includes('react.development.js'))).toBe(true);
    editFile(dir, 'templates/islands/Counter.tsx', (t) => t.replace('count is {n}', 'clicked {n}'));
    const after = (await site.bundleFirst([{ file: path.join(dir, 'templates/islands/Counter.tsx'), kind: 'change' }]))!;
    expect(after).toBeTruthy();
    // The island's new module, which imports React by the URL of the packages' bundle.
    const island = after.islandChunks.Counter[0];
    expect(island).not.toBe(before.islandChunks.Counter[0]);
    const code = text(after.files.get(island.slice(1)));
    expect(code).toContain('clicked ');
    expect(code).toMatch(/from "\/assets\/vendor-react-jsx-runtime-[A-Z0-9]+\.js"/);
    // Nothing of React was made again: its files are the same bytes, and what was made is small.
    expect(after.baseChunks).toEqual(before.baseChunks);
    for (const u of after.baseChunks.filter((x) => x.includes('/vendor-'))) expect(after.files.get(u.slice(1))).toBe(before.files.get(u.slice(1)));
    const made = [...after.files].filter(([rel, bytes]) => before.files.get(rel) !== bytes && !rel.endsWith('.css') && !rel.endsWith('.css.map'));
    const bytes = made.reduce((n, [, b]) => n + b.length, 0);
    expect(bytes).toBeLessThan(200_000);
    const r = (await site.apply([{ file: path.join(dir, 'templates/islands/Counter.tsx'), kind: 'change' }]))!;
    expect(r.errors).toEqual([]);
  });
});

describe('sitegen dev under a site base', () => {
  it("serves every module a React island's page loads, the packages' own chunks included, below the base (/blog/)", async () => {
    const based = await copyOf('base-blog', {}); // (served under /blog/, a React island on its home page)
    const dev = await based.dev();
    try {
      await until(() => /✓ built|✗ start/.test(dev.output()), 30_000, 'the first build');
      expect(dev.stderr()).toBe('');
      const home = await (await fetch(`${dev.url}/blog/`)).text();
      // Every script of the page and every module each imports (static and dynamic), fetched as a browser would.
      const queue = [...home.matchAll(/<script[^>]* src="([^"]+)"/g), ...home.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!);
      expect(queue.length).toBeGreaterThan(0);
      const seen = new Set<string>(), missing: string[] = [];
      let vendorChunks = 0;
      while (queue.length) {
        const url = queue.shift()!;
        if (seen.has(url)) continue;
        seen.add(url);
        const res = await fetch(new URL(url, `${dev.url}/blog/`));
        if (res.status !== 200) { missing.push(`${url} ${res.status}`); continue; }
        if (/vendor-chunk-/.test(url)) vendorChunks++;
        const code = await res.text();
        const base = new URL(url, `${dev.url}/blog/`);
        for (const m of code.matchAll(/(?:\bfrom|\bimport\(?)\s*["']([^"']+\.js)["']/g)) queue.push(new URL(m[1]!, base).pathname);
      }
      expect(missing).toEqual([]);
      expect(vendorChunks).toBeGreaterThan(0);
      for (const url of seen) if (!url.startsWith('/__sitegen/')) expect(url.startsWith('/blog/'), url).toBe(true); // (dev's own client is served at the root)
    } finally { await dev.close(); based.remove(); }
  });
});
