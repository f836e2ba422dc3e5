// The client bundle store (src/islands/clientStore.ts): a site finds a bundle another site made from files with
// the same contents at the same places relative to it (a copy, a move, another worktree, a branch switched back)
// instead of running esbuild, gets the same files a bundle of its own would be, and never one made from other
// contents. Each test gives the island a token of its own, so no bundle from an earlier run can answer.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { copyOf } from '../helpers/scratch.ts';
import type { TestSite } from '../helpers/site.ts';
import { clientStorePath, planHash, saveBundle } from '../../src/islands/clientStore.ts';
import { LAST_PRUNE, pruneCaches } from '../../src/cache/prune.ts';
import { configureEngine } from '../../src/core/settings.ts';
import { packagesPlanKey, vendorBundle } from '../../src/islands/bundleDev.ts';

const ISLAND = 'templates/islands/Counter.tsx';
const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });

/** A copy of the basic fixture whose island carries `token` (a statement the bundle keeps: its bytes depend on it). */
async function siteWith(token: string): Promise<TestSite> {
  const site = await copyOf('basic');
  sites.push(site);
  site.edit(ISLAND, (t) => `${t}\n(globalThis as Record<string, unknown>).islandToken = ${JSON.stringify(token)};\n`);
  return site;
}
const fresh = () => randomBytes(6).toString('hex');
/** A build, with its output's assets and home page read at once (the next build of the site replaces them). */
async function build(site: TestSite, cache = true): Promise<{ cached: string[]; assets: Record<string, string>; home: string }> {
  const r = await site.build({ quiet: true, cache });
  expect(r.errors, r.stderr).toEqual([]);
  const assets = Object.fromEntries(Object.entries(r.output()).filter(([f]) => f.startsWith('assets/')));
  return { cached: r.result.cached ?? [], assets, home: r.read('index.html') };
}

