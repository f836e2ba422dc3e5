// bench/run.mjs judges whether the machine was quiet enough for its figures to count. It used to call every
// full run busy: the 1-minute load average after the run was over 1.5, but the bench's own two busy cores
// put it there. Now the judgement rests on other processes' CPU time during the run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ES modules of the bench, without types
import { busy } from '../../bench/report.mjs';
// @ts-expect-error as above
import { cpuSnapshot, otherCpu, TMP } from '../../bench/proc.mjs';

afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));

const run = (otherCpu: unknown, loadAfter = [1.9, 0.7, 0.9], loadWarning: string | null = null) =>
  ({ machine: { cpus: 2, loadWarning }, otherCpu, loadAfter });

describe('bench: was the machine busy?', () => {
  it('a full run on a quiet machine is not busy, though the load average after it is near 2', () => {
    expect(busy(run({ seconds: 9, share: 0.011, steal: 0, wall: 420 }))).toBeNull();
  });

  it('other processes above 10 % of the CPUs, steal above 10 %, or load before the start make it busy', () => {
    expect(busy(run({ seconds: 90, share: 0.107, steal: 0, wall: 420 }))).toMatch(/other processes used 10\.7 % of the CPUs/);
    expect(busy(run({ seconds: 1, share: 0.001, steal: 100, wall: 420 }))).toMatch(/the host took 11\.9 % of the CPUs \(steal\)/);
    expect(busy(run({ seconds: 1, share: 0.001, steal: 0, wall: 420 }, [0.5, 0.5, 0.5], 'load average 2.1 > 1.5'))).toBe('load average 2.1 > 1.5');
  });

  it('without /proc, the load average after the run stands in', () => {
    expect(busy(run(null, [1.9, 1, 1]))).toMatch(/load average 1\.90 after the run/);
    expect(busy(run(null, [1.2, 1, 1]))).toBeNull();
  });

  it('counts the CPU of the children it waited for as its own, and that of a process it did not wait for as other work', async () => {
    // Spins until it has used `ms` of CPU time (not wall time: other tests may share the cores), then marks a file.
    const spin = (ms: number, mark: string) => `const t = process.cpuUsage(); while ((process.cpuUsage(t).user + process.cpuUsage(t).system) / 1000 < ${ms}); require('fs').writeFileSync(${JSON.stringify(mark)}, '')`;
    const mark = path.join(os.tmpdir(), `sitegen-bench-test-${process.pid}`);
    const a = cpuSnapshot();
    execFileSync(process.execPath, ['-e', spin(120, mark + '-child')]);
    const b = cpuSnapshot();
    expect(b.own - a.own).toBeGreaterThanOrEqual(0.1);

    // A grandchild left running after its parent exits is reaped by another process: other work.
    fs.rmSync(mark, { force: true });
    const c = cpuSnapshot();
    execFileSync('sh', ['-c', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(spin(160, mark))} & exit 0`]);
    for (let i = 0; i < 200 && !fs.existsSync(mark); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(mark)).toBe(true);
    await new Promise((r) => setTimeout(r, 100)); // its exit, after the mark
    expect(otherCpu(c, cpuSnapshot()).seconds).toBeGreaterThanOrEqual(0.14);
    fs.rmSync(mark, { force: true });
    fs.rmSync(mark + '-child', { force: true });
  });
});
