// The image model shared by templates (<Image>) and Markdown: from what the engine read of a source image
// (its content hash, pixel size and format) and the site's options, the variants it is published as and the
// <picture> that shows them. Plain data and string work, no Node API: the package's public entry (which
// islands import in the browser) exports <Image>, which renders from these facts.
//
// A variant's URL says everything needed to make it: /assets/img/<key>/<name>-<width>.<ext> (a crop:
// <name>-<width>x<height>.<ext>), where the key is the source's content hash and a hash of the encoder's
// quality. So the engine makes exactly the files the pages link (build: from their links; dev: on request),
// and a changed image gets new names.

/** Formats a raster image is published in besides its own (the fallback). */
export type ModernFormat = 'avif' | 'webp';
export type SourceFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif' | 'svg';

/** The extensions a local image may have (static/, beside a Markdown file), and the formats as messages name them. */
export const IMAGE_EXT = /\.(png|jpe?g|gif|webp|avif|svg)$/i;
export const IMAGE_FORMATS = 'PNG, JPEG, WebP, AVIF, GIF or SVG';

/** What the engine knows of one source image. */
export interface ImageFacts {
  /** Content hash of the source's bytes (hex, 16 characters). */
  hash: string;
  /** The file's name without folder and extension, made URL-safe: the variants' names start with it. */
  name: string;
  width: number;
  height: number;
  format: SourceFormat;
}

/** An image named by a content field (authoring/imageFile.ts): what the pipeline knows of it, and its file. */
export interface ContentImage extends ImageFacts {
  /** The source file, relative to the site root ("content/posts/a/cover.jpg"). */
  file: string;
}

/** Whether a value is an imageFile() field's (an <Image> src given as an object). */
export function isContentImage(v: unknown): v is ContentImage {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return typeof o.file === 'string' && typeof o.hash === 'string' && /^[0-9a-f]{16}$/.test(o.hash) && typeof o.name === 'string'
    && Number.isInteger(o.width) && Number.isInteger(o.height) && typeof o.format === 'string' && Object.hasOwn(EXT, o.format);
}

/** The formats link previews read, in which an image's Open Graph version keeps its own format. */
export const OG_FORMATS: ReadonlySet<SourceFormat> = new Set(['jpeg', 'png', 'webp']);

/** One version of an image (its path without base or leading "/", and its size): `width` pixels wide, never
 *  wider than the image, in `format` (its own by default); an SVG or a GIF: its file, as it is. */
export function versionOf(f: ImageFacts, s: ImageSettings, width: number, format: SourceFormat | ModernFormat = f.format, shape: ImageShape = {}): { path: string; width: number; height: number } {
  if (passThrough(f.format)) return { path: variantPath(f, s, null, f.format), width: f.width, height: f.height };
  const q = withQuality(s, shape.quality);
  const area = shownArea(f, shape.aspect);
  const w = Math.min(width, area.width);
  const h = shape.aspect ? cropHeight(w, shape.aspect, area.height) : undefined;
  return { path: variantPath(f, q, w, format, h), width: w, height: h ?? heightAt(f, w) };
}

/** How one image is shown besides its widths: cut to an aspect ratio (width / height, the middle of the image
 *  kept), and encoded at its own quality (1-100) instead of the site's. */
export interface ImageShape { aspect?: number; quality?: number }

/** The narrowest and widest aspect ratios a crop may ask for (a typo's 169 for 16/9 is an error). */
export const ASPECT_RANGE = [0.05, 20] as const;

/** An aspect ratio as written (a number, "16:9" or "16/9"): width over height, or null when it is none or out
 *  of ASPECT_RANGE. */
export function aspectOf(v: unknown): number | null {
  let n: number | null = null;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string') {
    const m = /^\s*(\d{1,5}(?:\.\d{1,4})?)\s*[:/]\s*(\d{1,5}(?:\.\d{1,4})?)\s*$/.exec(v);
    if (m && Number(m[2]) > 0) n = Number(m[1]) / Number(m[2]);
  }
  return n !== null && Number.isFinite(n) && n >= ASPECT_RANGE[0] && n <= ASPECT_RANGE[1] ? n : null;
}

