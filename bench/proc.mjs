// bench/proc.mjs: runs one timed process (sitegen or Hugo) and reads its wall time, CPU and peak RSS, plus
// the machine-load check and the small statistics helpers bench/run.mjs and bench/report.mjs share.
//
// Wall time is process.hrtime around spawn → exit. Peak RSS and CPU come from `/usr/bin/time -v`
// ("Maximum resident set size" is the largest single process of the tree: Node, or Hugo; esbuild's service
// process is not added) or, without /usr/bin/time, from a preload that writes process.resourceUsage() at
// exit (Node processes only; Hugo then has no RSS or CPU figure).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOAD_LIMIT = 1.5;
// Progress goes to stderr so that --json leaves stdout machine-readable.
export const log = (s) => process.stderr.write(s + '\n');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------- machine load ----------
export function loadAverage() {
  try {
    const out = execFileSync('uptime', { encoding: 'utf8' }).trim();
    const m = out.match(/load averages?:\s*([\d.]+),?\s+([\d.]+),?\s+([\d.]+)/);
    if (m) return { text: out, load: m.slice(1).map(Number) };
  } catch { /* no uptime */ }
  return { text: `os.loadavg(): ${os.loadavg().map((x) => x.toFixed(2)).join(', ')}`, load: os.loadavg() };
}

export async function waitForQuiet(waitS) {
  let la = loadAverage();
  log(`load: ${la.text}`);
  const start = Date.now();
  while (la.load[0] > LOAD_LIMIT && Date.now() - start < waitS * 1000) {
    log(`  load average ${la.load[0]} > ${LOAD_LIMIT} (${os.cpus().length} CPUs; other work on the machine): waiting…`);
    await sleep(5000);
    la = loadAverage();
  }
  const warning = la.load[0] > LOAD_LIMIT ? `load average ${la.load[0]} > ${LOAD_LIMIT} when measuring started: times are inflated` : null;
  if (warning) log(`WARNING: ${warning}`);
  return { before: la.load, warning };
}

// ---------- CPU used by other processes ----------
// The load average after a run is no sign of other work: the bench itself keeps both cores busy, so the
// 1-minute figure ends near the core count on a quiet machine too. What tells is the machine's busy CPU time
// (/proc/stat) less what this process and the children it waited for used (/proc/self/stat, utime, stime,
// cutime, cstime): every build, Hugo, the dev servers. A process that outlives its parent is reaped by
// another and counts as other work: esbuild's service, which a build's Node process leaves to exit on its
// own (measured: 0.3 CPU s per cold build with its `prepare`, 1-2 % of a full run, ~13 % of a one-run
// 100-page check).
const CLK_TCK = (() => {
  try { return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100; } catch { return 100; }
})();

