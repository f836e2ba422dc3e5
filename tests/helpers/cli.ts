// Runs the real `sitegen` binary, as a user would, and returns its exit code and output.
import { spawnSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(REPO, 'bin/sitegen.js');
export const fixture = (name: string) => path.join(REPO, 'tests/fixtures', name);

export function sitegen(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...opts.env }, timeout: opts.timeoutMs, killSignal: 'SIGKILL' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Node's flag for WebAssembly that the `site` project's workers run with (vitest.config.ts: PGlite's Postgres
 * compiled by V8's baseline compiler only), passed on to the servers they start, which open the waitlist
 * database too (waitlist-cli and waitlist-plugin: 16.4 -> 14.0 s of CPU). Elsewhere there is none to pass.
 */
const WASM_FLAGS = process.execArgv.filter((a) => a === '--liftoff-only');

/** Starts a long-running sitegen command (preview, dev) and resolves with its URL once it listens. */
export function startServer(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<{ url: string; proc: ChildProcess; output: () => string; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, [...WASM_FLAGS, BIN, ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: '1', ...opts.env } });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill(); reject(new Error(`server did not start:\n${out}`)); }, opts.timeoutMs ?? 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = out.match(/at (http:\/\/[^\s]+?)\/?\s/);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1], proc, output: () => out,
          stop: () => new Promise((res) => { if (proc.exitCode !== null) return res(); proc.once('exit', () => res()); proc.kill('SIGTERM'); }),
        });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${out}`)); });
  });
}

/**
 * Makes `dir` a minimal site whose only job is the repository's waitlist plugin (the local backend), for
 * tests that serve a copied dist/ from a temporary folder. The config is compiled like any site's.
 */
export function writeWaitlistSite(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'sitegen.config.ts'), [
    `import { waitlist } from ${JSON.stringify(path.join(REPO, 'plugins/waitlist/index.ts'))};`,
    `export default { site: { title: 'Waitlist', url: 'https://waitlist.example' }, routes: () => [], collections: {},`,
    `  plugins: [waitlist({ migrations: ${JSON.stringify(path.join(REPO, 'supabase/migrations'))} })] };`,
    '',
  ].join('\n'));
}