/** Whether a quality is one the encoder takes (a whole number from 1 to 100). */
export const isQuality = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 100;

/** The settings with this image's own quality, if it has one. */
const withQuality = (s: ImageSettings, quality?: number): ImageSettings => (quality === undefined || quality === s.quality ? s : { ...s, quality });

/** The part of the image a crop to `aspect` keeps (all of it without one): its whole width or its whole height. */
export function shownArea(f: Pick<ImageFacts, 'width' | 'height'>, aspect?: number): { width: number; height: number } {
  if (!aspect) return f;
  return f.width / f.height > aspect ? { width: Math.max(1, Math.round(f.height * aspect)), height: f.height } : { width: f.width, height: cropHeight(f.width, aspect, f.height) };
}

/** The height of a crop `width` pixels wide (at least 1 px). */
/** The height of a crop `width` pixels wide (at least 1 px, and never more than the image has: a width rounded
 *  from the image's height, 667 of 1000 × 2/3, would give 1001 again). */
const cropHeight = (width: number, aspect: number, most: number) => Math.min(most, Math.max(1, Math.round(width / aspect)));

/** How wide an image shared is published: what link previews show (1200 × 630 for a 1.91:1 card). */
const SHARE_WIDTH = 1200;
/** The version of an image that a link preview or a feed reader fetches: at most 1200 px wide (an original of
 *  many megabytes is what it would fetch, and some refuse it), in its own format when previews read it, else
 *  (an AVIF) in WebP when the site makes WebP versions; an SVG or a GIF as it is. */
export function shareVersion(f: ImageFacts, s: ImageSettings): { path: string; width: number; height: number } {
  const format = OG_FORMATS.has(f.format) || !s.formats.includes('webp') ? f.format : 'webp';
  return versionOf(f, s, SHARE_WIDTH, format);
}

/** The site's image settings (config `images`), with defaults applied. */
export interface ImageSettings {
  /** Widths offered in each srcset (never above the source's own). */
  widths: number[];
  /** Modern formats, in order of preference. */
  formats: ModernFormat[];
  /** Encoder quality, 1-100. */
  quality: number;
  /** The widest an image is shown: its width/height attributes and default `sizes`. */
  maxWidth: number;
  /** The `sizes` of an image that names none (else: its width up to the viewport's). */
  sizes?: string;
}

export const DEFAULT_IMAGE_SETTINGS: ImageSettings = { widths: [640, 960, 1280, 1920], formats: ['avif', 'webp'], quality: 60, maxWidth: 1280 };

/** Images with more pixels than this are refused by default (a decompression bomb); config `images.maxPixels`. */
export const DEFAULT_MAX_PIXELS = 100_000_000;
/** A remote image (a URL, not a path of the site) in Markdown or <Image>: null when `src` is none; else whether
 *  its host is in images.remote (`listed`) and, when it is, why the site's CSP would still block it (`blocked`:
 *  it lets a listed host load over https on its default port, output/hostfiles.ts). */
export function remoteImage(src: string, remote: readonly string[]): { listed: boolean; blocked: string | null } | null {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith('//')) return null;
  let u: URL | null = null;
  try { u = new URL(src.startsWith('//') ? `https:${src}` : src); } catch { /* not a URL */ }
  if (!u?.hostname || !remote.includes(u.hostname)) return { listed: false, blocked: null };
  const blocked = u.protocol !== 'https:' ? `it is not an https:// address, and the Content-Security-Policy lets a listed host's images load over https only: write https://${u.hostname}${u.pathname}${u.search}`
    : u.port ? `it names port ${u.port}, and the Content-Security-Policy lets a listed host's images load from its default port only` : null;
  return { listed: true, blocked };
}

/** The largest width an image may ask for, in Markdown or <Image> (a typo's extra digit is an error, not a 90,000 px request). */
export const MAX_ASKED_WIDTH = 16384;

/** Where every variant lives (under the site's base). */
export const IMAGE_DIR = 'assets/img/';

/** FNV-1a, 32 bits, as 8 hex digits: a stable short hash without node:crypto. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16).padStart(8, '0');
}

/** The part of the key that changes with the encoder settings (a new quality re-encodes under new names). */
export const settingsTag = (s: Pick<ImageSettings, 'quality'>) => shortHash(`q${s.quality}`).slice(0, 6);