/** A snapshot of CPU seconds: the machine's busy and steal time, and this process's own with its children. */
export function cpuSnapshot() {
  try {
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
    const [user, nice, system, , , irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // Fields after the command name (which may hold spaces, in parentheses): utime is the 12th, then stime, cutime, cstime.
    const self = fs.readFileSync('/proc/self/stat', 'utf8');
    const f = self.slice(self.lastIndexOf(')') + 2).split(' ').map(Number);
    const own = f[11] + f[12] + f[13] + f[14];
    return { at: Date.now(), busy: (user + nice + system + irq + softirq) / CLK_TCK, steal: (steal || 0) / CLK_TCK, own: own / CLK_TCK };
  } catch {
    return null; // not Linux
  }
}

/**
 * CPU seconds that other processes used between two snapshots, their share of the machine (all cores over
 * the wall time) and the steal time (a virtual machine waiting for its host). Null where /proc is missing.
 */
export function otherCpu(a, b) {
  if (!a || !b) return null;
  const wall = (b.at - a.at) / 1000;
  const seconds = Math.max(0, (b.busy - a.busy) - (b.own - a.own));
  return { seconds, share: wall > 0 ? seconds / (wall * os.cpus().length) : 0, steal: b.steal - a.steal, wall };
}

/**
 * Above this share of the machine used by other processes during a run, its figures are not to be judged:
 * well above what the esbuild services add to a full run, well below a second job using one core of two.
 */
export const OTHER_CPU_LIMIT = 0.1;

// ---------- peak RSS method ----------
// BENCH_NO_TIME=1 forces the preload method (to test it on a machine that has /usr/bin/time).
const TIME_BIN = fs.existsSync('/usr/bin/time') && !process.env.BENCH_NO_TIME ? '/usr/bin/time' : null;
export const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-bench-'));
const PRELOAD = path.join(TMP, 'maxrss.mjs');
fs.writeFileSync(PRELOAD, "import fs from 'node:fs';\nprocess.on('exit', () => { try { const u = process.resourceUsage(); fs.writeFileSync(process.env.BENCH_RSS_FILE, `${u.maxRSS} ${(u.userCPUTime + u.systemCPUTime) / 1e6}`); } catch {} });\n");
export const RSS_METHOD = TIME_BIN ? '/usr/bin/time -v (max RSS of the largest process: Node or Hugo)' : 'process.resourceUsage().maxRSS via --import preload (Node process only; none for Hugo)';

// The child in flight (its own process group, so time + node + esbuild go together); killed on Ctrl-C.
let running = null;
process.once('SIGINT', () => {
  if (running) { try { process.kill(-running.pid, 'SIGKILL'); } catch { /* gone */ } }
  fs.rmSync(TMP, { recursive: true, force: true });
  process.exit(130);
});

/**
 * Runs a fresh process: `node <args>` (default) or `<cmd> <args>` with `cmd`. Resolves with wall seconds,
 * CPU seconds (user + system, children included with /usr/bin/time), system seconds, peak RSS in MB (or
 * null), exit code ('timeout' when killed) and its output.
 */
export function runProcess(args, { cmd = null, cwd, timeoutS = 1800, env: extraEnv = {}, nodeEnv = null } = {}) {
  return new Promise((resolve) => {
    const rssFile = path.join(TMP, `rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const exe = cmd ?? process.execPath;
    const argList = cmd || TIME_BIN ? args : ['--import', PRELOAD, ...args];
    const [bin, argv] = TIME_BIN ? [TIME_BIN, ['-v', '-o', rssFile, exe, ...argList]] : [exe, argList];
    const env = { ...process.env, NO_COLOR: '1', BENCH_RSS_FILE: rssFile, ...extraEnv };
    if (nodeEnv != null) env.NODE_ENV = nodeEnv;
    let stdout = '', stderr = '', timedOut = false;
    const t0 = process.hrtime.bigint();
    const child = spawn(bin, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running = child;
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { timedOut = true; try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, timeoutS * 1000);
    child.on('error', (e) => { stderr += String(e); });
    child.on('close', (code, signal) => {
      running = null;
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      clearTimeout(timer);
      let rssMB = null, cpuS = null, sysS = null;
      try {
        const text = fs.readFileSync(rssFile, 'utf8');
        const kb = TIME_BIN ? Number(text.match(/Maximum resident set size \(kbytes\):\s*(\d+)/)?.[1]) : Number(text.trim().split(' ')[0]);
        if (kb) rssMB = kb / 1024;
        cpuS = TIME_BIN
          ? Number(text.match(/User time \(seconds\):\s*([\d.]+)/)?.[1]) + Number(text.match(/System time \(seconds\):\s*([\d.]+)/)?.[1])
          : Number(text.trim().split(' ')[1]);
        if (!Number.isFinite(cpuS)) cpuS = null;
        if (TIME_BIN) { const v = Number(text.match(/System time \(seconds\):\s*([\d.]+)/)?.[1]); sysS = Number.isFinite(v) ? v : null; }
        if (cpuS != null) cpuS = Math.round(cpuS * 1000) / 1000;
        // /usr/bin/time reports the command's exit status in its own output; prefer it when present
        const st = text.match(/Exit status:\s*(\d+)/);
        if (TIME_BIN && st && code === 0) code = Number(st[1]);
        if (TIME_BIN && /Command terminated by signal/.test(text) && code === 0) code = 1;
      } catch { /* no file: killed, or Hugo without /usr/bin/time */ }
      fs.rmSync(rssFile, { force: true });
      resolve({ seconds, rssMB, cpuS, sysS, code: timedOut ? 'timeout' : (code ?? signal), stdout, stderr });
    });
  });
}

// ---------- statistics ----------
export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
export const fmtS = (x) => (x == null ? '-' : x < 10 ? x.toFixed(3) : x.toFixed(2));
export const fmtMB = (x) => (x == null ? '-' : x.toFixed(0));
export const tail = (s, n = 15) => s.trim().split('\n').slice(-n).join('\n');

/** Median wall time, CPU and system time, and the largest RSS of a list of successful runs. */
export function summarize(runs) {
  const pick = (k) => runs.map((r) => r[k]).filter((x) => x != null);
  const secs = pick('seconds'), cpu = pick('cpuS'), sys = pick('sysS'), rss = pick('rssMB');
  return {
    ok: true, runs, median: median(secs), min: Math.min(...secs), max: Math.max(...secs),
    cpuMedian: cpu.length ? median(cpu) : null, sysMedian: sys.length ? median(sys) : null, rssMB: rss.length ? Math.max(...rss) : null,
  };
}

/** The first error line of a failed build: its --json errors, else the first stderr line that looks like one. */
export function firstError(r) {
  try { const j = JSON.parse(r.stdout); if (j.errors?.length) return `${j.errors.length} error(s), first: ${j.errors[0].text}`; } catch { /* not JSON */ }
  const lines = (r.stderr + r.stdout).split('\n');
  const i = lines.findIndex((l) => /error|✗|crashed/i.test(l) && !/^\s+at /.test(l));
  if (i < 0) return null;
  return (/crashed/.test(lines[i]) ? `${lines[i].trim()} ${lines[i + 1]?.trim() ?? ''}` : lines[i].trim()).slice(0, 300);
}

export function fsType(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const t = fs.statfsSync(dir).type;
  return t === 0x01021994 ? 'tmpfs' : t === 0xef53 ? 'ext4' : t === 0x794c7630 ? 'overlayfs' : `filesystem 0x${t.toString(16)}`;
}

// ---------- removing outputs between runs ----------
// Deleting a build's output right before the next timed run makes that run slower than a user's first build:
// on ext4 without a journal (this machine's disk), creating a file skips every inode freed in the last few
// minutes, one lookup each (ext4's recently_deleted(), seen with perf), so a run that follows the deletion
// of 20,000 files pays ~0.3 ms of kernel time per file it creates, more with every run. A fresh clone, a CI
// machine or a user's first build has no such deletions behind it. So, by default, an output or cache is
// renamed out of the way (into .bench-trash beside it, same file system) and the trash is deleted after the
// last timed run; setAsideOutputs('rm') makes setAside delete at once, as before (--rm-outputs).
const trashDirs = new Set();
let setAsideMode = 'rename';
let trashCount = 0;
export function setAsideOutputs(mode) { setAsideMode = mode; }
/** Removes `p` from where a build looks for it: renamed into the trash (default) or deleted. */
export function setAside(p) {
  if (!fs.existsSync(p)) return;
  if (setAsideMode === 'rename') {
    const trash = path.join(path.dirname(p), '.bench-trash');
    try {
      fs.mkdirSync(trash, { recursive: true });
      fs.renameSync(p, path.join(trash, `${process.pid}-${++trashCount}-${path.basename(p)}`));
      trashDirs.add(trash);
      return;
    } catch { /* another file system or no rename: delete instead */ }
  }
  fs.rmSync(p, { recursive: true, force: true });
}
/** Deletes what setAside renamed (after the timed runs); returns the seconds it took. */
export function emptyTrash() {
  const t0 = performance.now();
  for (const d of trashDirs) fs.rmSync(d, { recursive: true, force: true });
  trashDirs.clear();
  return (performance.now() - t0) / 1000;
}
