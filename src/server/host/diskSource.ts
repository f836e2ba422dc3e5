// A file source over a folder on disk, read as it is NOW on every request: no index is taken at start, so
// after a rebuild the new pages and hashed assets are served with their own lengths. A path whose real
// path (symlinks resolved) leaves the folder is not there; a symlink loop or an unreadable entry is not
// there either (a 404, never a crash). Size and bytes come from one open file handle, so a file
// replaced mid-request still matches the Content-Length it was sent with.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FileSource, FileStat, OpenFile } from './source.ts';

/** Errors that mean "no servable file here" rather than a fault of the host. */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'EPERM', 'EISDIR', 'ENAMETOOLONG', 'EINVAL']);

async function absent<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e: any) {
    if (ABSENT.has(e?.code)) return null;
    throw e;
  }
}

/** Text files read whole (the host rules) are capped: a huge _headers is not worth the memory. */
const MAX_TEXT = 1 << 20;

export function diskSource(dir: string): FileSource {
  const root = path.resolve(dir);

  /** The real path of `rel` if it is inside the real root (the root itself may be a symlink or be swapped). */
  async function inside(rel: string): Promise<string | null> {
    const [realRoot, real] = await Promise.all([absent(fsp.realpath(root)), absent(fsp.realpath(path.join(root, rel)))]);
    if (realRoot === null || real === null) return null;
    return real.startsWith(realRoot + path.sep) ? real : null;
  }

  // The validator covers the inode and nanosecond times, not just size and mtime in ms: a rebuild that
  // rewrites _redirects at the same size within one millisecond is still seen as a change.
  const statOf = (st: fs.BigIntStats): FileStat => {
    const id = createHash('sha1').update(`${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`).digest('base64url').slice(0, 16);
    return { size: Number(st.size), etag: `W/"${st.size}-${id}"`, lastModified: st.mtime };
  };

  async function open(rel: string): Promise<OpenFile | null> {
    const real = await inside(rel);
    if (real === null) return null;
    // O_NOFOLLOW: the checked real path must not have become a symlink since (it was not one a moment ago).
    const handle = await absent(fsp.open(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW));
    if (handle === null) return null;
    try {
      const st = await handle.stat({ bigint: true });
      if (!st.isFile()) { await handle.close(); return null; }
      return {
        ...statOf(st),
        stream: (start = 0, end = Number(st.size) - 1) => handle.createReadStream({ start, end, autoClose: true }),
        close: () => handle.close(),
      };
    } catch (e) {
      await handle.close().catch(() => {});
      throw e;
    }
  }

  return {
    name: root,
    async stat(rel) {
      const real = await inside(rel);
      const st = real === null ? null : await absent(fsp.stat(real, { bigint: true }));
      return st?.isFile() ? statOf(st) : null;
    },
    open,
    async readText(rel) {
      const f = await open(rel);
      if (!f) return null;
      if (f.size > MAX_TEXT) { await f.close(); return null; }
      const chunks: Buffer[] = [];
      for await (const c of f.stream()) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