// The quality each tag stands for (a path names its quality by its tag: the site's, or an image's own).
let qualities: Map<string, number> | null = null;
/** The quality a variant path's tag names, or undefined for a tag of none. */
export function qualityOfTag(tag: string): number | undefined {
  if (!qualities) { qualities = new Map(); for (let q = 1; q <= 100; q++) qualities.set(settingsTag({ quality: q }), q); }
  return qualities.get(tag);
}

/** "photo.JPG" → "photo"; anything but letters, digits, "-" and "_" becomes "-". */
export function imageName(file: string): string {
  const base = file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  return base.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'image';
}

const EXT: Record<SourceFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif', gif: 'gif', svg: 'svg' };
export const extOf = (f: SourceFormat | ModernFormat) => EXT[f];

/** Formats that are published as they are (their own bytes, their own size). */
export const passThrough = (f: SourceFormat) => f === 'gif' || f === 'svg';

/** The widths a source is published at: the settings' below its own width, and its own when it is no wider than the largest. */
export function variantWidths(sourceWidth: number, widths: readonly number[]): number[] {
  const ws = [...new Set(widths.filter((w) => Number.isInteger(w) && w > 0))].sort((a, b) => a - b);
  const out = ws.filter((w) => w < sourceWidth);
  if (!ws.length || sourceWidth <= ws[ws.length - 1]) out.push(sourceWidth);
  return out;
}

/** A variant's path in the output (no leading "/", no base). */
export function variantPath(f: ImageFacts, s: Pick<ImageSettings, 'quality'>, width: number | null, format: SourceFormat | ModernFormat, height?: number): string {
  const file = width === null ? `${f.name}.${extOf(format)}` : `${f.name}-${width}${height === undefined ? '' : `x${height}`}.${extOf(format)}`;
  return `${IMAGE_DIR}${f.hash}${settingsTag(s)}/${file}`;
}

/** What a variant's path names, or null for a path that is no variant. */
export function parseVariantPath(p: string): { hash: string; tag: string; name: string; width: number | null; height: number | null; ext: string } | null {
  const rel = p.startsWith('/') ? p.slice(1) : p;
  if (!rel.startsWith(IMAGE_DIR)) return null;
  const rest = rel.slice(IMAGE_DIR.length);
  const slash = rest.indexOf('/');
  if (slash !== 22 || !/^[0-9a-f]{22}$/.test(rest.slice(0, 22))) return null;
  const file = rest.slice(23);
  const m = /^([A-Za-z0-9_-]{1,60}?)(?:-(\d{1,5})(?:x(\d{1,5}))?)?\.(avif|webp|jpg|png|gif|svg)$/.exec(file);
  if (!m) return null;
  // (no version is 0 px wide or high: a path that says so names none)
  if ((m[2] !== undefined && Number(m[2]) === 0) || (m[3] !== undefined && Number(m[3]) === 0)) return null;
  return { hash: rest.slice(0, 16), tag: rest.slice(16, 22), name: m[1], width: m[2] ? Number(m[2]) : null, height: m[3] ? Number(m[3]) : null, ext: m[4] };
}

/** What one <Image> or Markdown image asks for besides its source. */
export interface ImageRequest {
  alt: string;
  /** The `sizes` attribute; default: the shown width up to the viewport's. */
  sizes?: string;
  /** The page's main (LCP) image: loaded at once with high priority, and preloaded. */
  priority?: boolean;
  /** Widths for this image only (else the site's). */
  widths?: number[];
  /** Cut to this aspect ratio (width / height), the middle kept; its own quality. */
  aspect?: number;
  quality?: number;
  /** The site's base ("/" or "/repo/"), which every URL gets. */
  base: string;
}

/** The <picture> of an image as plain attributes, for React and for HTML text alike. */
export interface PictureModel {
  sources: { type: string; srcset: string; sizes?: string }[];
  img: { src: string; srcset?: string; sizes?: string; alt: string; width: number; height: number; loading?: 'lazy'; decoding: 'async' | 'auto'; fetchpriority?: 'high' };
  /** Every file the picture links (paths without base): the engine makes exactly these. */
  files: string[];
}

