// images: the static images of a site (static/**.png|jpg|jpeg|gif|webp|svg) as data templates can use —
// each one's pixel size, read from the file's header (no image library: these formats state it in their
// first bytes), and, with `images: { fingerprint: true }`, a content-hashed copy under /assets/ (which
// `_headers` already caches for a year). In: the files' bytes; out: a plain table (sent to render workers)
// and the copies to write. Templates read the table through image() (render/images.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from '../content/glob.ts';
import { sourceFacts } from '../images/source.ts';
import { DEFAULT_MAX_PIXELS, IMAGE_EXT, type ImageFacts } from '../images/model.ts';

export interface ImageInfo {
  /** Site path the page should link (base-less): the hashed copy when fingerprinting, else the file itself. */
  src: string;
  width: number;
  height: number;
  /** What the image pipeline knows of it (<Image>: images/model.ts), or why it cannot publish it. */
  facts?: ImageFacts;
  problem?: string;
}

/** The image pipeline's view of a static file's bytes. */
function pipelineFacts(rel: string, bytes: Uint8Array, maxPixels: number): Pick<ImageInfo, 'facts' | 'problem'> {
  const r = sourceFacts(bytes, `static/${rel}`, maxPixels);
  return 'facts' in r ? { facts: r.facts } : { problem: r.problem };
}

/** Site path of a static image ("/img/a.png") → what templates get. */
export type ImageTable = Record<string, ImageInfo>;


const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

/** The EXIF orientation (1-8) in an APP1 segment that starts at `at` and ends before `end`, or 1. */
function exifOrientation(b: Uint8Array, at: number, end: number): number {
  if (ascii(b, at, 6) !== 'Exif\0\0') return 1;
  const tiff = at + 6;
  const little = ascii(b, tiff, 2) === 'II';
  const u16 = (i: number) => (little ? u16le(b, i) : u16be(b, i));
  const u32 = (i: number) => (little ? (u16le(b, i) + u16le(b, i + 2) * 0x10000) : u32be(b, i));
  const ifd = tiff + u32(tiff + 4);
  if (ifd + 2 > end) return 1;
  const n = u16(ifd);
  for (let k = 0; k < n && ifd + 2 + k * 12 + 12 <= end; k++) {
    const e = ifd + 2 + k * 12;
    if (u16(e) === 0x0112) { const v = u16(e + 8); return v >= 1 && v <= 8 ? v : 1; }
  }
  return 1;
}

function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2, orientation = 1;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) { i++; continue; }
    const marker = b[i + 1];
    if (marker === 0xff) { i++; continue; }
    // Start-of-frame markers (baseline, progressive, …) carry the size; DHT, JPG and DAC share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      // A photo a camera took turned (EXIF orientation 5 to 8) is shown turned, by browsers and by its versions
      // (the encoder turns it): its width and height as shown are the frame's swapped.
      const height = u16be(b, i + 5), width = u16be(b, i + 7);
      return orientation >= 5 ? { width: height, height: width } : { width, height };
    }
    if (marker === 0xe1 && orientation === 1) orientation = exifOrientation(b, i + 4, Math.min(b.length, i + 2 + u16be(b, i + 2)));
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) { i += 2; continue; }
    i += 2 + u16be(b, i + 2);
  }
  return null;
}

