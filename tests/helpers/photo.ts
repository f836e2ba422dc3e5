// Test images: a photo-like JPEG (a smooth gradient plus a little noise, so it does not compress to nothing)
// of the given size, and a Markdown page that shows an image.
import sharp from 'sharp';

export async function photo(width: number, height: number, seed = 1): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let x = (seed * 2654435761) >>> 0;
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
