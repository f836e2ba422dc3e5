// Variant paths: which variants a page's links or a body's HTML name; and the encoders' options for the
// settings. Plain functions of strings and settings.
import type { ImageSettings } from './model.ts';
import { bodyMayHold } from '../content/diskBody.ts';

/**
 * The encoders' options for the settings (bench/images.mjs calls sharp with the same ones for its floor).
 * WebP and JPEG get a higher number than AVIF for a similar look.
 */
export function encoderOptions(s: ImageSettings) {
  const q = (n: number) => Math.min(100, s.quality + n);
  return {
    avif: { quality: s.quality, effort: 2 },
    webp: { quality: q(10), effort: 3 },
    jpeg: { quality: q(15), mozjpeg: true },
    png: { compressionLevel: 6 },
  };
}

/** Every variant path among links (base-less results; links under `base`). */
export function variantLinks(links: Iterable<string>, base = '/'): string[] {
  const out: string[] = [];
  const prefix = `${base}assets/img/`;
  for (const l of links) if (l.startsWith(prefix)) out.push(`/${l.slice(base.length)}`);
  return out;
}

/** The variant paths (base-less, "/assets/img/…") one body's HTML names, added to `out`. */
export function htmlVariantPaths(html: string, base: string, out: string[]): string[] {
  const prefix = `${base}assets/img/`;
  for (let at = html.indexOf(prefix); at >= 0; at = html.indexOf(prefix, at + prefix.length)) {
    let end = at + prefix.length;
    while (end < html.length && !'" ,<>\''.includes(html[end])) end++;
    out.push(`/${html.slice(at + base.length, end)}`);
  }
  return out;
}

/** The variant paths the entries' HTML names (Markdown images), to start making them before pages render. */
export function contentVariantPaths(content: Record<string, unknown>, base = '/'): string[] {
  const out: string[] = [];
  for (const value of Object.values(content)) {
    if (!Array.isArray(value)) continue;
    // A body kept on disk without an image is not read to look (content/diskBody.ts).
    for (const e of value) if (e && typeof e === 'object' && bodyMayHold(e, 'image') && typeof e.html === 'string') htmlVariantPaths(e.html, base, out);
  }
  return out;
}
