// What the engine reads of a source image before any pixel is decoded: its content hash, its format (from
// the bytes, not the extension) and its pixel size (from the header, output/staticImages.ts imageSize). A file
// that is no image, or one whose pixel count is above the limit (a decompression bomb: a small file that
// decodes to gigabytes), is refused here with the reason; a corrupt body shows only when it is decoded
// (encoder.ts).
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { imageSize } from '../output/staticImages.ts';
import { imageName, type ImageFacts, type SourceFormat } from './model.ts';

function sniff(b: Uint8Array, file: string): SourceFormat | null {
  const ascii = (i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));
  if (b.length >= 8 && b[0] === 0x89 && ascii(1, 3) === 'PNG') return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 6 && ascii(0, 4) === 'GIF8') return 'gif';
  if (b.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') return 'webp';
  if (b.length >= 12 && ascii(4, 4) === 'ftyp' && /^avi[fs]$/.test(ascii(8, 4))) return 'avif';
  if (/\.svg$/i.test(file)) {
    const head = Buffer.from(b.subarray(0, 4096)).toString('utf8');
    if (/<svg\b/i.test(head)) return 'svg';
  }
  return null;
}

export type SourceResult = { facts: ImageFacts } | { problem: string };

/** The facts of an image file's bytes, or why it cannot be published. */
export function sourceFacts(bytes: Uint8Array, file: string, maxPixels: number): SourceResult {
  return factsOf(bytes, file, maxPixels, () => createHash('sha256').update(bytes).digest('hex').slice(0, 16)) ?? sizeless(sniff(bytes, file)!, file);
}

const sizeless = (format: SourceFormat, file: string) => ({ problem: `${file} is a ${format.toUpperCase()} file whose size cannot be read: it is corrupt or truncated` });

/** The facts from a file's first bytes (`head`: all that sniffing and the size need) and its hash, asked
 *  last; null when the head does not hold the size. */
function factsOf(head: Uint8Array, file: string, maxPixels: number, hash: () => string): SourceResult | null {
  const format = sniff(head, file);
  if (!format) return { problem: `${file} is not an image sitegen can read (PNG, JPEG, WebP, AVIF, GIF or SVG): its bytes are of no such format` };
  let size = format === 'avif' ? avifSize(head) : imageSize(head, file);
  if (!size) return null;
  if (!(size.width > 0) || !(size.height > 0)) return sizeless(format, file);
  if (size.width * size.height > maxPixels) {
    // (the limit as set; the image's megapixels with two decimals, or as many more as tell it from the limit: 10001×10000 is 100.01)
    const limit = +(maxPixels / 1e6).toFixed(6), pixels = size.width * size.height;
    let d = 2, mp = +(pixels / 1e6).toFixed(d);
    while (d < 6 && (mp === limit || mp === 0)) mp = +(pixels / 1e6).toFixed(++d);
    return { problem: `${file} is ${size.width}×${size.height} pixels (${mp} megapixels), above the limit of ${limit} megapixels (images.maxPixels); it is refused so that a small file cannot decode to gigabytes` };
  }
  size = { width: Math.round(size.width), height: Math.round(size.height) };
  return { facts: { hash: hash(), name: imageName(file), width: size.width, height: size.height, format } };
}

// A source is read a chunk at a time: its hash covers every byte, but no more than a chunk of it is held
// (the whole of 200 photos read one after another left hundreds of megabytes to the garbage collector).
// The first chunk is the head the format and size are read from; a file whose size is not in it (a JPEG
// with more metadata before its frame than that) is read whole, as before.
const CHUNK = 1 << 20;

/** sourceFacts of a file (`abs`, named `file` in messages), read in chunks. Throws when it cannot be read. */
export function sourceFactsOfFile(abs: string, file: string, maxPixels: number): SourceResult {
  const fd = fs.openSync(abs, 'r');
  try {
    const h = createHash('sha256');
    const head = Buffer.allocUnsafe(CHUNK);
    const headBytes = head.subarray(0, readFull(fd, head));
    h.update(headBytes);
    const r = factsOf(headBytes, file, maxPixels, () => {
      const chunk = Buffer.allocUnsafe(CHUNK);
      for (let n; (n = fs.readSync(fd, chunk, 0, CHUNK, null)) > 0;) h.update(chunk.subarray(0, n));
      return h.digest('hex').slice(0, 16);
    });
    // The size is not in the first chunk: the whole file, as before (or the problem, when that was all of it).
    return r ?? (headBytes.length < CHUNK ? sizeless(sniff(headBytes, file)!, file) : sourceFacts(fs.readFileSync(abs), file, maxPixels));
  } finally {
    fs.closeSync(fd);
  }
}

/** Fills `b` from the file's current position as far as the file goes; the bytes read. */
function readFull(fd: number, b: Buffer): number {
  let n = 0;
  for (let k; n < b.length && (k = fs.readSync(fd, b, n, b.length - n, null)) > 0;) n += k;
  return n;
}

/** An AVIF's size from its `ispe` box (the first one: the primary item's, in the files encoders write). */
function avifSize(b: Uint8Array): { width: number; height: number } | null {
  const limit = Math.min(b.length - 20, 65536);
  for (let i = 4; i < limit; i++) {
    if (b[i] === 0x69 && b[i + 1] === 0x73 && b[i + 2] === 0x70 && b[i + 3] === 0x65) {
      const u32 = (k: number) => ((b[k] << 24) >>> 0) + (b[k + 1] << 16) + (b[k + 2] << 8) + b[k + 3];
      return { width: u32(i + 8), height: u32(i + 12) };
    }
  }
  return null;
}