describe('the client bundle store', () => {
  it("serves a copy of a site the bundle its original made: no esbuild, the same files", async () => {
    const token = fresh();
    const a = await siteWith(token);
    const first = await build(a);
    expect(first.cached).not.toContain('bundle');
    const b = await siteWith(token);
    const copy = await build(b);
    expect(copy.cached).toContain('bundle');
    expect(copy.assets).toEqual(first.assets);
    expect(copy.home).toBe(first.home);
  });

  it('bundles an island edit, and finds the bundle again when the edit is undone (a branch switched back)', async () => {
    const token = fresh();
    const site = await siteWith(token);
    const before = await build(site);
    site.edit(ISLAND, (t) => t.replace(token, fresh()));
    const edited = await build(site);
    expect(edited.cached).not.toContain('bundle');
    expect(edited.assets).not.toEqual(before.assets);
    site.edit(ISLAND, (t) => t.replace(/islandToken = "[0-9a-f]+";/, `islandToken = ${JSON.stringify(token)};`));
    const back = await build(site);
    expect(back.cached).toContain('bundle');
    expect(back.assets).toEqual(before.assets);
  });

  it('never serves a bundle made from other contents, even with the same size and modification time', async () => {
    const a = await siteWith(fresh());
    const first = await build(a);
    const b = await siteWith(fresh()); // a token of the same length
    const st = fs.statSync(path.join(a.root, ISLAND));
    expect(fs.statSync(path.join(b.root, ISLAND)).size).toBe(st.size);
    fs.utimesSync(path.join(b.root, ISLAND), st.atime, st.mtime);
    const other = await build(b);
    expect(other.cached).not.toContain('bundle');
    expect(other.assets).not.toEqual(first.assets);
    // and what it made is what a build without any cache makes
    expect((await build(b, false)).assets).toEqual(other.assets);
  });

  it('is neither read nor written by a build with the cache off', async () => {
    const token = fresh();
    const a = await siteWith(token);
    expect((await build(a, false)).cached).not.toContain('bundle');
    const b = await siteWith(token);
    expect((await build(b)).cached).not.toContain('bundle'); // nothing was stored
    const c = await siteWith(token);
    expect((await build(c, false)).cached).not.toContain('bundle'); // and nothing is read
  });

  it('stores no bundle when a file it read was saved after the build began (esbuild may have read it before)', async () => {
    configureEngine(); // the caches on (a build above turned them off for this thread)
    const site = await siteWith(fresh());
    const file = path.join(site.root, ISLAND);
    const planKey = `test plan ${fresh()}`;
    const meta = { inputs: { [path.relative(process.cwd(), file)]: { bytes: 1, imports: [] } }, outputs: {} };
    const manifest = { runtime: null, css: [], islandChunks: {}, baseChunks: [], reactIslands: [], islands: [], files: new Map([['assets/x.js', new TextEncoder().encode('x')]]) };
    const dir = path.join(clientStorePath(), planHash(site.root, planKey));
    // esbuild works in the site's folder: the metafile names files relative to it
    const relMeta = { ...meta, inputs: { [ISLAND]: meta.inputs[path.relative(process.cwd(), file)] } };
    await saveBundle(site.root, 'k', planKey, manifest, relMeta as never, fs.statSync(file).mtimeMs - 1);
    expect(fs.existsSync(dir)).toBe(false);
    await saveBundle(site.root, 'k', planKey, manifest, relMeta as never, Date.now() + 1000);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.json'))).toHaveLength(1);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("gives `sitegen dev` of another site the packages' bundle (React's development build) from the store: the same files, no new bundle", async () => {
    configureEngine();
    const a = await siteWith(fresh());
    const first = await vendorBundle(a.root, []);
    if (Array.isArray(first)) throw new Error(JSON.stringify(first));
    expect(Object.keys(first.urls)).toEqual(expect.arrayContaining(['react', 'react-dom/client']));
    const plan = path.join(clientStorePath(), planHash(a.root, packagesPlanKey([])));
    const entries = () => fs.readdirSync(plan).filter((n) => n.endsWith('.json'));
    const stored = entries();
    expect(stored.length).toBeGreaterThan(0);
    const longAgo = new Date(Date.now() - 86_400_000);
    for (const n of stored) fs.utimesSync(path.join(plan, n), longAgo, longAgo);
    const inodes = stored.map((n) => fs.statSync(path.join(plan, n)).ino);
    const b = await siteWith(fresh()); // another folder: this process has not bundled its packages
    const second = await vendorBundle(b.root, []);
    if (Array.isArray(second)) throw new Error(JSON.stringify(second));
    expect(second.urls).toEqual(first.urls);
    expect(second.react).toEqual(first.react);
    const digests = (files: Map<string, Uint8Array>) => Object.fromEntries([...files].map(([f, bytes]) => [f, createHash('sha1').update(bytes).digest('hex')]));
    expect(digests(second.files)).toEqual(digests(first.files));
    // Read from the store (its entry marked used), not bundled and stored anew (a new file in its place).
    expect(entries()).toEqual(stored);
    expect(stored.map((n) => fs.statSync(path.join(plan, n)).ino)).toEqual(inodes);
    expect(stored.some((n) => fs.statSync(path.join(plan, n)).mtimeMs > longAgo.getTime())).toBe(true);
  });

  it('is pruned to the bundles used in the last hour or the newest 64, and the files only the others named, at most once in ten minutes', async () => {
    const store = clientStorePath();
    const plan = path.join(store, `test-prune-${fresh()}`);
    fs.mkdirSync(plan, { recursive: true });
    fs.mkdirSync(path.join(store, 'blobs'), { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    const blobs: string[] = [];
    for (let i = 0; i < 70; i++) {
      const hash = `${fresh()}${'0'.repeat(28)}`;
      blobs.push(hash);
      fs.writeFileSync(path.join(store, 'blobs', hash), 'x');
      fs.utimesSync(path.join(store, 'blobs', hash), twoHoursAgo, twoHoursAgo);
      const entry = path.join(plan, `${i}.json`);
      fs.writeFileSync(entry, JSON.stringify({ inputs: [], manifest: {}, files: [['assets/x.js', hash]] }));
      const t = new Date(twoHoursAgo.getTime() - i * 1000); // entry 0 the most recently used
      fs.utimesSync(entry, t, t);
    }
    fs.rmSync(path.join(store, LAST_PRUNE), { force: true }); // (a prune runs at most once in ten minutes)
    await pruneCaches({ root: plan }, ['clientStore']);
    const left = fs.existsSync(plan) ? fs.readdirSync(plan).map((n) => Number(n.replace('.json', ''))).sort((x, y) => x - y) : [];
    expect(left.length).toBeLessThanOrEqual(64);
    expect(left).toEqual([...Array(left.length).keys()]); // the most recently used ones stay
    for (let i = 0; i < 70; i++) expect(fs.existsSync(path.join(store, 'blobs', blobs[i]!)), `blob of entry ${i}`).toBe(i < left.length);
    // A second prune within ten minutes does not look: old bundles stay until the next one.
    fs.mkdirSync(plan, { recursive: true });
    for (let i = 0; i < 70; i++) {
      fs.writeFileSync(path.join(plan, `${i}.json`), JSON.stringify({ inputs: [], data: {}, files: [] }));
      fs.utimesSync(path.join(plan, `${i}.json`), twoHoursAgo, twoHoursAgo);
    }
    expect(await pruneCaches({ root: plan }, ['clientStore'])).toEqual({ clientStore: 0 });
    expect(fs.readdirSync(plan)).toHaveLength(70);
    fs.rmSync(plan, { recursive: true, force: true });
    for (const b of blobs) fs.rmSync(path.join(store, 'blobs', b), { force: true });
  });
});
