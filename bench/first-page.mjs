// bench/first-page.mjs: how long a dev server takes from spawn to serving its first pages. Spawns the server
// on a free port, polls each path every 20 ms from the moment of spawn (a refused connection counts as not
// yet), and records when each first answers 200 with its whole body read. Then stops the server (SIGTERM to
// its process group, SIGKILL after 10 s) and waits for it to exit, so the next run starts on a free machine.
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';

const POLL_MS = 20;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** GET http://127.0.0.1:port/path → status code once the body is read; 0 when the connection fails. */
function status(port, path) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, timeout: 30_000 }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/**
 * Spawns `cmd args` (which must listen on `port`) and resolves with { ms: {path: ms or null}, output }:
 * the time from spawn to the first 200 of each path, null when it never came within `timeoutMs`.
 */
export async function firstPage({ cmd, args, port, paths, cwd, env, timeoutMs = 60_000 }) {
  const t0 = performance.now();
  const proc = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '', exited = false;
  proc.stdout.on('data', (d) => { output += d; });
  proc.stderr.on('data', (d) => { output += d; });
  const exit = new Promise((r) => proc.once('close', () => { exited = true; r(); }));
  proc.once('error', (e) => { output += String(e); });
  const ms = {};
  await Promise.all(paths.map(async (p) => {
    ms[p] = null;
    while (!exited && performance.now() - t0 < timeoutMs) {
      if (await status(port, p) === 200) { ms[p] = performance.now() - t0; return; }
      await sleep(POLL_MS);
    }
  }));
  if (!exited) {
    try { process.kill(-proc.pid, 'SIGTERM'); } catch { /* gone */ }
    const timer = setTimeout(() => { try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ } }, 10_000);
    await exit;
    clearTimeout(timer);
  }
  return { ms, output };
}
