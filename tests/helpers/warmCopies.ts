// Fresh copies of a fixture for a file whose tests each start from the fixture as committed, one after
// another at ONE path, so that a copy's first build is not a compile from nothing.
//
// A site's compiled module lives in the install's cache keyed by the site's folder and checked against the
// stamps (size, mtime) of what it was made from. A copy at a new temp folder has none, and its first build
// compiles the site: most of a build of a small fixture. Here each copy replaces the one before it at the
// same path and its files keep the fixture's mtimes: the first build finds the module (cached: config), and
// the client bundle in the install's store (src/islands/clientStore.ts, by the contents it was made from),
// and builds the content, pages and output from nothing, as any first build does (no output, no content
// cache, no build record). A test that edits the site's code changes the stamps, so that build compiles
// again, as for a user.
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
import { REPO, fixture } from './cli.ts';
import { SCRATCH } from './scratch.ts';
import { siteAt, type SiteFiles, type TestSite } from './site.ts';

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
  const from = fixture(name);

  const copy = () => {
    fs.cpSync(from, root, { recursive: true, preserveTimestamps: true, filter: (src) => !/(^|[\\/])(dist|\.sitegen|node_modules)([\\/]|$)/.test(path.relative(from, src)) });
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  };

  return {
    root,
    async next(files = {}) {
      fs.rmSync(root, { recursive: true, force: true });
      copy();
      const site = siteAt(root);
      for (const [rel, contents] of Object.entries(files)) site.write(rel, contents);
      return site;
    },
    remove: () => { fs.rmSync(root, { recursive: true, force: true }); },
  };
}
