// A file source over bytes held in memory, looked up on every request (nothing is copied or indexed):
// the dev server adapts its output with one lookup function. ETags are content hashes, so a page
// re-rendered with the same bytes stays cached and a changed one never is.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FileSource, OpenFile } from './source.ts';

export type MemoryLookup = (rel: string) => string | Uint8Array | null | undefined;

const hashes = new WeakMap<Uint8Array, string>();

function etagOf(bytes: Uint8Array, stable: boolean): string {
  const known = stable ? hashes.get(bytes) : undefined;
  if (known) return known;
  const tag = `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
  if (stable) hashes.set(bytes, tag);
  return tag;
}

export function memorySource(lookup: MemoryLookup, name = 'memory'): FileSource {
  const get = (rel: string) => {
    const body = lookup(rel);
    if (body === null || body === undefined) return null;
    // Buffers stay as they are (hash cached per buffer); strings are encoded per request.
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    return { bytes, etag: etagOf(bytes, typeof body !== 'string') };
  };
  return {
    name,
    async stat(rel) {
      const f = get(rel);
      return f && { size: f.bytes.length, etag: f.etag };
    },
    async open(rel): Promise<OpenFile | null> {
      const f = get(rel);
      if (!f) return null;
      return {
        size: f.bytes.length, etag: f.etag,
        stream: (start = 0, end = f.bytes.length - 1) => Readable.from([Buffer.from(f.bytes.buffer, f.bytes.byteOffset + start, Math.max(0, end - start + 1))]),
        close: async () => {},
      };
    },
    async readText(rel) {
      const body = lookup(rel);
      if (body === null || body === undefined) return null;
      return typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    },
  };
}
