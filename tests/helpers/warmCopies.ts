// Fresh copies of a fixture for a file whose tests each start from the fixture as committed, one after
// another at ONE path, so that a copy's first build is not a compile from nothing.
//
// A site's compiled module lives in the install's cache keyed by the site's folder, and its client bundle
// (whose file names depend on that folder) in the site's own cache, both checked against the stamps (size,
// mtime) of what they were made from. A copy at a new temp folder has neither, and its first build compiles
// both: about 0.35 s of a 0.4 s build of a small fixture. Here each copy replaces the one before it at the
// same path, its files keep the fixture's mtimes, and the client bundle a build of the untouched fixture made
// there is put back in its cache: the first build finds both (cached: config, bundle) and builds the content,
// pages and output from nothing, as any first build does (no output, no content cache, no build record).
// A test that edits the site's code changes the stamps, so that build compiles again, as for a user.
//
// The path is one per fixture and test process: a worker runs its files one after another in one process
// (vitest.config.ts, isolate: false), so the next file that asks for the fixture finds it warm too. The
// folders of processes that have ended go when the next process asks for a copy. The copies are made where
// every test's throwaway sites are (tests/helpers/scratch.ts).
//
//   const copies = warmCopies('basic');
//   beforeEach(async () => { site = await copies.next(); });
//   afterAll(() => copies.remove());
import fs from 'node:fs';
import path from 'node:path';
import { CACHES, siteCacheRoot } from '../../src/cache/registry.ts';
import { REPO, fixture } from './cli.ts';
import { SCRATCH } from './scratch.ts';
import { siteAt, type SiteFiles, type TestSite } from './site.ts';

/** What survives a new copy besides the client bundle: the clean builds' own bundle (tests/helpers/cleanBuild.ts). */
const CARRIED = [path.join('.sitegen', 'clean-client')];

export interface WarmCopies {
  /** The fixture as committed, with `files` written over it, in place of the copy before (which is gone). */
  next(files?: SiteFiles): Promise<TestSite>;
  /** The copies' folder: the same for every copy. */
  root: string;
  /** Removes the last copy (the warm state stays for the next file of the process). */
  remove(): void;
}

// On globalThis: a file that resets the module registry (vi.resetModules) would otherwise start a new set.
const made: Map<string, WarmCopies> = ((globalThis as { __sitegenWarmCopies?: Map<string, WarmCopies> }).__sitegenWarmCopies ??= new Map());
const PREFIX = 'sitegen-warm-';

/** Removes the folders of test processes that have ended (a worker may be stopped before its exit handlers). */
function sweep(): void {
  for (const name of fs.readdirSync(SCRATCH)) {
    const pid = Number(/^sitegen-warm-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try { process.kill(pid, 0); } catch (e: any) {
      if (e?.code === 'ESRCH') fs.rmSync(path.join(SCRATCH, name), { recursive: true, force: true });
    }
  }
}

export function warmCopies(name: string): WarmCopies {
  let copies = made.get(name);
  if (!copies) {
    if (!made.size) sweep();
    made.set(name, copies = makeCopies(name));
  }
  return copies;
}

function makeCopies(name: string): WarmCopies {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(SCRATCH, `${PREFIX}${process.pid}-`)));
  const root = path.join(work, name);
  const aside = path.join(work, 'aside');
  const bundle = path.join(work, 'client');
  const from = fixture(name);

  const copy = () => {
    fs.cpSync(from, root, { recursive: true, preserveTimestamps: true, filter: (src) => !/(^|[\\/])(dist|\.sitegen|node_modules)([\\/]|$)/.test(path.relative(from, src)) });
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  };

  return {
    root,
    async next(files = {}) {
      if (!fs.existsSync(bundle)) {
        // Once: the fixture's client bundle at this path, from a build of the fixture as committed.
        copy();
        const r = await siteAt(root).build({ quiet: true });
        if (r.code !== 0) throw new Error(`warmCopies: the fixture ${name} does not build:\n${r.stderr}`);
        fs.renameSync(path.join(siteCacheRoot(root), CACHES.client.path), bundle);
      }
      fs.rmSync(aside, { recursive: true, force: true });
      for (const rel of CARRIED) if (fs.existsSync(path.join(root, rel))) fs.cpSync(path.join(root, rel), path.join(aside, rel), { recursive: true, preserveTimestamps: true });
      fs.rmSync(root, { recursive: true, force: true });
      copy();
      fs.cpSync(bundle, path.join(siteCacheRoot(root), CACHES.client.path), { recursive: true, preserveTimestamps: true });
      if (fs.existsSync(aside)) fs.cpSync(aside, root, { recursive: true, preserveTimestamps: true });
      const site = siteAt(root);
      for (const [rel, contents] of Object.entries(files)) site.write(rel, contents);
      return site;
    },
    remove: () => { fs.rmSync(root, { recursive: true, force: true }); fs.rmSync(aside, { recursive: true, force: true }); },
  };
}
