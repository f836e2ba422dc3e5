// The same site builds to the same files wherever `sitegen` is started from: `npm run build` in the site's
// folder and `sitegen build --root site` from the folder above must name the client's files (content hashes)
// alike, or a deploy changes every asset URL (and busts every cache) for nothing, and a cached bundle made
// from one folder would differ from a clean build made from the other.
import { afterAll, describe, expect, it } from 'vitest';
import { copyOf, type TestSite } from '../helpers/site.ts';

const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });

/** A build of `site` with the process's working folder at `cwd` (the fixture API runs in this process). */
async function buildFrom(site: TestSite, cwd: string, cache: boolean): Promise<Record<string, string>> {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const r = await site.build({ quiet: true, cache });
    expect(r.errors, r.stderr).toEqual([]);
    return r.output();
  } finally {
    process.chdir(before);
  }
}

describe('output independent of the working folder', () => {
  it('a site with an island and CSS: the same files, byte for byte, built from the repository, from the site and from /', async () => {
    const site = await copyOf('basic');
    sites.push(site);
    const fromRepo = await buildFrom(site, process.cwd(), false);
    const assets = Object.keys(fromRepo).filter((f) => f.startsWith('assets/') && f.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(1); // the runtime and the island's chunk, hashed
    expect(await buildFrom(site, site.root, false)).toEqual(fromRepo);
    expect(await buildFrom(site, '/', false)).toEqual(fromRepo);
  });

  it('a bundle cached by a build from another folder gives what a clean build gives', async () => {
    const site = await copyOf('basic');
    sites.push(site);
    const clean = await buildFrom(site, site.root, false);
    await buildFrom(site, '/', true); // fills the site's client cache
    site.write('content/pages/about.md', `${site.file('content/pages/about.md')}\nOne more line.\n`);
    const cached = await buildFrom(site, site.root, true);
    const cleanAgain = await buildFrom(site, site.root, false);
    expect(cached).toEqual(cleanAgain);
    expect(Object.keys(cached).filter((f) => f.startsWith('assets/'))).toEqual(Object.keys(clean).filter((f) => f.startsWith('assets/')));
  });
});
