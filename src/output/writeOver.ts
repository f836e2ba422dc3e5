// writeOver: the one way the engine writes an output file, on any thread (the main thread, a render
// worker, the writer thread of writers.ts).
import fs from 'node:fs';

/**
 * Writes `data` to `file`. In a folder made empty (`fresh`: every file is new) as writeFile does, truncating
 * at open. Else over what the file held, without truncating it first, then cut to length: a file kept from
 * the previous output (write.ts stageOutput's recycling) keeps its blocks when its length does not shrink,
 * where truncating frees them all and writing allocates them again (measured on this project's disk, ext4
 * mounted with `discard`: 10,000 pages written over in 0.12 s, against 1.0-1.2 s with writeFile's
 * truncation). A new file is created as writeFile would (mode 0o666 less the umask).
 */
export function writeOver(file: string, data: string | Uint8Array, fresh = false): void {
  if (fresh) { fs.writeFileSync(file, data); return; }
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o666);
  try {
    fs.writeFileSync(fd, bytes);
    fs.ftruncateSync(fd, bytes.byteLength);
  } finally {
    fs.closeSync(fd);
  }
}

/** writeOver for a text given in pieces (a big host file, never held whole): each piece written after the
 *  last, in the same two ways, so a file kept from the previous output is written over and cut to length. */
export function writeOverChunks(file: string, chunks: Iterable<string>, fresh = false): void {
  const fd = fs.openSync(file, fresh ? 'w' : fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o666);
  let length = 0;
  try {
    for (const c of chunks) {
      const bytes = Buffer.from(c);
      for (let at = 0; at < bytes.byteLength;) at += fs.writeSync(fd, bytes, at);
      length += bytes.byteLength;
    }
    if (!fresh) fs.ftruncateSync(fd, length);
  } finally {
    fs.closeSync(fd);
  }
}
