// Reusing the previous output: `sitegen build` keeps the output it replaces (in <root>/.sitegen/cache/output)
// and the next build writes over its files instead of creating new ones (src/output/write.ts). What a user must
// see: the same output as a build into an empty folder, whatever the previous output held; a hard-linked
// copy of a deployed output never changes; a failed build still leaves dist/ as it was; --no-cache keeps
// nothing.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { pruneTo, stageOutput } from '../../src/output/write.ts';
import { listKept } from '../../src/output/keptListing.ts';
import { REPO, sitegen, fixture } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { treeSnapshot } from '../helpers/tree.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const tmp = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-recycle-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const put = (file: string, text: string) => { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, text); };

/** Every path below `dir` (folders end in /), sorted. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out.push(path.relative(dir, p) + (e.isDirectory() ? '/' : ''));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

describe('pruneTo: what of a previous output a build may write over', () => {
  it('keeps only planned plain files, and never follows or rewrites what another name shares', () => {
    const dir = path.join(tmp, 'prune');
    const outside = path.join(tmp, 'outside.txt');
    put(outside, 'not ours');
    put(path.join(dir, 'index.html'), 'kept');
    put(path.join(dir, 'a/index.html'), 'kept too');
    put(path.join(dir, 'a/old.html'), 'stale file in a planned folder');
    put(path.join(dir, 'gone/index.html'), 'a page that is no more');
    put(path.join(dir, 'x'), 'a file where the build writes a folder');
    put(path.join(dir, 'y/index.html'), 'a folder where the build writes a file');
    fs.symlinkSync(outside, path.join(dir, 'link.html'));
    put(path.join(dir, 'shared.html'), 'hard-linked');
    fs.linkSync(path.join(dir, 'shared.html'), path.join(tmp, 'snapshot.html'));
    put(path.join(dir, 'private.html'), 'another mode');
    fs.chmodSync(path.join(dir, 'private.html'), 0o600);

    pruneTo(dir, ['index.html', 'a/index.html', 'x/index.html', 'y', 'link.html', 'shared.html', 'private.html', 'new/index.html']);

    expect(listing(dir)).toEqual(['a/', 'a/index.html', 'index.html']);
    expect(fs.readFileSync(outside, 'utf8')).toBe('not ours');
    expect(fs.readFileSync(path.join(tmp, 'snapshot.html'), 'utf8')).toBe('hard-linked');
  });

  it('from a listing made on another thread before the folder moved: the same files kept as its own read keeps', async () => {
    // The same folder twice: one pruned by reading it, one from its listing (output/keptListing.ts), made
    // under the name it had before it moved (a build lists the kept output, then moves it to its staging folder).
    const make = (dir: string) => {
      put(path.join(dir, 'index.html'), 'kept');
      for (let i = 0; i < 30; i++) put(path.join(dir, `p${i}/index.html`), `page ${i}`);
      put(path.join(dir, 'p3/stale.html'), 'a stale file in a planned folder');
      put(path.join(dir, 'gone/deep/er/index.html'), 'a folder no planned file is in');
      put(path.join(dir, 'gone-too/index.html'), 'a name that starts like a removed folder');
      put(path.join(dir, 'x'), 'a file where the build writes a folder');
      put(path.join(dir, 'y/index.html'), 'a folder where the build writes a file');
      fs.symlinkSync(path.join(tmp, 'outside.txt'), path.join(dir, 'link.html'));
      put(path.join(dir, 'shared.html'), 'hard-linked');
      fs.linkSync(path.join(dir, 'shared.html'), `${dir}-snapshot.html`);
      put(path.join(dir, 'private.html'), 'another mode');
      fs.chmodSync(path.join(dir, 'private.html'), 0o600);
    };
    const planned = ['index.html', ...Array.from({ length: 30 }, (_, i) => `p${i}/index.html`), 'gone-too/index.html', 'x/index.html', 'y', 'link.html', 'shared.html', 'private.html'];
    const read = path.join(tmp, 'prune-read'), kept = path.join(tmp, 'prune-kept'), staged = path.join(tmp, 'prune-staged');
    make(read); make(kept);
    const listed = await listKept(kept);
    expect(listed).not.toBeNull();
    fs.renameSync(kept, staged);
    pruneTo(read, planned);
    pruneTo(staged, planned, listed);
    expect(listing(staged)).toEqual(listing(read));
    expect(listing(staged)).toContain('gone-too/index.html');
    expect(listing(staged)).not.toContain('gone/');
    expect(fs.readFileSync(`${kept}-snapshot.html`, 'utf8')).toBe('hard-linked');
    expect(listKept(path.join(tmp, 'no-such-folder'))).toBeNull();
  });
});

describe('stageOutput with a kept output', () => {
  it('stages in the kept folder, writes over its files, and keeps the replaced output for the next build', async () => {
    const out = path.join(tmp, 'stage', 'dist');
    const keep = path.join(tmp, 'stage', 'state', 'output');
    const build = async (files: Record<string, string>, finish: 'commit' | 'abort' = 'commit') => {
      const s = await stageOutput(out, { dir: keep, planned: Object.keys(files) });
      for (const [f, text] of Object.entries(files)) await s.write(f, text);
      await s[finish]();
      return s.dir;
    };
    await build({ 'index.html': 'one', 'a/index.html': 'a one' });
    expect(fs.existsSync(keep)).toBe(false); // nothing was replaced
    await build({ 'index.html': 'two, longer than before', 'b/index.html': 'b two' });
    expect(listing(keep)).toEqual(['a/', 'a/index.html', 'index.html']); // the first output, kept
    expect(fs.readFileSync(path.join(keep, 'index.html'), 'utf8')).toBe('one');
    const inode = fs.statSync(path.join(keep, 'index.html')).ino;

    await build({ 'index.html': '3', 'b/index.html': 'b three' });
    // The third build wrote over the first one's file (same inode), cut to its new length, and dropped a/.
    expect(fs.statSync(path.join(out, 'index.html')).ino).toBe(inode);
    expect(listing(out)).toEqual(['b/', 'b/index.html', 'index.html']);
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('3');
    expect(fs.readdirSync(path.dirname(out)).sort()).toEqual(['dist', 'state']); // no staging folder left

    // A build that fails leaves dist/ as it was; its half-written folder goes back to be pruned next time.
    const before = treeSnapshot(out);
    await build({ 'index.html': 'half', 'c/index.html': 'never published' }, 'abort');
    expect(treeSnapshot(out)).toBe(before);
    expect(fs.readdirSync(path.dirname(out)).sort()).toEqual(['dist', 'state']);
    await build({ 'index.html': 'four' });
    expect(listing(out)).toEqual(['index.html']);
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('four');
  });
});

describe('sitegen build over its previous output', () => {
  const site = path.join(tmp, 'site');
  fs.cpSync(fixture('basic'), site, { recursive: true, dereference: true, filter: (f) => !/[/\\](dist|\.sitegen)$/.test(f) });
  // In process (the CLI's build command); the ftruncate count below needs a preload, so a real process.
  // Every build here stages a whole output (SITEGEN_PATCH_MAX=0): none patches the live one in place.
  const env = { SITEGEN_PATCH_MAX: '0' };
  const build = async (out: string, flags: { cache?: boolean } = {}) => {
    const r = await siteAt(site).build({ out, quiet: true, env, ...flags });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  };
  const dist = path.join(site, 'dist');
  const kept = path.join(site, '.sitegen', 'cache', 'output');
  /** What a build of the site as it is now writes into an empty folder (no kept output is used: --no-cache). */
  const fresh = async (name: string) => { const out = path.join(tmp, name); await build(out, { cache: false }); return treeSnapshot(out); };

  it('writes what a build into an empty folder writes, after pages are removed, added and changed', async () => {
    await build(dist);
    await build(dist); // the first output is now kept for the next build
    expect(fs.existsSync(kept)).toBe(true);
    // A deploy that hard-links the output (cp -al, rsync --link-dest) keeps what it linked.
    const snapshot = path.join(tmp, 'deployed-about.html');
    fs.linkSync(path.join(dist, 'about', 'index.html'), snapshot);
    const deployed = fs.readFileSync(snapshot, 'utf8');

    fs.rmSync(path.join(site, 'content', 'items', 'beta.yaml'));
    put(path.join(site, 'content', 'items', 'gamma.yaml'), 'title: Gamma\ntags: [e, f]\nprice: 7\n');
    const about = path.join(site, 'content', 'pages', 'about.md');
    fs.writeFileSync(about, fs.readFileSync(about, 'utf8').replace(/\n*$/, '\n\nA paragraph added after the first build.\n'));
    put(path.join(dist, 'left-by-hand.txt'), 'a file put into dist/ by hand'); // not the build's: never carried over

    await build(dist);
    const reused = fs.statSync(path.join(kept, 'index.html')).ino;
    await build(dist);
    expect(fs.statSync(path.join(dist, 'index.html')).ino).toBe(reused); // written over, not created anew
    const expected = await fresh('fresh-1');
    expect(treeSnapshot(dist)).toBe(expected);
    expect(listing(dist)).toEqual(listing(path.join(tmp, 'fresh-1'))); // no folder of a removed page either
    expect(expected).toContain('items/gamma/index.html');
    expect(expected).not.toContain('items/beta/index.html');
    expect(fs.readFileSync(path.join(dist, 'about', 'index.html'), 'utf8')).toContain('A paragraph added after the first build.');
    expect(fs.readFileSync(snapshot, 'utf8')).toBe(deployed);
    expect(fs.readdirSync(site).filter((f) => f.startsWith('dist'))).toEqual(['dist']);
  });

  it('keeps dist/ untouched when a build fails, and builds right after', async () => {
    const before = treeSnapshot(dist);
    const bad = path.join(site, 'content', 'items', 'bad.yaml');
    put(bad, 'title: 5\n');
    const r = await siteAt(site).build({ out: dist, env });
    expect(r.code).toBe(1);
    expect(treeSnapshot(dist)).toBe(before);
    fs.rmSync(bad);
    await build(dist);
    expect(treeSnapshot(dist)).toBe(await fresh('fresh-2'));
  });

  it('a build into a folder made empty truncates at open; one over the kept output writes over and cuts', async () => {
    // The page writers run in the compiled site module, stageOutput in the CLI: the mark of a folder made
    // empty must reach them (write.ts Staging.fresh, passed through renderPages). Counted in the real CLI: a preload counts ftruncate.
    const counts = path.join(tmp, 'truncates.txt');
    const counted = (extra: string[]) => {
      fs.rmSync(counts, { force: true });
      const r = sitegen(['build', '--root', site, '--out', dist, '--quiet', ...extra], {
        env: { ...env, NODE_OPTIONS: `--require "${path.join(REPO, 'tests/helpers/countTruncates.cjs')}"`, SITEGEN_TEST_TRUNCATES: counts },
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return Number(fs.readFileSync(counts, 'utf8').trim());
    };
    expect(counted(['--no-cache'])).toBe(0); // nothing kept: every page is new
    await build(dist); // keeps the output it replaces
    expect(counted([])).toBeGreaterThanOrEqual(5); // over the kept pages: each cut to its length
    expect(treeSnapshot(dist)).toBe(await fresh('fresh-3'));
  });

  it('--no-cache deletes the replaced output instead of keeping it', async () => {
    fs.rmSync(kept, { recursive: true, force: true });
    await build(dist, { cache: false });
    await build(dist, { cache: false });
    expect(fs.existsSync(kept)).toBe(false);
    expect(fs.readdirSync(site).filter((f) => f.startsWith('dist'))).toEqual(['dist']);
  });
});
