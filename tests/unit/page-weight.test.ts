// The JavaScript weight each build reports per page (gzip), counted once per client bundle and stored with the
// cached bundle (src/islands/gzipSizes.ts): the figure must be the gzipped size of the files the page loads
// before interaction, whether the bundle was made by this build, reused from the cache, or reused from a cache
// written before the sizes were stored in it.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { copyOf, type BuildRun, type TestSite } from '../helpers/site.ts';

let site: TestSite;
afterAll(() => site?.remove());

/** Per page with islands: the gzipped size of the module script and its preloads, as Chromium fetches them. */
function loaded(run: BuildRun): Record<string, number> {
  const out: Record<string, number> = {};
  for (const report of run.result.pageReports) {
    if (!report.islands.length) continue;
    const html = run.read(report.output);
    const urls = [...html.matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="\/([^"]+)"/g)].map((m) => m[1]);
    out[report.path] = urls.reduce((sum, u) => sum + gzipSync(fs.readFileSync(path.join(run.outDir, u))).length, 0);
  }
  return out;
}
const reported = (run: BuildRun) => Object.fromEntries(run.result.pageReports.filter((r) => r.islands.length).map((r) => [r.path, r.jsGzipBytes]));

describe('the JavaScript weight of a page', () => {
  it('is the gzipped size of what it loads, from a new bundle, a cached one, and a cache without sizes', async () => {
    site = await copyOf('basic');
    const fresh = await site.build({ quiet: true });
    expect(fresh.errors).toEqual([]);
    const expected = loaded(fresh);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    expect(reported(fresh)).toEqual(expected);
    // The fixture's one island (a React counter) shows no image: its pages load none of the static images' code
    // (fetched only by an island whose render showed one), in their script or their preloads.
    for (const report of fresh.result.pageReports.filter((r) => r.islands.length)) {
      const urls = [...fresh.read(report.output).matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="\/([^"]+)"/g)].map((m) => m[1]);
      expect(urls.length).toBeGreaterThan(1);
      for (const u of urls) expect(fs.readFileSync(path.join(fresh.outDir, u), 'utf8'), u).not.toContain('no such image in static/');
    }

    const record = path.join(site.root, '.sitegen/cache/client/manifest.json');
    expect(Object.keys(JSON.parse(fs.readFileSync(record, 'utf8')).manifest.gzipBytes).length).toBeGreaterThan(0);
    site.edit('content/pages/about.md', (t) => `${t}\nOne more line.\n`);
    const cached = await site.build({ quiet: true });
    expect(cached.result.cached).toContain('bundle');
    expect(reported(cached)).toEqual(expected);

    const { manifest, ...rest } = JSON.parse(fs.readFileSync(record, 'utf8'));
    delete manifest.gzipBytes;
    fs.writeFileSync(record, JSON.stringify({ ...rest, manifest }));
    site.edit('content/pages/about.md', (t) => `${t}\nAnd another.\n`);
    const older = await site.build({ quiet: true });
    expect(older.result.cached).toContain('bundle');
    expect(reported(older)).toEqual(expected);
  });
});
