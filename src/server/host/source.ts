// The file source a host serves from: a folder on disk (`sitegen preview`) or the dev server's in-memory
// output (`sitegen dev`). The request resolver only ever sees this interface, so both commands resolve
// and send files the same way. Paths are relative to the output root, '/'-separated, already cleaned by
// requestPath.ts (no '.', '..' or empty segments).
import type { Readable } from 'node:stream';

export interface FileStat {
  size: number;
  /** A validator that changes whenever the bytes do (sent as the ETag). */
  etag: string;
  lastModified?: Date;
}

/**
 * A file opened for one response. Its size and bytes belong together: a file replaced on disk after
 * it was opened (a rebuild) still answers with the bytes the length was announced for.
 */
export interface OpenFile extends FileStat {
  /** Bytes `start`..`end` (inclusive); the file is released when the stream ends or is destroyed. */
  stream(start?: number, end?: number): Readable;
  /** Releases the file without reading it (HEAD, 304, 416). */
  close(): Promise<void>;
}

export interface FileSource {
  /** What the source serves, for messages ("dist", "memory"). */
  readonly name: string;
  /** The regular file at `rel`, or null: missing, a folder, unreadable, or (on disk) outside the root. */
  stat(rel: string): Promise<FileStat | null>;
  open(rel: string): Promise<OpenFile | null>;
  /** The whole text of a small file (the host rules), or null when there is no such file. */
  readText(rel: string): Promise<string | null>;
}
