// The CLI hands the build process.env, so the build learns which variables the site reads. The first build
// knows none of them yet (it records what it read); the Markdown edit right after it must still rewrite only
// the pages that show it, as every later one does, and a variable the site read must still count.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';
import { stamps, written } from '../helpers/outputStamps.ts';
import { build } from '../../src/pipeline/build.ts';
import { photo } from '../helpers/photo.ts';

let site: TestSite;
beforeEach(async () => { site = await copyOf('basic'); });
afterEach(() => { site?.remove(); delete process.env.SG_TEST_TAGLINE; delete process.env.SG_TEST_OTHER; });


const run = async () => {
  const r = await build({ root: site.root, env: process.env });
  expect(r.errors).toEqual([]);
  return r;
};
const out = path.join;

describe('incremental builds with the environment of the process (as the CLI runs)', () => {
  it('the first Markdown edit after a fresh build rewrites only the page that shows it', async () => {
    await run();
    const dist = out(site.root, 'dist');
    const before = stamps(dist);
    site.edit('content/pages/about.md', (t) => t.replace('This is **Markdown**', 'This is **edited Markdown**'));
    await run();
    const after = stamps(dist);
    expect(written(before, after)).toEqual(['about/index.html']);
    site.edit('content/pages/about.md', (t) => t.replace('edited Markdown', 'edited again Markdown'));
    await run();
    expect(written(after, stamps(dist))).toEqual(['about/index.html']);
  }, 60_000);

  it('a variable the site never reads may change: a program the site starts gets every variable, and the edit still patches', async () => {
    // Node copies every variable to start a program (as esbuild's service is started): no read of any of them.
    site.edit('sitegen.config.ts', (t) => t.replace("import { z } from 'zod';", "import { z } from 'zod';\nimport { execFileSync } from 'node:child_process';").replace('routes: (c) => [', "routes: (c) => (execFileSync(process.execPath, ['-e', '']), 0) || ["));
    process.env.SG_TEST_OTHER = 'One';
    await run();
    const dist = out(site.root, 'dist');
    const before = stamps(dist);
    process.env.SG_TEST_OTHER = 'Two'; // as a terminal's or a benchmark's own variable changes from run to run
    site.edit('content/pages/about.md', (t) => t.replace('This is **Markdown**', 'This is **edited Markdown**'));
    await run();
    expect(written(before, stamps(dist))).toEqual(['about/index.html']);
  }, 60_000);

  it('a build that encodes an image still knows which variables the site read: the next edit patches', async () => {
    // The image encoder is a program of the engine's own, started with a copy of the whole environment: no read.
    site.write('content/pages/photo.jpg', await photo(800, 500, 2));
    site.edit('content/pages/about.md', (t) => `${t}\n![A gradient at dusk](./photo.jpg)\n`);
    process.env.SG_TEST_OTHER = 'One';
    const first = await run();
    expect(first.images?.processed).toBeGreaterThan(0);
    const dist = out(site.root, 'dist');
    const before = stamps(dist);
    process.env.SG_TEST_OTHER = 'Two';
    site.edit('content/pages/about.md', (t) => t.replace('This is **Markdown**', 'This is **edited Markdown**'));
    await run();
    expect(written(before, stamps(dist))).toEqual(['about/index.html']);
  }, 60_000);

  it('a variable only pages that were not rendered again read still counts after a patch', async () => {
    // Only the home page reads it: a patch that renders the about page alone must keep it in the record.
    site.edit('templates/pages.tsx', (t) => t.replace('export function Home({ items }: { items: { slug: string; title: string }[] }) {', "export function Home({ items }: { items: { slug: string; title: string }[] }) {\n  const tagline = process.env.SG_TEST_TAGLINE ?? '';"));
    site.edit('templates/pages.tsx', (t) => t.replace(/(export function Home[\s\S]*?return \(?<>)/, '$1<p className="tagline">{tagline}</p>'));
    process.env.SG_TEST_TAGLINE = 'One';
    await run();
    const dist = out(site.root, 'dist');
    expect(fs.readFileSync(out(dist, 'index.html'), 'utf8')).toContain('<p class="tagline">One</p>');
    site.edit('content/pages/about.md', (t) => t.replace('This is **Markdown**', 'This is **edited Markdown**'));
    const before = stamps(dist);
    await run(); // a patch: the about page rendered, the home page kept
    expect(written(before, stamps(dist))).toEqual(['about/index.html']);
    process.env.SG_TEST_TAGLINE = 'Two'; // and nothing else changed
    const r = await run();
    expect(r.cached).not.toContain('up to date');
    expect(fs.readFileSync(out(dist, 'index.html'), 'utf8')).toContain('<p class="tagline">Two</p>');
    process.env.SG_TEST_TAGLINE = 'Three';
    site.edit('content/pages/about.md', (t) => t.replace('edited Markdown', 'edited again Markdown'));
    await run();
    expect(fs.readFileSync(out(dist, 'index.html'), 'utf8')).toContain('<p class="tagline">Three</p>');
  }, 60_000);
});

describe('the time zone', () => {
  it('a build in another time zone renders again the dates a template shows in local time (as a clean build would)', async () => {
    const { sitegen } = await import('../helpers/cli.ts');
    // 23:00 UTC on July 8 is July 9 in Berlin.
    site.edit('templates/pages.tsx', (t) => t.replace('<h1>Fixture home</h1>', '<h1>Fixture home</h1><p id="day">{new Date(Date.UTC(2022, 6, 8, 23)).getDate()}</p>'));
    const day = () => /<p id="day">(\d+)<\/p>/.exec(fs.readFileSync(out(site.root, 'dist/index.html'), 'utf8'))?.[1];
    for (const [tz, want] of [['UTC', '8'], ['Europe/Berlin', '9'], ['UTC', '8']]) {
      const r = sitegen(['build', '--root', site.root, '-q'], { env: { TZ: tz } });
      expect(r.code, r.stderr).toBe(0);
      expect(day()).toBe(want);
    }
  });
});
