// The image store of a site: which source each content hash names, and the variants made from it. A
// variant is made once per (source bytes, encoder settings, width, format) and kept in the install's store
// (node_modules/.cache/sitegen/images/, one folder per source bytes and settings), so a warm build encodes
// nothing, a changed image only itself (its new bytes give it a new hash and new names), and another site
// with the same image (a copy, a worktree, a fresh clone whose host kept node_modules) none of it. sharp
// does the work on its own threads (libuv's pool and libvips'), so the main thread goes on parsing and
// rendering meanwhile. Where the store's files are: storeFiles.ts.
//
// Sources are registered by the code that met them: the static images by the plan (from static/), a
// Markdown image or an imageFile() field's by the content load (on whichever thread parsed the file: it leaves a small record
// under sources/, which is how the build thread learns of it, even when the Markdown came from the content
// cache). Where a source was met (a Markdown file's line) is kept for the messages about it.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import { bodyMayHold } from '../content/diskBody.ts';
import path from 'node:path';
import type { Location, Message, SiteConfig } from '../core/types.ts';
import { message, fileLocation } from '../core/errors.ts';
import { IMAGE_DIR, parseVariantPath, passThrough, qualityOfTag, settingsTag, variantPath, type ImageFacts, type ImageSettings } from './model.ts';
import { sourceFactsOfFile } from './source.ts';
import { encode, loadSharp } from './encoder.ts';
import { maxPixelsOf, siteImageSettings } from './config.ts';
import { encoderOptions, htmlVariantPaths } from './variants.ts';
import { cachedSource, forgetCachedSources, markUsed, sourceRecordFile, variantStore, type SourceRecord } from './storeFiles.ts';
export { noteCachedSources } from './storeFiles.ts';
import { engineSettings } from '../core/settings.ts';
import { counter } from '../core/progress.ts';

/** A variant made: its output path and its bytes, or the file that has them (the cache, or the source itself). */
export interface MadeVariant {
  path: string; bytes?: Uint8Array; file?: string;
  /** `file` is in the variant store (not the source). */ cached?: boolean;
  /** Encoded by this build (else taken from the store, or the source as it is). */ made?: boolean;
}

export interface ImageStats {
  /** Variants encoded by this store, and taken from the build cache. */
  processed: number; cached: number;
  /** Variants asked for so far (made, being made or waiting). */
  requested: number;
}

export class ImageStore {
  readonly stats: ImageStats = { processed: 0, cached: 0, requested: 0 };
  private sources = new Map<string, SourceRecord>();
  private facts = new Map<string, Promise<{ facts: ImageFacts } | { problem: string }>>();
  private made = new Map<string, Promise<MadeVariant | Message>>();

  /** `sitegen check`: a variant the cache lacks is not made; its source is decoded once (small) to find a corrupt file, and nothing is written. */
  checkOnly = false;
  private decoded = new Map<string, Promise<string | null>>();

  constructor(readonly root: string, public settings: ImageSettings, public maxPixels: number, public useCache = true) {}

  /** A source the engine met (a static image, or a Markdown image on this thread). */
  register(hash: string, rec: SourceRecord): void {
    const had = this.sources.get(hash);
    if (!had || (!had.where && rec.where)) this.sources.set(hash, rec);
  }

  /** The source a hash names: registered here, recorded by another thread or an earlier build, or else
   *  named by a body this build took from the content cache (whose record a build without it pruned). */
  source(hash: string): SourceRecord | undefined {
    let rec = this.sources.get(hash);
    if (rec) return rec;
    try {
      rec = JSON.parse(fs.readFileSync(sourceRecordFile(this.root, hash), 'utf8')) as SourceRecord;
      if (typeof rec?.file !== 'string') rec = undefined;
    } catch { /* no record */ }
    rec ??= cachedSource(this.root, hash);
    if (rec) this.sources.set(hash, rec);
    return rec;
  }

  /**
   * Ends the store's work: variants still waiting for a slot are not made, and the ones being made finish
   * (a build that stops early leaves no encoding running behind it, nor a half-written cache file).
   */
  async settle(): Promise<void> {
    this.closed = true;
    for (const go of this.waiting.splice(0)) go();
    await Promise.allSettled([...this.made.values(), ...this.facts.values(), ...this.decoded.values()]);
  }
  private closed = false;

  /** Whether `p` (a base-less site path, "/assets/img/…") is a variant of a known source (at the site's quality or an image's own). */
  isVariant(p: string): boolean {
    const v = parseVariantPath(p);
    return !!v && qualityOfTag(v.tag) !== undefined && !!this.source(v.hash);
  }

  /** Makes (or takes from the cache) the variant at a base-less path; a located message when it cannot. */
  variant(p: string): Promise<MadeVariant | Message> {
    const rel = p.startsWith('/') ? p.slice(1) : p;
    let m = this.made.get(rel);
    if (!m) {
      m = this.make(rel).catch((e) => message('ImageError', `${rel} cannot be made: ${e?.message ?? e}`, null));
      this.made.set(rel, m);
      this.stats.requested++;
    }
    return m;
  }

