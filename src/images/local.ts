// A local image named by content: a Markdown image's path or an imageFile() field's value. A relative path is
// read from the content file's folder, one that starts with "/" from static/. The file must be inside the
// site (where a link leads counts) and an image the pipeline reads; its bytes are hashed a chunk at a time
// (source.ts) and its stamp returned, for the content cache to check (ImageDep).
import fs from 'node:fs';
import path from 'node:path';
import { IMAGE_EXT, IMAGE_FORMATS, isContentImage, remoteImage, type ContentImage, type ImageFacts } from './model.ts';
import { sourceFactsOfFile, type SourceResult } from './source.ts';
import { recordSource } from './storeFiles.ts';
import { fileLocation } from '../core/errors.ts';
import type { ImageDep } from './markdown.ts';
import type { Location } from '../core/types.ts';
import type { SiteConfig } from '../core/types.ts';
import { maxPixelsOf } from './config.ts';
import { urlPolicy } from '../render/urls.ts';
import { closest as closestName } from '../core/didYouMean.ts';

export type { ImageDep };

export interface LocalImageOptions {
  root: string;
  /** The content file, relative to the root ("content/posts/a.md"). */
  file: string;
  maxPixels: number;
  /** The site's base ("/" or "/repo/"): a root path written with it is read from static/ without it. */
  base: string;
  /** `href` is a file's path as it is (a field's value), not a URL whose "#", "?" and "%20" are read as such. */
  filePath?: boolean;
}

/** The file `href` names, its stamp and, unless it cannot be published, its facts; or why it cannot be read. */
export type LocalImage = { rel: string; size: number; mtimeMs: number } & ({ facts: ImageFacts } | { problem: string });

/** The key of an image's facts read once: its file, its stamp and the pixel limit they were read under. */
const factsKey = (root: string, rel: string, size: number, mtimeMs: number, maxPixels: number) => `${root}\0${rel}\0${size}\0${mtimeMs}\0${maxPixels}`;

/** `known`: facts already read, by file and stamp (a schema run again over the same data reads no image again). */
export function readLocalImage(o: LocalImageOptions, href: string, known?: Map<string, SourceResult>): LocalImage | { problem: string } {
  let p = href;
  if (!o.filePath) {
    p = href.split('#')[0].split('?')[0];
    try { p = decodeURIComponent(p); } catch { /* kept as written */ }
  }
  const fromBase = o.base !== '/' && p.startsWith(o.base) ? `/${p.slice(o.base.length)}` : p;
  const rel = fromBase.startsWith('/')
    ? path.posix.join('static', fromBase)
    : path.posix.join(path.posix.dirname(o.file), p);
  if (rel.startsWith('..') || path.posix.isAbsolute(rel) || rel.split('/').some((s) => s.startsWith('.') && s.length > 0 && s !== '.')) {
    return { problem: `The image ${href} is outside the site (or in a hidden folder): images are read from the site's own folders only` };
  }
  // (only the folders a build and dev watch: an image elsewhere, an Astro site's assets/, would go stale unseen)
  if (!rel.startsWith('content/') && !rel.startsWith('static/')) {
    return { problem: `The image ${href} is ${rel}, outside content/ and static/: images are read from those folders, which the build and dev watch for changes. Move it beside the file that shows it (content/…), or to static/img/ and write "/img/${rel.split('/').pop()}"` };
  }
  if (!IMAGE_EXT.test(rel)) {
    // (a mistyped extension, "cover.jgp", or none: the image of that folder a typo away, when there is one)
    const near = fs.existsSync(path.join(o.root, rel)) ? '' : missingHint(o.root, rel, p);
    return { problem: near ? `The image ${href} does not exist (looked for ${rel})${near}` : `The image ${href} is not a ${IMAGE_FORMATS} file` };
  }
  const abs = path.join(o.root, rel);
  try {
    // A link anywhere on the way (the file or a folder) may lead out of the site: where it really is counts.
    const real = fs.realpathSync(abs);
    const inside = path.relative(fs.realpathSync(o.root), real);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return { problem: `The image ${href} is a link to a file outside the site` };
    const st = fs.statSync(real);
    if (!st.isFile()) return { problem: `The image ${href} is not a file (${rel})` };
    const key = factsKey(o.root, rel, st.size, st.mtimeMs, o.maxPixels);
    const r = known?.get(key) ?? sourceFactsOfFile(real, rel, o.maxPixels); // read a chunk at a time, never whole
    if (known && !known.has(key)) { if (known.size >= 5_000) known.clear(); known.set(key, r); }
    return { rel, size: st.size, mtimeMs: st.mtimeMs, ...r };
  } catch (e: any) {
    return { problem: e?.code === 'ENOENT' ? `The image ${href} does not exist (looked for ${rel})${missingHint(o.root, rel, p)}` : `The image ${href} cannot be read: ${e?.code ?? e?.message}` };
  }
}

/** readLocalImage with what it read noted: its stamp in `deps` (the content cache checks it) and, once read, its
 *  hash and where it is used (`where`), and its source recorded for the thread that makes its versions (store.ts). */
