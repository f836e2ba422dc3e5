// Where a test's throwaway sites go. A build that fails still lists, reads and compares folders, and each
// case of a test copies a site and deletes it again: on this machine's disk every create and delete of a
// file costs a millisecond or more (a failed build of the basic fixture, with its copy and clean-up, took
// about 150 ms there and 30 ms in memory). So the copies go to a folder in memory (/dev/shm, a tmpfs)
// where the machine has one we may write, else to the system's temp folder. Nothing the tests check
// depends on the kind of file system: the engine never writes outside the site root, and a site's
// node_modules is a link to the repository's, wherever the copy is.
import fs from 'node:fs';
import path from 'node:path';
import { REPO, fixture } from './cli.ts';
import { copyOf as copyOfIn, siteFrom as siteFromIn, type SiteFiles, type TestSite } from './site.ts';

export { SCRATCH, scratchDir, removeScratchDirs } from './scratchRoot.ts';
import { SCRATCH } from './scratchRoot.ts';

/** site.ts's copyOf, made in SCRATCH. */
export const copyOf = (name: string, files: SiteFiles = {}, opts: { beside?: string[] } = {}): Promise<TestSite> => copyOfIn(name, files, { under: SCRATCH, ...opts });

/** site.ts's siteFrom, made in SCRATCH. */
export const siteFrom = (files: SiteFiles = {}, opts: { base?: string; beside?: string[] } = {}): Promise<TestSite> => siteFromIn(files, { under: SCRATCH, ...opts });

/** A copy of tests/fixtures/<name> in SCRATCH, without its output and caches; node_modules is linked in so the site's imports resolve. */
export function copyFixture(name = 'basic'): string {
  const from = fixture(name);
  const dir = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-dev-'));
  fs.cpSync(from, dir, { recursive: true, filter: (src) => !/(^|[\\/])(dist|\.sitegen)([\\/]|$)/.test(path.relative(from, src)) });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Deletes a copy copyFixture made (nothing outside SCRATCH). */
export function removeCopy(dir: string): void {
  if (path.dirname(dir) === SCRATCH && path.basename(dir).startsWith('sitegen-dev-')) fs.rmSync(dir, { recursive: true, force: true });
}
