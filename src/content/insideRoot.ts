// insideRoot: whether a file sitegen is about to read for the site (a static file, a content file) really
// lives inside the site. A symlink may point anywhere (`static/x.txt -> ../../.env`, `-> /proc/self/environ`)
// and reading through it would publish its target, so paths are compared after resolving every link.
// Hidden files inside the root (`.env`, `.git/…`, `.sitegen/…`) count as outside: the folder walk never
// lists them, and a link must not be a way around that.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Message } from '../core/types.ts';
import { message, fileLocation } from '../core/errors.ts';

const realRoots = new Map<string, Promise<string>>();

/** The root's own real path (the site may sit behind a symlinked folder, e.g. /tmp on macOS). */
function realRoot(root: string): Promise<string> {
  let p = realRoots.get(root);
  if (!p) { p = fs.realpath(root).catch(() => path.resolve(root)); realRoots.set(root, p); }
  return p;
}

/** Why `real` (an already resolved path) may not be read for the site at `rootReal`, or null when it may. */
export function realPathProblem(rootReal: string, real: string): 'outside' | 'hidden' | null {
  const rel = path.relative(rootReal, real);
  if (rel === '') return null;
  if (rel.startsWith('..') || path.isAbsolute(rel)) return 'outside';
  return rel.split(path.sep).some((s) => s.startsWith('.')) ? 'hidden' : null;
}

/** Why `abs` may not be read for the site at `root` (links resolved), or null; a missing file is null. */
export async function outsideRoot(root: string, abs: string): Promise<'outside' | 'hidden' | null> {
  let real: string;
  try { real = await fs.realpath(abs); } catch { return null; } // gone, or a dangling link: reading it fails on its own
  return realPathProblem(await realRoot(root), real);
}

/** The located error for a file or folder (`static/x.txt`, relative to the root) whose link leads out. */
export function outsideRootError(rel: string, problem: 'outside' | 'hidden'): Message {
  const where = problem === 'outside' ? 'outside the site root' : 'a hidden file or folder';
  return message('ContentReadError', `Symlink to ${where}: sitegen does not read or publish it`, fileLocation(rel), {
    hint: 'Copy the file into the site instead of linking to it: links may only point to visible files inside the site root.',
  });
}

/** A named pipe, socket or device where a file is read (content/, static/): reading a pipe would wait for a
 *  writer forever, and none of them is a file to publish. */
export function notRegularFileError(rel: string): Message {
  return message('ContentReadError', 'Not a regular file (a named pipe, socket or device); only plain files are read', fileLocation(rel), {
    hint: 'Keep only plain files (and links to plain files inside the site) under content/ and static/.',
  });
}
