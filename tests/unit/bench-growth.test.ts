// The benchmark's growth table and the 100,000-page targets: each size against the one before, in page
// order, from the medians a run measured (bench/report.mjs).
import { describe, expect, it } from 'vitest';

describe('bench: how time and memory grow with the page count', () => {
  it('gives each size against the one before, in page order, and the 100,000-page targets', async () => {
    // @ts-expect-error plain ES module of the bench, without types
    const { growth, growthLines, targets } = await import('../../bench/report.mjs');
    const run = (median: number, cpuMedian: number, rssMB: number) => ({ ok: true, median, cpuMedian, rssMB });
    const res = {
      hugo: 'hugo v0', sizes: [
        { n: 100000, cold: run(60, 90, 900), warm: run(30, 40, 700), oneFile: run(1.5, 2, 600), hugo: run(70, 80, 3000) },
        { n: 1000, cold: run(1, 1.2, 150), warm: run(0.5, 0.6, 120), oneFile: run(0.4, 0.5, 110) },
        { n: 10000, cold: run(8, 10, 300), warm: run(4, 5, 240), oneFile: null },
      ],
    };
    const g = growth(res);
    expect(g.map((r: any) => [r.from, r.to, r.pages])).toEqual([[1000, 10000, 10], [10000, 100000, 10]]);
    expect(g[0].cold).toEqual({ wall: 8, cpu: 10 / 1.2, rss: 2 });
    expect(g[1].warm.rss).toBeCloseTo(700 / 240);
    expect(g[0].oneFile).toBeNull();
    expect(growthLines(res).join('\n')).toMatch(/10000 → 100000\s+10\.00×\s+7\.50×\s+9\.00×\s+3\.00×/);
    const t = targets({ ...res, machine: {}, sizes: res.sizes }) as { name: string; met: boolean | null }[];
    const met = Object.fromEntries(t.map((x) => [x.name, x.met]));
    expect(met['peak RSS ≤ 1024 MB at 100,000 pages, cold']).toBe(true);
    expect(met['one-file edit build ≤ 2 s at 100,000 pages']).toBe(true);
    expect(met['cold build ≤ Hugo at 100,000 pages']).toBe(true);
    const slow = targets({ ...res, machine: {}, sizes: [{ ...res.sizes[0], oneFile: run(42, 48, 1958), cold: run(80, 110, 1434) }] }) as { name: string; met: boolean | null }[];
    const missed = Object.fromEntries(slow.map((x) => [x.name, x.met]));
    expect(missed['peak RSS ≤ 1024 MB at 100,000 pages, cold']).toBe(false);
    expect(missed['one-file edit build ≤ 2 s at 100,000 pages']).toBe(false);
    expect(missed['cold build ≤ Hugo at 100,000 pages']).toBe(false);
  });
});