export function readAndNote(o: LocalImageOptions, href: string, deps: ImageDep[], where: Location, known?: Map<string, SourceResult>): LocalImage | { problem: string } {
  const r = readLocalImage(o, href, known);
  if (!('rel' in r)) return r;
  const dep: ImageDep = [r.rel, r.size, r.mtimeMs];
  deps.push(dep);
  if ('facts' in r) {
    recordSource(o.root, r.facts.hash, { file: r.rel, where });
    dep[3] = r.facts.hash;
    dep[4] = where;
  }
  return r;
}

/** What a missing image's path likely meant: a file of static/ written without its leading "/" (a path without
 *  one is read from the content file's folder), else an image of the same folder a typo away (its case, say). */
function missingHint(root: string, rel: string, written: string): string {
  // (a path that climbs out of static/ is never offered: the build refuses such a path)
  if (!written.startsWith('/') && !written.startsWith('.') && !written.split('/').includes('..') && fs.existsSync(path.join(root, 'static', written))) {
    return `. Did you mean /${written}? A path without "/" is read from the content file's folder; one from the root, from static/`;
  }
  let names: string[];
  try { names = fs.readdirSync(path.join(root, path.posix.dirname(rel))).filter((n) => IMAGE_EXT.test(n)); } catch { return ''; }
  const base = path.posix.basename(rel), stem = (n: string) => n.replace(/\.[^.]*$/, '');
  // (the same name with another extension, "cover.png" for cover.jpg, or none written; else one a typo away)
  const near = names.find((n) => stem(n) === stem(base) || n === `${base}.${n.split('.').pop()}`) ?? (names.length <= 5_000 ? closestName(base, names) : undefined);
  return near ? `. Did you mean ${written.slice(0, written.length - path.posix.basename(rel).length)}${near}?` : '';
}

// The facts of the images fields named, by file and stamp: dev validates every file again after a template
// edit, and a photo's hash is a read of all its bytes.
const fieldFacts = new Map<string, SourceResult>();

/** Takes the images of a file's previous schema output (`previous`) as read, for those of its `deps` (from the
 *  content cache, their stamps checked) they name: a template edit validates every file again, and each photo
 *  would be read whole again for facts its bytes still have. */
export function knownFieldImages(root: string, deps: readonly ImageDep[], previous: unknown, maxPixels: number): void {
  const found: ContentImage[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (!v || typeof v !== 'object' || depth > 16) return;
    if (isContentImage(v)) { found.push(v); return; }
    for (const x of Array.isArray(v) ? v : Object.values(v)) visit(x, depth + 1);
  };
  visit(previous, 0);
  for (const { file, hash, name, width, height, format } of found) {
    const dep = deps.find((d) => d[0] === file && d[3] === hash);
    if (dep && width * height <= maxPixels) fieldFacts.set(factsKey(root, file, dep[1], dep[2], maxPixels), { facts: { hash, name, width, height, format } });
  }
}

/** The reader of one content file's imageFile() fields (content/validate.ts): each image it reads goes into
 *  `deps` (the content cache checks its stamp; a build that takes the entry from the cache knows its source by
 *  it) and is recorded for the thread that makes its versions (store.ts). */
export function fieldImageReader(o: LocalImageOptions, deps: ImageDep[], where: (written: string) => Location = () => fileLocation(o.file)): (written: string) => ContentImage | { problem: string } {
  return (written) => {
    if (written.includes('\\')) return { problem: `The image ${written} is written with "\\": write a path with "/" (${written.replace(/\\/g, '/')}), on every system` };
    if (remoteImage(written, [])) return { problem: `The image ${written} is remote: an imageFile() field names a file of the site, beside the content file or under static/. For a remote image, use z.string() and <Image src={…}> with its host in images.remote` };
    if (!written.trim()) return { problem: 'The image path is empty: write the file\'s path, such as ./cover.jpg beside this file' };
    const r = readAndNote({ ...o, filePath: true }, written, deps, where(written), fieldFacts);
    return 'facts' in r ? { ...r.facts, file: r.rel } : { problem: r.problem };
  };
}

/** The images a file's body shows and its fields name (its content cache deps), or undefined for none. */
export const allDeps = (p: { deps?: ImageDep[]; fieldDeps?: ImageDep[] }): ImageDep[] | undefined =>
  p.fieldDeps?.length ? [...p.deps ?? [], ...p.fieldDeps] : p.deps;
/** `{ deps }` when there are any, for a parse output. */
export const depsOf = (deps: ImageDep[] | undefined): { deps?: ImageDep[] } => (deps ? { deps } : {});

/** Where a site's imageFile() fields read their images (content/validate.ts). */
export const fieldImages = (config: Pick<SiteConfig, 'images' | 'site'>, root: string): Omit<LocalImageOptions, 'file'> => ({ root, maxPixels: maxPixelsOf(config), base: urlPolicy(config).base });

/** Whether every image file a cached body shows (or its fields name) still has the stamp it had. Plain stat calls: one a
 *  shown image, a few microseconds each, where a promise-wrapped call per image (hundreds at once, through
 *  libuv's pool) cost the content stage tens of milliseconds. */
export function depsUnchanged(root: string, deps: ImageDep[]): boolean {
  for (const [f, size, mtimeMs] of deps) {
    let st: fs.Stats;
    try { st = fs.statSync(path.join(root, f)); } catch { return false; }
    if (st.size !== size || st.mtimeMs !== mtimeMs) return false;
  }
  return true;
}
