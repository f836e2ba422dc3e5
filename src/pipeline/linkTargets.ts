// linkTargets: what a link may name (route and alias paths, output files), asked of the lists and sets the
// plan has as they are, for the link check (links.ts).
import type { LinkTargets } from './linkScan.ts';

/** Targets of a list of paths and of output files. */
export function makeTargets(paths: string[], files: Iterable<string>, base = '/'): LinkTargets {
  return targetsOver(() => paths, (p) => paths.includes(p), [new Set(files)], base);
}

/** Paths asked by a scan of the lists before they are made a Set (see targetsOver). */
export const SCANNED_ASKS = 32;

/** Targets of the `paths` and of the files the `fileSets` hold (each file at "/<file>", an HTML file also
 *  without ".html"), asked of those sets as they are: a big site's output files are not copied into
 *  another set as paths (100,000 pages: 200,000 more strings and set entries, made for every build). The
 *  first SCANNED_ASKS paths asked that are no file are looked for by `scan` (a one-file build of the bench
 *  site asks 18: its layout's and its body's links), the others of a Set of `paths()`, made then (100,000
 *  bench pages: 650,000 paths, 215 ms of a one-file build; 32 scans of them ~130 ms at worst). */
export function targetsOver(paths: () => Iterable<string>, scan: (p: string) => boolean, fileSets: readonly Pick<ReadonlySet<string>, 'has'>[], base = '/'): LinkTargets {
  let set: Set<string> | undefined, asked = 0;
  const all = () => (set ??= new Set(paths()));
  const isPath = (p: string) => (set || ++asked > SCANNED_ASKS ? all().has(p) : scan(p));
  const isFile = (f: string) => fileSets.some((s) => s.has(f));
  const inFiles = (p: string) => p.startsWith('/') && (isFile(p.slice(1)) || isFile(`${p.slice(1)}.html`));
  // While scanning, files first (a stylesheet's link on every page answered without a scan); once the set is
  // made, the set first: most links are pages, answered without the two file names made (a cold build asks every link).
  return { has: (p) => (set ? set.has(p) || inFiles(p) : inFiles(p) || isPath(p)), base, paths: all };
}
