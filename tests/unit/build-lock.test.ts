// Builds of one root are serialised (issue 12): two `sitegen build` at once both succeed and leave a
// complete dist/; a build waits for a live lock (saying for whom) and takes over one whose process is gone;
// folders an interrupted build left beside dist/ are removed by the next build.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, fixture, sitegen } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { runBuild, type Io } from '../../cli/commands.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const work = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-lock-'));
const pristine = path.join(work, 'pristine');
let expected: string[] = [];

/**
 * A fresh copy of the built fixture at work/<name>, in place of any copy there before: with the files'
 * mtimes kept, a build finds the site module compiled for that folder by the builds before.
 */
function freshSite(name: string): string {
  const dir = path.join(work, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(pristine, dir, { recursive: true, preserveTimestamps: true });
  return dir;
}

/** The files of a dist/, with content hashes masked (chunk names depend on the site's folder). */
function files(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.replace(/-[A-Z0-9]{8}\./, '-HASH.')).sort();
}

/** Runs the CLI without blocking, so several can run at once. */
function run(args: string[]): { done: Promise<{ code: number | null; out: string }>; output: () => string } {
  // SITEGEN_PATCH_MAX=0: no build is skipped as up to date, so builds started together overlap.
  const proc = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', SITEGEN_PATCH_MAX: '0' } });
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  proc.stderr.on('data', (d) => { out += d; });
  return { done: new Promise((resolve) => proc.on('close', (code) => resolve({ code, out }))), output: () => out };
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  fs.cpSync(fixture('basic'), pristine, { recursive: true, dereference: true, filter: (src) => !/[/\\](dist|\.sitegen)([/\\]|$)/.test(src) });
  const b = await siteAt(pristine).build({ quiet: true });
  if (b.code !== 0) throw new Error(b.stderr);
  expected = files(path.join(pristine, 'dist'));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('build lock', () => {
  it('two builds of one root at once both succeed and dist/ is complete', async () => {
    // A folder no build has seen: round 0 compiles the site.
    const site = freshSite('concurrent');
    // Round 0 builds a fresh site, the later ones find it up to date (a tenth of a second): three processes
    // started together overlap unless one ends before another has started. Every round must leave a complete
    // dist/; at least one later round must have overlapped (a build said it waited), or the lock was untested.
    const outs: string[] = [];
    let waitedWhenUpToDate = false;
    for (let round = 0; round < 6 && !(round > 1 && waitedWhenUpToDate); round++) {
      const builds = [run(['build', '--root', site, '-q']), run(['build', '--root', site, '-q']), run(['build', '--root', site, '-q'])];
      const results = await Promise.all(builds.map((b) => b.done));
      for (const r of results) {
        expect(r.code, r.out).toBe(0);
        expect(r.out).not.toContain('sitegen crashed');
      }
      const waited = results.some((r) => /waiting for the build of pid \d+/.test(r.out));
      if (round === 0) expect(waited, results.map((r) => r.out).join('\n')).toBe(true);
      else waitedWhenUpToDate ||= waited;
      outs.push(results.map((r) => r.out).join('\n'));
      expect(files(path.join(site, 'dist'))).toEqual(expected);
      expect(fs.readdirSync(site).filter((n) => /^dist\./.test(n))).toEqual([]);
      expect(fs.existsSync(path.join(site, '.sitegen/build.lock'))).toBe(false);
    }
    expect(waitedWhenUpToDate, outs.join('\n---\n')).toBe(true);
  });

  it('removes staging and old-output folders an interrupted build left behind', async () => {
    const site = freshSite('site');
    for (const name of ['dist.tmp-99999-abc', 'dist.old-99999-def']) {
      fs.mkdirSync(path.join(site, name, 'items'), { recursive: true });
      fs.writeFileSync(path.join(site, name, 'items/index.html'), 'stale');
    }
    const r = await siteAt(site).build({ quiet: true });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readdirSync(site).filter((n) => n.startsWith('dist')).sort()).toEqual(['dist']);
  });

  it('takes over a lock whose process is gone, without waiting', async () => {
    const site = freshSite('site');
    fs.mkdirSync(path.join(site, '.sitegen'), { recursive: true });
    fs.writeFileSync(path.join(site, '.sitegen/build.lock'), JSON.stringify({ pid: deadPid(), started: '2026-01-01T00:00:00.000Z' }));
    const t = Date.now();
    const r = await siteAt(site).build({ quiet: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('waiting');
    expect(Date.now() - t).toBeLessThan(30_000);
    expect(fs.existsSync(path.join(site, '.sitegen/build.lock'))).toBe(false);
    expect(files(path.join(site, 'dist'))).toEqual(expected);
  });

  it('waits for a live holder, saying for whom, and builds once it is gone', async () => {
    const site = freshSite('site');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      fs.mkdirSync(path.join(site, '.sitegen'), { recursive: true });
      fs.writeFileSync(path.join(site, '.sitegen/build.lock'), JSON.stringify({ pid: holder.pid, started: new Date().toISOString() }));
      // In process, as the CLI's build command runs (cli/commands.ts), reading what it prints as it prints it.
      let out = '';
      const io: Io = { out: (t) => { out += t; }, err: (t) => { out += t; }, env: { ...process.env, NO_COLOR: '1', SITEGEN_PATCH_MAX: '0' }, cwd: site };
      const b = runBuild({ root: site, quiet: true }, io);
      await until(() => out.includes(`waiting for the build of pid ${holder.pid}`));
      await new Promise((r) => setTimeout(r, 300));
      expect(out.match(/waiting/g)).toHaveLength(1); // one line, not one per poll
      holder.kill();
      const r = await b;
      expect(r.code, out).toBe(0);
      expect(files(path.join(site, 'dist'))).toEqual(expected);
    } finally {
      holder.kill();
    }
  });
});
