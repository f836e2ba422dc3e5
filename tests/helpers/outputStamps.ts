// What a build wrote: every file of an output with its inode and mtime, and the files whose stamp changed.
import fs from 'node:fs';
import path from 'node:path';
import { readTree } from './site.ts';

/** Every file of the output with its inode and mtime. */
export function stamps(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of Object.keys(readTree(dir))) {
    const s = fs.statSync(path.join(dir, rel));
    out.set(rel, `${s.ino}:${s.mtimeMs}`);
  }
  return out;
}

/** The files written (new, or with another inode or mtime) between two `stamps()`, sorted. */
export const written = (before: Map<string, string>, after: Map<string, string>) =>
  [...after].filter(([f, s]) => before.get(f) !== s).map(([f]) => f).sort();
