// A host file written in pieces (write.ts writeChunks: _redirects, sitemap.xml) is written as every other
// output file is (writeOver.ts): over a file kept from the previous output, in place, then cut to length.
import { afterAll, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { writeOverChunks } from '../../src/output/writeOver.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const dir = fs.mkdtempSync(path.join(SCRATCH, 'sg-chunks-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('writes a shorter text over a kept file, the same file, cut to the text\'s length', () => {
  const file = path.join(dir, '_redirects');
  fs.writeFileSync(file, 'x'.repeat(10_000));
  const ino = fs.statSync(file).ino;
  writeOverChunks(file, ['/a /b 301\n', '/c /d 301\n', 'é\n']);
  expect(fs.readFileSync(file, 'utf8')).toBe('/a /b 301\n/c /d 301\né\n');
  expect(fs.statSync(file).ino).toBe(ino);
});

it('writes a new file, and in a folder made empty a file given whole by its pieces', () => {
  const fresh = path.join(dir, 'sitemap.xml');
  writeOverChunks(fresh, ['<a>', '', '</a>\n'], true);
  expect(fs.readFileSync(fresh, 'utf8')).toBe('<a></a>\n');
  const made = path.join(dir, 'new.txt');
  writeOverChunks(made, ['one', 'two']);
  expect(fs.readFileSync(made, 'utf8')).toBe('onetwo');
});
