// A writer's failure, as tests of the page writers provoke it: an output folder where `x` is a file, so that a
// page in x/ cannot be written.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Writer } from '../../src/output/writers.ts';

/** Makes `<dir>/out` holding a file `x` where a page's folder would go; returns the folder. */
export function outWithBlockedFolder(dir: string): string {
  const out = path.join(dir, 'out');
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, 'x'), 'a file where a folder should be');
  return out;
}

/** Writes a, x and b through `w` into `out`: flush fails on x with its path, a is written and b is not. */
export async function expectWritesStopAtFailure(w: Writer, out: string): Promise<void> {
  await w.write('a/index.html', 'a');
  await w.write('x/index.html', 'x');
  await w.write('b/index.html', 'b');
  await expect(w.flush()).rejects.toMatchObject({ code: 'EEXIST', path: path.join(out, 'x') });
  expect(fs.readFileSync(path.join(out, 'a', 'index.html'), 'utf8')).toBe('a');
  expect(fs.existsSync(path.join(out, 'b'))).toBe(false);
}
