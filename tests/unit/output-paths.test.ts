// The static-file conflict check asks only the static files' names of the generated files (firstNeeders),
// instead of a map of every folder of every output file (OutputPaths). Both answer alike: a differential
// test over generated file lists, with names that are folders, files, both and neither. Link targets are
// looked for by a scan of the paths for the first few asked, then in a Set: both answer alike.
import { describe, expect, it } from 'vitest';
import { OutputPaths, firstNeeders, wayBlocked } from '../../src/output/pluginOutputs.ts';
import { makeTargets, SCANNED_ASKS, targetsOver } from '../../src/pipeline/linkTargets.ts';

function seeded(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('firstNeeders and wayBlocked', () => {
  it('say what OutputPaths.inTheWay says, for every name asked', () => {
    const random = seeded(28);
    const parts = ['a', 'b', 'c', 'index.html', 'x.xml', 'a.html'];
    const pathOf = () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => parts[Math.floor(random() * parts.length)]).join('/');
    for (let round = 0; round < 300; round++) {
      const lists = [0, 1, 2].map(() => Array.from({ length: Math.floor(random() * 12) }, pathOf));
      const names = Array.from({ length: 1 + Math.floor(random() * 6) }, pathOf);
      const all = new OutputPaths(lists.flat());
      const needers = firstNeeders(new Set(names), lists);
      const isFile = (f: string) => lists.some((l) => l.includes(f));
      for (const n of names) expect(wayBlocked(n, needers.get(n), isFile)).toBe(all.inTheWay(n));
    }
  });

  it('names the first file that needs the folder, in the lists\' order', () => {
    const needers = firstNeeders(new Set(['about', 'docs/guide', 'none']), [['index.html', 'about/index.html'], ['docs/guide/a/index.html', 'about/team/index.html']]);
    expect([...needers]).toEqual([['about', 'about/index.html'], ['docs/guide', 'docs/guide/a/index.html']]);
    expect(firstNeeders(new Set(), [['a/b.html']]).size).toBe(0);
  });
});

describe('link targets', () => {
  it('answer alike while the paths are scanned and once they are a Set', () => {
    const random = seeded(7);
    const word = () => ['a', 'b', 'c', 'page-1', 'x.html'][Math.floor(random() * 5)];
    const pathOf = () => `/${Array.from({ length: Math.floor(random() * 3) }, word).join('/')}${random() < 0.7 ? '/' : ''}`.replace('//', '/');
    for (let round = 0; round < 50; round++) {
      const paths = Array.from({ length: 20 }, pathOf);
      const files = Array.from({ length: 5 }, () => pathOf().slice(1) + 'index.html');
      const asks = Array.from({ length: 40 }, pathOf);
      const scanned = asks.map((p) => makeTargets(paths, files).has(p)); // a new target each: never past the scan
      const targets = makeTargets(paths, files);
      const mixed = asks.map((p) => targets.has(p)); // the first SCANNED_ASKS by scan, the rest by the Set
      expect(mixed).toEqual(scanned);
      expect(asks.map((p) => paths.includes(p) || files.includes(p.slice(1)) || files.includes(`${p.slice(1)}.html`))).toEqual(scanned);
    }
    expect(SCANNED_ASKS).toBeLessThan(40);
  });

  it('list the paths for a near-miss suggestion, scanned or not', () => {
    const t = targetsOver(() => ['/a/', '/b/'], (p) => p === '/a/' || p === '/b/', []);
    expect(t.has('/b/')).toBe(true);
    expect([...t.paths!()]).toEqual(['/a/', '/b/']);
    expect(t.has('/c/')).toBe(false);
  });
});
