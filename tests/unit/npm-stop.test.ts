// `npm run dev` and `npm run preview` stopped with a signal: npm and the shell it ran the script in end, and
// the shell does not pass the signal on, so the server must notice its parent is gone and stop serving
// (cli/npmParent.ts) rather than keep the port with no parent.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { copyFixture, removeCopy } from './dev-fixture.ts';

let dir: string;
afterAll(() => {
  // A server the fix failed to stop would outlive the test: found by its working folder, the copy.
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try { if (dir && fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(dir)) process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
  }
  if (dir) removeCopy(dir);
});

/** Runs `npm run <script>` in the copy and resolves with npm's process and the URL the server printed. */
function npmRun(script: string): Promise<{ npm: ChildProcess; url: string }> {
  const npm = spawn('npm', ['run', '--silent', script], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run ${script} printed no URL:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /at (http:\/\/\S+?)\/?\s/.exec(out);
      if (m) { clearTimeout(timer); resolve({ npm, url: m[1] }); }
    };
    npm.stdout!.on('data', onData);
    npm.stderr!.on('data', onData);
  });
}

/** Whether anything still answers at `url`, asked every 100 ms for up to `ms`. */
async function stillServing(url: string, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    try { await fetch(url, { signal: AbortSignal.timeout(1000) }); } catch { return false; }
  }
  return true;
}

describe('a server npm started, when npm is stopped with a signal', () => {
  it('stops serving (dev and preview)', async () => {
    dir = copyFixture('basic');
    expect((await siteAt(dir).build({ quiet: true })).code).toBe(0);
    const cmd = (args: string) => `"${process.execPath}" "${BIN}" ${args} --port 0 --no-backend`;
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'npm-stop', private: true, type: 'module', scripts: { dev: cmd('dev'), preview: cmd('preview') } }));
    for (const script of ['dev', 'preview']) {
      const { npm, url } = await npmRun(script);
      expect(await stillServing(url, 300), `${script} answers`).toBe(true);
      const exited = new Promise((r) => npm.once('exit', r));
      npm.kill('SIGTERM');
      await exited;
      expect(await stillServing(url, 10_000), `${script} still serving 10 s after npm ended`).toBe(false);
    }
    // SITEGEN_KEEP_RUNNING=1: a server an npm script leaves running on purpose outlives npm.
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'npm-stop', private: true, type: 'module', scripts: { preview: `SITEGEN_KEEP_RUNNING=1 ${cmd('preview')}` } }));
    const { npm, url } = await npmRun('preview');
    const exited = new Promise((r) => npm.once('exit', r));
    npm.kill('SIGTERM');
    await exited;
    expect(await stillServing(url, 2_500), 'kept running').toBe(true);
  }, 120_000);
});