  /** Makes every variant among `paths` that names a known source: the files, and the problems. */
  async variants(paths: Iterable<string>, progress = false): Promise<{ files: MadeVariant[]; errors: Message[] }> {
    const wanted = [...new Set([...paths].map((p) => (p.startsWith('/') ? p.slice(1) : p)))].filter((p) => this.isVariant(p));
    const files: MadeVariant[] = [];
    // One message per source image, however many of its variants failed.
    const errors = new Map<string, Message>();
    // (`progress`: counted as each is made or found, the images stage's: a site's photos are a first build's longest)
    const step = progress ? counter('images', wanted.length) : undefined;
    const made = await Promise.all(wanted.map((p) => this.variant(p).then((r) => { step?.(); return r; })));
    made.forEach((r, i) => {
      if ('path' in r) files.push(r);
      else if (!errors.has(parseVariantPath(wanted[i])!.hash)) errors.set(parseVariantPath(wanted[i])!.hash, r);
    });
    return { files, errors: [...errors.values()] };
  }

  /** A made variant's bytes. One the store has lost since this build made or found it (another process
   *  deleted it: `sitegen clean --shared`, a prune) is made again, not a failed build. */
  async bytes(v: MadeVariant): Promise<Uint8Array> {
    try {
      return await variantBytes(v);
    } catch (e) {
      if ((e as NodeJS.ErrnoException)?.code !== 'ENOENT' || !v.cached) throw e;
      this.made.delete(v.path);
      this.listed.delete(path.dirname(v.file!));
      const again = await this.variant(v.path);
      if (!('path' in again)) throw new Error(again.text);
      return variantBytes(again);
    }
  }

  private where(rec: SourceRecord): Location {
    return rec.where ?? fileLocation(rec.file);
  }

  /** The facts of a source, read once: the file's bytes are hashed and dropped (sharp reads the file itself). */
  private readSource(hash: string, rec: SourceRecord) {
    let f = this.facts.get(hash);
    if (!f) {
      f = (async () => {
        // Under a slot too: a page of many photos must not read them all into memory at once.
        const read = await this.slot(async () => {
          try { return sourceFactsOfFile(path.join(this.root, rec.file), rec.file, this.maxPixels); } catch (e: any) { return { problem: `Cannot read ${rec.file}: ${e.code ?? e.message}` }; }
        });
        const r = read;
        if ('problem' in r) return r;
        // The file changed since the page named it: the page is stale, not the image wrong.
        if (r.facts.hash !== hash) return { problem: `${rec.file} changed while the site was built; build again` };
        return { facts: r.facts };
      })();
      this.facts.set(hash, f);
    }
    return f;
  }

