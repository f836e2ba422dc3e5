// Where the image store keeps its files: the site's records of the sources its content names (Markdown images, imageFile() fields)
// (<root>/.sitegen/cache/images/sources/<hash>.json: which file a content hash is, and where it is used),
// and the install's variants, one folder per source bytes and settings, shared by every site
// (node_modules/.cache/sitegen/images/), each folder's mtime the last time a build used it (cache/prune.ts
// removes the ones unused for 30 days).
import fs from 'node:fs';
import path from 'node:path';
import type { Location } from '../core/types.ts';
import { installCachePath, siteCachePath } from '../cache/registry.ts';
import { writeFileAtomicSync } from '../cache/index.ts';
import { SITEGEN_CACHE } from '../site/paths.ts';
import type { ImageDep } from './markdown.ts';

export interface SourceRecord {
  /** The file, relative to the site root ("static/img/a.png", "content/posts/a/photo.jpg"). */
  file: string;
  /** Where it is used (a Markdown image), for messages; else the file itself. */
  where?: Location;
}

/** The install's variant store, shared by every site. */
export const variantStore = () => installCachePath(SITEGEN_CACHE, 'imageStore');

/** The site's record of the source a content hash names. */
export const sourceRecordFile = (root: string, hash: string) => path.join(siteCachePath(root, 'images'), 'sources', `${hash}.json`);

/** Records a source a content file names (a Markdown image, an imageFile() field) where every thread (and the next build) finds it. */
export function recordSource(root: string, hash: string, rec: SourceRecord): void {
  const file = sourceRecordFile(root, hash);
  const text = JSON.stringify(rec);
  try {
    const had = fs.readFileSync(file, 'utf8');
    if (had === text) return;
    // (a place without a line, from a schema run again over a cached parse, keeps the line its parse recorded)
    const old = JSON.parse(had) as SourceRecord;
    if (old.file === rec.file && old.where?.file === rec.where?.file && old.where?.line && !rec.where?.line) return;
  } catch { /* not there yet */ }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomicSync(file, text);
}

/**
 * The sources the bodies taken from the content cache show, by root and hash. Their parse recorded each one
 * (recordSource), but a build prunes the records its output does not link: a draft's image, left out of a
 * build, had none when `build --drafts` took the draft from the cache, and its variants were never made.
 */
const cachedSources = new Map<string, Map<string, SourceRecord>>();
export function noteCachedSources(root: string, deps: readonly ImageDep[]): void {
  for (const [file, , , hash, where] of deps) {
    if (!hash) continue;
    let known = cachedSources.get(root);
    if (!known) cachedSources.set(root, (known = new Map()));
    known.set(hash, where ? { file, where } : { file }); // (the latest wins: dev notes a file again as it loads it again)
  }
}
export const cachedSource = (root: string, hash: string): SourceRecord | undefined => cachedSources.get(root)?.get(hash);
export const forgetCachedSources = (root: string): void => { cachedSources.delete(root); };

const DAY = 86_400_000;
/** Moves a store folder's mtime to now when it is over a day old: when a build last used it, for the prune. */
export function markUsed(dir: string): void {
  try {
    const now = Date.now();
    if (fs.statSync(dir).mtimeMs < now - DAY) fs.utimesSync(dir, now / 1000, now / 1000);
  } catch { /* a cache is an optimisation only */ }
}
