// Test images: a photo-like JPEG (a smooth gradient plus a little noise, so it does not compress to nothing)
// of the given size, and a Markdown page that shows an image.
//
// The noise is the test file's own, new each run: the install's variant store keeps every image's variants
// for every site, between runs too, so a photo another file (or the last run) built would come from it, and
// a test that counts what a build encodes would count nothing. Within a file, the same arguments give the
// same bytes.
import sharp from 'sharp';
import { expect } from 'vitest';

const RUN = (Math.random() * 2 ** 32) >>> 0;
function fileSalt(): number {
  let h = RUN;
  for (const c of expect.getState().testPath ?? '') h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return h;
}

export async function photo(width: number, height: number, seed = 1): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let x = ((seed * 2654435761) ^ fileSalt()) >>> 0;
  for (let i = 0; i < raw.length; i += 3) {
    const p = i / 3, cx = p % width, cy = Math.floor(p / width);
    x = (x * 1103515245 + 12345) >>> 0;
    const n = (x >>> 24) % 24;
    raw[i] = (cx * 255 / width + n) & 255; raw[i + 1] = (cy * 255 / height + n) & 255; raw[i + 2] = (seed * 60 + n) & 255;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

/** A Markdown page titled About whose body ends with `body`. */
export const post = (body: string) => `---\ntitle: About\n---\n# About\n\nSome text.\n\n${body}\n`;