  // At most this many images decode at once: each holds its pixels, and libuv's pool (which sharp's work
  // and every asynchronous file call share) keeps threads free for the build's own reads and writes.
  private running = 0;
  private waiting: (() => void)[] = [];
  private readonly slots = Math.max(1, Math.min(4, os.availableParallelism()));
  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) await new Promise<void>((go) => this.waiting.push(go));
    if (this.closed) throw new Error('the build stopped before this image was made');
    this.running++;
    try { return await fn(); } finally { this.running--; this.waiting.shift()?.(); }
  }

  // The store's variants of a source, one listing of its folder per build (a warm build asks for every
  // variant: one readdir per source image instead of a stat per variant). A plain call: a few microseconds
  // for a folder of a dozen names, where 200 promise-wrapped ones queued behind libuv's pool. A variant
  // this store makes later is in `made`, so a listing never needs to see it. A folder found is marked used
  // (its mtime, moved on at most once a day): the prune removes what no build has used for 30 days.
  private listed = new Map<string, Set<string> | null>();
  private cachedNames(dir: string): Set<string> | null {
    let names = this.listed.get(dir);
    if (names === undefined) {
      try { names = new Set(fs.readdirSync(dir)); } catch { names = null; }
      this.listed.set(dir, names);
      if (names) markUsed(dir);
    }
    return names;
  }

  private async make(rel: string): Promise<MadeVariant | Message> {
    const v = parseVariantPath(rel)!;
    // Made by an earlier build (of any site): its name is the source's hash, so it is still right (and was
    // checked then).
    const cached = path.join(variantStore(), rel.slice(IMAGE_DIR.length));
    if (this.useCache && this.cachedNames(path.dirname(cached))?.has(path.basename(cached))) {
      this.stats.cached++;
      return { path: rel, file: cached, cached: true };
    }
    const rec = this.source(v.hash)!;
    const src = await this.readSource(v.hash, rec);
    if ('problem' in src) return message('ImageError', src.problem, this.where(rec));
    const { facts } = src;
    const s = this.settings;
    const abs = path.join(this.root, rec.file);
    if (passThrough(facts.format)) {
      if (v.width !== null || v.ext !== variantPath(facts, s, null, facts.format).split('.').pop()) return message('ImageError', `No such variant of ${rec.file}: ${rel}`, this.where(rec));
      return { path: rel, file: abs };
    }
    const format = (v.ext === 'jpg' ? 'jpeg' : v.ext) as 'avif' | 'webp' | 'jpeg' | 'png';
    // The name is the file's (the same bytes may be two files of two names); the hash says what it shows.
    if (v.width === null || !(format === facts.format || s.formats.includes(format as 'avif' | 'webp'))) {
      return message('ImageError', `No such variant of ${rec.file}: ${rel}`, this.where(rec));
    }
    if (v.width > facts.width) return message('ImageError', `${rel} asks for ${v.width} px of ${rec.file}, which is ${facts.width} px wide: images are never enlarged`, this.where(rec));
    if (v.height !== null && v.height > facts.height) return message('ImageError', `${rel} asks for ${v.height} px of the height of ${rec.file}, which is ${facts.height} px high: images are never enlarged`, this.where(rec));
    if (this.checkOnly) {
      let d = this.decoded.get(v.hash);
      if (!d) {
        d = loadSharp().then((sharp) => this.slot(() => sharp(abs, { limitInputPixels: this.maxPixels, failOn: 'truncated' }).resize({ width: 16 }).raw().toBuffer()))
          .then(() => null, (e) => String(e?.message ?? e).split('\n')[0]);
        this.decoded.set(v.hash, d);
      }
      const problem = await d;
      if (problem) return message('ImageError', `${rec.file} cannot be decoded: it is corrupt or truncated (${problem})`, this.where(rec));
      return { path: rel, file: abs };
    }
    // Encoded in the encoder process (encoder.ts), which writes the store's file itself (under a temporary
    // name, renamed when whole); without the cache, the bytes come back.
    const o = encoderOptions({ ...s, quality: qualityOfTag(v.tag)! });
    const tmp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    if (this.useCache) await fsp.mkdir(path.dirname(cached), { recursive: true });
    let out: Uint8Array | undefined;
    try {
      out = await this.slot(() => encode({
        file: abs, width: v.width! < facts.width || v.height !== null ? v.width! : null, height: v.height, format, options: o[format], maxPixels: this.maxPixels,
        out: this.useCache ? tmp : undefined,
      }));
    } catch (e: any) {
      if (this.useCache) await fsp.rm(tmp, { force: true });
      const why = String(e?.message ?? e).split('\n')[0];
      if (why.startsWith('the image encoder')) return message('ImageError', `${rec.file} could not be encoded: ${why}`, this.where(rec));
      return message('ImageError', `${rec.file} cannot be decoded: it is corrupt or truncated (${why})`, this.where(rec));
    }
    this.stats.processed++;
    if (!this.useCache) return { path: rel, bytes: out!, made: true };
    await fsp.rename(tmp, cached);
    return { path: rel, file: cached, cached: true, made: true };
  }
}

/** A made variant's bytes: kept in memory only without a cache, else read from the store when written. */
async function variantBytes(v: MadeVariant): Promise<Uint8Array> {
  return v.bytes ?? fsp.readFile(v.file!);
}

/**
 * The roots whose build encodes Markdown images while content loads (build only: check makes none, dev
 * makes them on request), and whether that build publishes drafts.
 */
const early = new Map<string, { drafts: boolean }>();

/** This thread's build of `root` starts each Markdown image's variants as soon as its file is parsed (null: no more). */
export function encodeWhileLoading(root: string, on: { drafts: boolean } | null): void {
  if (on) early.set(root, on); else early.delete(root);
}

/**
 * A content file's entry is known (parsed here, by a worker, or taken from the content cache): the variants
 * of the images its body shows start now, on sharp's threads, while the other files load. The build's later
 * requests for the same paths (render, then the images stage) get the same promises.
 */
export function contentImagesKnown(root: string, config: Pick<SiteConfig, 'images'>, base: string, entry: { html?: string; draft?: boolean } | undefined): void {
  const on = early.size ? early.get(root) : undefined;
  if (!on || !entry || !bodyMayHold(entry, 'image')) return; // a body on disk without an image: not read
  const html = entry.html;
  if (!html || (entry.draft && !on.drafts) || !html.includes(`${base}assets/img/`)) return;
  const store = imageStore(root, siteImageSettings(config), maxPixelsOf(config), engineSettings().cache);
  if (store.checkOnly) return;
  void store.variants(htmlVariantPaths(html, base, []));
}

const stores = new Map<string, ImageStore>();

/** Forgets a root's store (a build starts with a new one). */
export function resetImageStore(root: string): void {
  stores.delete(root);
  forgetCachedSources(root); // (this build's content load names them again)
}

/** The root's current store, if any. */
export const currentImageStore = (root: string) => stores.get(root);
/**
 * The image store of a site root in this thread, its settings those of the current config. `fresh` (each
 * build) starts a new one: nothing made by an earlier build in this process is taken for made again.
 */
export function imageStore(root: string, settings: ImageSettings, maxPixels: number, useCache: boolean, fresh = false): ImageStore {
  let s = fresh ? undefined : stores.get(root);
  const same = s && settingsTag(s.settings) === settingsTag(settings) && s.maxPixels === maxPixels && s.useCache === useCache;
  if (!s || !same) { s = new ImageStore(root, settings, maxPixels, useCache); stores.set(root, s); }
  s.settings = settings;
  return s;
}
