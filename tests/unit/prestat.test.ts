// A build whose inputs changed stamps the live output on a thread of its own while it loads
// (src/pipeline/prestat.ts; from SITEGEN_PRESTAT_MIN output files, 2,000 by default, 1 here). The patch it
// then plans reads those stamps instead of calling lstat on this thread, and decides as it would have: a
// page or folder changed by hand is still seen, and the output is still a clean build's.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { copyOf, type TestSite } from '../helpers/site.ts';
import { cleanBuilder } from '../helpers/cleanBuild.ts';

const ON = { SITEGEN_PRESTAT_MIN: '1' };
const OFF = { SITEGEN_PRESTAT_MIN: '1000000' };

let site: TestSite;
beforeEach(async () => { site = await copyOf('basic'); });
afterEach(() => { vi.restoreAllMocks(); site?.remove(); });

async function buildOk(env: NodeJS.ProcessEnv) {
  const r = await site.build({ env });
  expect(r.errors).toEqual([]);
  expect(r.code).toBe(0);
  return r;
}

/** The output of a build of the site as it is now, with no output or cache before it (tests/helpers/cleanBuild.ts). */
const clean = async () => (await cleanBuilder(site)()).output();

/** The files below `dir` that this thread calls lstat on while `run` goes. */
async function lstatsBelow(dir: string, run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const real = fs.lstatSync;
  vi.spyOn(fs, 'lstatSync').mockImplementation(((p: fs.PathLike, o?: fs.StatSyncOptions) => {
    const s = String(p);
    if (s.startsWith(dir + path.sep) && s.endsWith('.html')) seen.push(path.relative(dir, s));
    return real(p, o);
  }) as typeof fs.lstatSync);
  try { await run(); } finally { vi.mocked(fs.lstatSync).mockRestore(); }
  return seen;
}

/** Builds twice, edits one page's source, and builds again under `env` (the same for every build: a record
 *  is reused only under the environment it was made in): the pages this thread calls lstat on in the last. */
async function oneFileBuild(env: NodeJS.ProcessEnv) {
  await buildOk(env);
  const first = await buildOk(env);
  site.edit('content/pages/about.md', (t) => `${t}\nA line added.\n`);
  let r: Awaited<ReturnType<typeof buildOk>> | undefined;
  const looked = await lstatsBelow(first.outDir, async () => { r = await buildOk(env); });
  return { pages: Object.keys(first.output()).filter((f) => f.endsWith('.html')), looked, r: r! };
}

describe('the live output stamped on another thread (prestat)', () => {
  it('plans a one-file patch without an lstat of each kept page on this thread, and writes what a clean build does', async () => {
    const { looked, r } = await oneFileBuild(ON);
    expect(r.result.timings.staging).toBeUndefined(); // patched in place
    expect([...new Set(looked)]).toEqual(['about/index.html']); // only the page it wrote (commit, record)
    expect(r.read('about/index.html')).toContain('A line added.');
    expect(r.output()).toEqual(await clean());
  }, 120_000);

  it('without the thread (fewer output files than SITEGEN_PRESTAT_MIN) the patch looks at every kept page itself', async () => {
    const { pages, looked, r } = await oneFileBuild(OFF);
    expect(r.result.timings.staging).toBeUndefined();
    expect(pages.length).toBeGreaterThan(3);
    for (const p of pages) expect(looked).toContain(p);
    expect(r.output()).toEqual(await clean());
  }, 120_000);

  it('still sees a page edited by hand and a folder removed by hand', async () => {
    const dist = (await buildOk(ON)).outDir;
    const page = path.join(dist, 'about/index.html');
    const built = fs.readFileSync(page, 'utf8');
    // Same size, other bytes: only the stamp's mtime (and the content) tell it apart.
    fs.writeFileSync(page, built.replace(/<title>/, '<TITLE>'));
    fs.utimesSync(page, new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    site.edit('content/items/beta.yaml', (t) => t.replace(/^price: .*$/m, 'price: 99'));
    let r = await buildOk(ON);
    expect(r.read('about/index.html')).toBe(built);
    expect(r.output()).toEqual(await clean());
    const folder = path.dirname(page);
    fs.rmSync(folder, { recursive: true });
    site.edit('content/items/beta.yaml', (t) => t.replace(/^price: .*$/m, 'price: 98'));
    r = await buildOk(ON);
    expect(r.read('about/index.html')).toBe(built);
    expect(r.output()).toEqual(await clean());
  }, 120_000);
});