/** The height of an image shown `width` pixels wide, its aspect ratio kept (at least 1 px). */
export const heightAt = (f: Pick<ImageFacts, 'width' | 'height'>, width: number): number => Math.max(1, Math.round((f.height * width) / f.width));

/** The <picture> (or, for SVG and GIF, a bare <img>) of an image. */
export function pictureModel(f: ImageFacts, s: ImageSettings, r: ImageRequest): PictureModel {
  const url = (p: string) => `${r.base}${p}`;
  const eager = !!r.priority;
  const lazy = eager ? { decoding: 'auto' as const, fetchpriority: 'high' as const } : { loading: 'lazy' as const, decoding: 'async' as const };
  if (passThrough(f.format)) {
    const p = variantPath(f, s, null, f.format);
    return { sources: [], img: { src: url(p), alt: r.alt, width: f.width, height: f.height, ...lazy }, files: [p] };
  }
  const { aspect } = r;
  const q = withQuality(s, r.quality);
  const area = shownArea(f, aspect);
  const widths = variantWidths(area.width, r.widths ?? s.widths);
  const shown = Math.min(area.width, s.maxWidth, widths[widths.length - 1]);
  const height = aspect ? cropHeight(shown, aspect, area.height) : heightAt(f, shown);
  const sizes = r.sizes ?? s.sizes ?? `(min-width: ${shown}px) ${shown}px, 100vw`;
  const files: string[] = [];
  const at = (w: number, format: SourceFormat | ModernFormat) => variantPath(f, q, w, format, aspect ? cropHeight(w, aspect, area.height) : undefined);
  const srcset = (format: SourceFormat | ModernFormat) => widths.map((w) => { const p = at(w, format); files.push(p); return `${url(p)} ${w}w`; }).join(', ');
  // (every modern format the site makes, the source's own among them: a WebP photo keeps its WebP srcset beside the
  // AVIF one, and an AVIF photo its AVIF one, where the fallback alone gave a browser one width)
  const sources = s.formats.map((m) => ({ type: `image/${m}`, srcset: srcset(m), sizes }));
  // The fallback: the source's own format at the width it is shown (the nearest made width at or above it).
  const fallbackWidth = widths.find((w) => w >= shown) ?? widths[widths.length - 1];
  // Every browser that shows <picture> takes one of its sources; the fallback is for the others, at one width.
  const fallback = at(fallbackWidth, f.format);
  if (sources.length) files.push(fallback);
  const img = sources.length
    ? { src: url(fallback), alt: r.alt, width: shown, height, ...lazy }
    : { src: url(fallback), srcset: srcset(f.format), sizes, alt: r.alt, width: shown, height, ...lazy };
  return { sources, img, files };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The picture as HTML text (Markdown bodies). */
export function pictureHtml(m: PictureModel, title?: string): string {
  const attrs = (o: Record<string, string | number | undefined>) => Object.entries(o).filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}="${esc(String(v))}"`).join('');
  const img = `<img${attrs({ src: m.img.src, srcset: m.img.srcset, sizes: m.img.sizes, alt: m.img.alt, title, width: m.img.width, height: m.img.height, loading: m.img.loading, decoding: m.img.decoding, fetchpriority: m.img.fetchpriority })}>`;
  if (!m.sources.length) return img;
  return `<picture>${m.sources.map((s) => `<source${attrs({ type: s.type, srcset: s.srcset, sizes: s.sizes })}>`).join('')}${img}</picture>`;
}

/** The settings from the site config's `images` (defaults for what it leaves out). */
export function imageSettings(config?: { widths?: number[]; formats?: ModernFormat[]; quality?: number; maxWidth?: number; sizes?: string }): ImageSettings {
  return {
    widths: config?.widths?.length ? config.widths : DEFAULT_IMAGE_SETTINGS.widths,
    formats: config?.formats ?? DEFAULT_IMAGE_SETTINGS.formats,
    quality: config?.quality ?? DEFAULT_IMAGE_SETTINGS.quality,
    maxWidth: config?.maxWidth ?? DEFAULT_IMAGE_SETTINGS.maxWidth,
    ...(config?.sizes ? { sizes: config.sizes } : {}),
  };
}
