// The gzipped size of a client bundle's JavaScript files, for the page-weight report of every build
// (pipeline/build.ts). Counted when the bundle is made and stored with it in the client cache (bundle.ts), so
// a build that reuses the bundle gzips nothing; and remembered in the process by the bytes' digest, so a
// process that bundles the same code again (dev, the library API, tests) hashes a file (~0.3 ms for the
// 212 KB React chunk) instead of compressing it (10–16 ms).
import { gzipSync } from 'node:zlib';
import { sha1 } from '../pipeline/stableText.ts';

const known = new Map<string, number>();

/** The gzipped size of `bytes`. */
export function gzipSize(bytes: Uint8Array): number {
  const digest = sha1(bytes);
  let size = known.get(digest);
  if (size === undefined) {
    size = gzipSync(bytes).length;
    if (known.size >= 256) known.clear(); // a long dev session's old chunks
    known.set(digest, size);
  }
  return size;
}

/** The gzipped size of each JavaScript file of a bundle, by its path in the bundle. */
export function gzipSizes(files: Map<string, Uint8Array>): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const [rel, bytes] of files) if (rel.endsWith('.js')) sizes[rel] = gzipSize(bytes);
  return sizes;
}
