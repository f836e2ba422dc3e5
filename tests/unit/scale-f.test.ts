// The incremental build's page record (pipeline/pageRecord.ts) at scale: written at the end of a build, when
// the heap holds the whole site, and read by every one-file build. A site of 50,000 pages with ~40 links each
// must have its record written and read back within a heap little bigger than its entries: the record is
// made in pieces, not as one JSON text of the whole (which needed ~60 MB more here, and at 100,000 bench
// pages put the build's peak memory over 1 GB).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers/cli.ts';
import { SCRATCH } from '../helpers/scratch.ts';

/** Writes a record of `n` pages and reads one entry back, in a process whose heap is `heapMb`. */
const SCRIPT = `
const { writeGeneration, readGeneration } = await import(process.env.REC_MODULE);
const n = Number(process.env.REC_N), dir = process.env.REC_DIR;
const shared = Array.from({ length: 2000 }, (_, i) => '/docs/page-' + i + '/');
const all = [];
for (let i = 0; i < n; i++) {
  const links = [];
  for (let j = 0; j < 40; j++) links.push(shared[(i * 7 + j * 13) % shared.length]);
  links.push('/blog/page-' + i + '/#top', '/blog/page-' + (i + 1) + '/');
  all.push(['blog/page-' + i + '/index.html', { key: (i * 2654435761 % 4294967296).toString(16).padStart(40, 'a'), reads: [['posts', 'h' + (i % 3)]], islands: [], links, stamp: { size: 8000 + i, mtimeMs: 1795743712874.816, ino: 8932065 + i } }]);
}
const files = all.map(([o]) => o);
const stamps = Object.fromEntries(all.map(([o, e]) => [o, [e.stamp.size, e.stamp.mtimeMs, e.stamp.ino]]));
const rec = { base: dir + '/pages.json', delta: dir + '/pages-delta.json' };
await writeGeneration(rec, '/out', all, { files, stamps, dirs: {}, env: {} });
const e = readGeneration(rec, '/out').entry('blog/page-77/index.html');
console.log(JSON.stringify({ links: e.links.length, own: e.links[40], size: e.stamp.size }));
`;

describe('the page record of a big site', () => {
  it('is written and read within a heap little bigger than its entries', () => {
    const dir = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-record-'));
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--max-old-space-size=125', '--input-type=module', '-e', SCRIPT], {
        cwd: REPO, encoding: 'utf8', timeout: 60_000,
        env: { ...process.env, REC_MODULE: path.join(REPO, 'src/pipeline/pageRecord.ts'), REC_N: '50000', REC_DIR: dir },
      });
      expect(r.stderr).not.toMatch(/heap out of memory/);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout.trim().split('\n').pop()!)).toEqual({ links: 42, own: '/blog/page-77/#top', size: 8077 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