function svgSize(text: string): { width: number; height: number } | null {
  // The first `<svg` up to the first `>` after it (`/<svg\b[^>]*>/i`, without reading to the end of the
  // text from every `<svg` when no `>` follows).
  const start = text.search(/<svg\b/i);
  const close = start < 0 ? -1 : text.indexOf('>', start);
  if (close < 0) return null;
  const tag = text.slice(start, close + 1);
  const attr = (n: string) => new RegExp(`\\s${n}\\s*=\\s*["']\\s*([\\d.]+)(px)?\\s*["']`, 'i').exec(tag);
  const w = attr('width'), h = attr('height');
  if (w && h) return { width: Math.round(Number(w[1])), height: Math.round(Number(h[1])) };
  const vb = /\sviewBox\s*=\s*["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*["']/i.exec(tag);
  return vb ? { width: Math.round(Number(vb[1])), height: Math.round(Number(vb[2])) } : null;
}

/** Width and height in pixels from an image file's header, or null when the format or file is not understood. */
export function imageSize(bytes: Uint8Array, file: string): { width: number; height: number } | null {
  const b = bytes;
  if (/\.svg$/i.test(file)) return svgSize(Buffer.from(b.subarray(0, 4096)).toString('utf8'));
  if (b.length >= 24 && b[0] === 0x89 && ascii(b, 1, 3) === 'PNG' && ascii(b, 12, 4) === 'IHDR') return { width: u32be(b, 16), height: u32be(b, 20) };
  if (b.length >= 10 && ascii(b, 0, 4) === 'GIF8') return { width: u16le(b, 6), height: u16le(b, 8) };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegSize(b);
  if (b.length >= 30 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') {
    const kind = ascii(b, 12, 4);
    if (kind === 'VP8 ') return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
    if (kind === 'VP8L') { const v = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24); return { width: (v & 0x3fff) + 1, height: ((v >>> 14) & 0x3fff) + 1 }; }
    if (kind === 'VP8X') return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return null;
}

/** "img/a.png" → "assets/img/a-<hash>.png": a name that changes with the bytes, under the long-cached /assets/. */
export function fingerprintPath(rel: string, bytes: Uint8Array): string {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  return `assets/${rel.replace(/(\.[^./]+)$/, `-${hash}$1`)}`;
}

/**
 * The image table of a site's static files (`rel` relative to static/) and, when fingerprinting, the hashed
 * copies to write. Files whose size cannot be read still get an entry (width and height 0), so image()
 * finds them; the originals stay where they are, so hand-written links keep working.
 */
export function staticImages(files: Iterable<[string, Uint8Array]>, fingerprint: boolean, maxPixels = DEFAULT_MAX_PIXELS): { table: ImageTable; copies: Map<string, Uint8Array> } {
  const table: ImageTable = {};
  const copies = new Map<string, Uint8Array>();
  for (const [rel, bytes] of files) {
    if (!IMAGE_EXT.test(rel)) continue;
    const size = imageSize(bytes, rel) ?? { width: 0, height: 0 };
    let src = `/${rel}`;
    if (fingerprint) {
      const copy = fingerprintPath(rel, bytes);
      copies.set(copy, bytes);
      src = `/${copy}`;
    }
    table[`/${rel}`] = { src, ...size, ...pipelineFacts(rel, bytes, maxPixels) };
  }
  return { table, copies };
}

const seen = new WeakMap<Uint8Array, { size: { width: number; height: number }; copy: string | null; pipeline: Pick<ImageInfo, 'facts' | 'problem'>; maxPixels: number }>();

/** staticImages for a set of files that changes a few at a time (dev): each file's bytes are read once. */
export function staticImagesCached(files: Iterable<[string, Uint8Array]>, fingerprint: boolean, maxPixels = DEFAULT_MAX_PIXELS): { table: ImageTable; copies: Map<string, Uint8Array> } {
  const table: ImageTable = {};
  const copies = new Map<string, Uint8Array>();
  for (const [rel, bytes] of files) {
    if (!IMAGE_EXT.test(rel)) continue;
    let known = seen.get(bytes);
    if (!known || (fingerprint && !known.copy) || known.maxPixels !== maxPixels) {
      known = { size: imageSize(bytes, rel) ?? { width: 0, height: 0 }, copy: fingerprint ? fingerprintPath(rel, bytes) : null, pipeline: pipelineFacts(rel, bytes, maxPixels), maxPixels };
      seen.set(bytes, known);
    }
    const copy = fingerprint ? known.copy! : null;
    if (copy) copies.set(copy, bytes);
    table[`/${rel}`] = { src: `/${copy ?? rel}`, ...known.size, ...known.pipeline };
  }
  return { table, copies };
}

/** The static images of a site on disk (build): files a symlink leads out of the root are skipped here; the static stage reports them. */
export async function readStaticImages(root: string, fingerprint: boolean): Promise<{ table: ImageTable; copies: Map<string, Uint8Array> }> {
  const dir = path.join(root, 'static');
  const files = (await listFiles(dir, { root, outside: [] })).filter((f) => IMAGE_EXT.test(f));
  const read = await Promise.all(files.map(async (f): Promise<[string, Uint8Array]> => [f, await fs.readFile(path.join(dir, f))]));
  return staticImages(read, fingerprint);
}

// What a page's <Image> and image() read of the static images: each one's published path, size and content
// hash. A static image replaced in dev renders the pages again (a variant's URL names the content it was made
// from), as a template edit does; which page used which image is not recorded.
const tableKeys = new WeakMap<ImageTable, string>();
export function imageTableKey(table: ImageTable): string {
  let k = tableKeys.get(table);
  if (k === undefined) tableKeys.set(table, (k = JSON.stringify(Object.entries(table).map(([p, i]) => [p, i.src, i.width, i.height, i.facts?.hash ?? i.problem ?? '']))));
  return k;
}
