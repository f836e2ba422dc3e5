#!/usr/bin/env node
// `npm run bench`: times whole-process `sitegen build` runs on N synthetic pages and compares with the targets.
//
//   node bench/run.mjs [--pages 100,1000,10000] [--runs 3] [--baseline] [--no-real] [--no-stages] [--node-env production] [--json]
//
// For each N: content from ../shared/bench/gen.mjs (beside the repository; $BENCH_GEN overrides) (generated once into bench/.work/site-N/, not timed),
// the benchmark site (bench/site/*) copied beside it, one untimed `--json` build (warm-up, exit-0 check,
// page/alias counts and the build's own per-stage timings), then --runs timed builds, each a fresh
// `node bin/sitegen.js build --root <dir> --quiet` into an emptied dist/. Wall time is process.hrtime
// around spawn → exit; peak RSS is `/usr/bin/time -v`'s "Maximum resident set size" (largest single
// process of the tree: Node; esbuild's service process is not added), or, without /usr/bin/time, a
// preload that writes process.resourceUsage().maxRSS at exit (Node only).
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.dirname(BENCH);
// The shared generator lives beside the repository (../shared from its root); a git worktree elsewhere
// points at it with BENCH_GEN.
const GEN = process.env.BENCH_GEN ?? path.resolve(REPO, '..', 'shared', 'bench', 'gen.mjs');
const CLI = path.join(REPO, 'bin', 'sitegen.js');
// Where the generated sites are built. Default: a tmpfs (/dev/shm) when there is one, because on this
// project's VMs the disk pays ~1 ms of kernel time per file created (a normal ext4/SSD pays ~20 µs), which
// would measure the VM's disk rather than the generator; --workdir DIR (e.g. bench/.work) measures a disk.
const SHM = '/dev/shm';
function defaultWorkdir() {
  try { if (fs.statSync(SHM).isDirectory() && fs.statfsSync(SHM).type === 0x01021994 && fs.statfsSync(SHM).bavail * fs.statfsSync(SHM).bsize > 2e9) return path.join(SHM, 'sitegen-bench'); } catch { /* no tmpfs */ }
  return path.join(BENCH, '.work');
}
let WORK = defaultWorkdir();
const SITE = path.join(BENCH, 'site');
const LOAD_LIMIT = 1.5;

// Targets from the brief (2-core Linux, Node 20); RSS target is stated for 10k and applied to every N.
const TARGET_S = { 100: 0.3, 1000: 0.95, 10000: 8 };
const TARGET_RSS_MB = 400;
const OTHERS = [
  ['Hugo 0.111', '0.15 s', '0.95 s', '8.15 s', '1,415 MB'],
  ['Eleventy 3.1.7', '1.17 s', '2.85 s', '20.6 s', '726 MB'],
  ['Astro 5.18', '7.9 s', '32.1 s', '297 s', '3,061 MB'],
  ['gray-matter + marked + renderToStaticMarkup', '0.72 s', '2.50 s', '18.6 s', '248 MB'],
];

// ---------- arguments ----------
function parseArgs(argv) {
  const o = { pages: [100, 1000, 10000], runs: 3, baseline: false, real: true, dev: true, stages: true, json: false, wait: 60, timeout: 1800, nodeEnv: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => { const v = argv[++i]; if (v === undefined) die(`${a} needs a value`); return v; };
    if (a === '--pages') o.pages = val().split(',').map((s) => Number(s.trim()));
    else if (a === '--runs') o.runs = Number(val());
    else if (a === '--baseline') o.baseline = true;
    else if (a === '--no-real') o.real = false;
    else if (a === '--no-dev') o.dev = false;
    else if (a === '--no-stages') o.stages = false;
    else if (a === '--json') o.json = true;
    else if (a === '--wait') o.wait = Number(val());
    else if (a === '--timeout') o.timeout = Number(val());
    else if (a === '--workdir') WORK = path.resolve(val());
    else if (a === '--node-env') o.nodeEnv = val();
    else if (a === '-h' || a === '--help') {
      process.stdout.write(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 4).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n' +
        '  --pages    page counts (default 100,1000,10000)\n  --runs     timed runs per N, median reported (default 3)\n' +
        '  --baseline also time bench/baseline.mjs (gray-matter + marked + renderToStaticMarkup)\n' +
        '  --no-real  skip the repository site\'s cold build\n  --no-dev   skip the dev edit → served figure (bench/dev.mjs, 10 edits)\n  --no-stages skip the untimed --json build (no stage timings, no alias count)\n' +
        '  --json     print machine-readable results only\n  --wait s   wait up to s seconds for load average < 1.5 (default 60)\n' +
        '  --timeout s kill a run after s seconds (default 1800)\n' +
        '  --workdir d build the generated sites in d (default /dev/shm/sitegen-bench on a tmpfs, else bench/.work)\n' +
        '  --node-env v set NODE_ENV=v for every timed process (default: inherited; unset = React development builds)\n');
      process.exit(0);
    } else die(`unknown argument ${a} (see --help)`);
  }
  if (!o.pages.length || o.pages.some((n) => !Number.isInteger(n) || n < 10)) die('--pages takes integers ≥ 10 (the nav links page-0 … page-9)');
  if (!Number.isInteger(o.runs) || o.runs < 1) die('--runs takes an integer ≥ 1');
  return o;
}
function die(msg) { process.stderr.write(`bench: ${msg}\n`); process.exit(1); }

const opts = parseArgs(process.argv.slice(2));
// Progress goes to stderr so that --json leaves stdout machine-readable.
const log = (s) => process.stderr.write(s + '\n');

// ---------- machine load ----------
function loadAverage() {
  try {
    const out = execFileSync('uptime', { encoding: 'utf8' }).trim();
    const m = out.match(/load averages?:\s*([\d.]+),?\s+([\d.]+),?\s+([\d.]+)/);
    if (m) return { text: out, load: m.slice(1).map(Number) };
  } catch { /* no uptime */ }
  return { text: `os.loadavg(): ${os.loadavg().map((x) => x.toFixed(2)).join(', ')}`, load: os.loadavg() };
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitForQuiet() {
  let la = loadAverage();
  log(`load: ${la.text}`);
  const start = Date.now();
  while (la.load[0] > LOAD_LIMIT && Date.now() - start < opts.wait * 1000) {
    log(`  load average ${la.load[0]} > ${LOAD_LIMIT} (${os.cpus().length} CPUs; other work on the machine): waiting…`);
    await sleep(5000);
    la = loadAverage();
  }
  const warning = la.load[0] > LOAD_LIMIT ? `load average ${la.load[0]} > ${LOAD_LIMIT} when measuring started: times are inflated` : null;
  if (warning) log(`WARNING: ${warning}`);
  return { before: la.load, warning };
}

// ---------- peak RSS method ----------
// BENCH_NO_TIME=1 forces the preload method (to test it on a machine that has /usr/bin/time).
const TIME_BIN = fs.existsSync('/usr/bin/time') && !process.env.BENCH_NO_TIME ? '/usr/bin/time' : null;
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-bench-'));
const PRELOAD = path.join(TMP, 'maxrss.mjs');
fs.writeFileSync(PRELOAD, "import fs from 'node:fs';\nprocess.on('exit', () => { try { const u = process.resourceUsage(); fs.writeFileSync(process.env.BENCH_RSS_FILE, `${u.maxRSS} ${(u.userCPUTime + u.systemCPUTime) / 1e6}`); } catch {} });\n");
const RSS_METHOD = TIME_BIN ? '/usr/bin/time -v (max RSS of the largest process: Node)' : 'process.resourceUsage().maxRSS via --import preload (Node process only)';

// The child in flight (its own process group, so time + node + esbuild go together); killed on Ctrl-C.
let running = null;
process.once('SIGINT', () => {
  if (running) { try { process.kill(-running.pid, 'SIGKILL'); } catch { /* gone */ } }
  fs.rmSync(TMP, { recursive: true, force: true });
  process.exit(130);
});

/** Runs `node <args>` fresh; resolves with wall seconds, peak RSS in MB (or null), exit code, output. */
function runNode(args, { cwd = REPO, timeoutS = opts.timeout, extraEnv = {} } = {}) {
  return new Promise((resolve) => {
    const rssFile = path.join(TMP, `rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const nodeArgs = TIME_BIN ? args : ['--import', PRELOAD, ...args];
    const [cmd, argv] = TIME_BIN ? [TIME_BIN, ['-v', '-o', rssFile, process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
    const env = { ...process.env, NO_COLOR: '1', BENCH_RSS_FILE: rssFile, ...extraEnv };
    if (opts.nodeEnv != null) env.NODE_ENV = opts.nodeEnv;
    let stdout = '', stderr = '', timedOut = false;
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running = child;
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { timedOut = true; try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, timeoutS * 1000);
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
      } catch { /* no file: killed */ }
      fs.rmSync(rssFile, { force: true });
      resolve({ seconds, rssMB, cpuS, sysS, code: timedOut ? 'timeout' : (code ?? signal), stdout, stderr });
    });
  });
}

// ---------- site preparation ----------
const genHash = createHash('sha256').update(fs.readFileSync(GEN)).digest('hex').slice(0, 16);

function prepareSite(n) {
  const dir = path.join(WORK, `site-${n}`);
  const pagesDir = path.join(dir, 'content', 'pages');
  const marker = path.join(dir, '.generated');
  const want = `${n} ${genHash}`;
  if (!fs.existsSync(marker) || fs.readFileSync(marker, 'utf8') !== want || !fs.existsSync(pagesDir)) {
    log(`generating ${n} pages: node ${GEN} ${n} ${path.relative(REPO, pagesDir)}`);
    fs.mkdirSync(dir, { recursive: true });
    execFileSync(process.execPath, [GEN, String(n), pagesDir], { stdio: ['ignore', 'ignore', 'inherit'] });
    fs.writeFileSync(marker, want);
  }
  // The site itself (config, templates) is copied fresh every time, so edits to bench/site/ count.
  fs.rmSync(path.join(dir, 'templates'), { recursive: true, force: true });
  fs.cpSync(SITE, dir, { recursive: true });
  return dir;
}

// ---------- statistics ----------
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const fmtS = (x) => (x == null ? '-' : x < 10 ? x.toFixed(3) : x.toFixed(2));
const fmtMB = (x) => (x == null ? '-' : x.toFixed(0));
/** The first error line of a failed build: its --json errors, else the first stderr line that looks like one. */
function firstError(r) {
  try { const j = JSON.parse(r.stdout); if (j.errors?.length) return `${j.errors.length} error(s), first: ${j.errors[0].text}`; } catch { /* not JSON */ }
  const lines = (r.stderr + r.stdout).split('\n');
  const i = lines.findIndex((l) => /error|✗|crashed/i.test(l) && !/^\s+at /.test(l));
  if (i < 0) return null;
  return (/crashed/.test(lines[i]) ? `${lines[i].trim()} ${lines[i + 1]?.trim() ?? ''}` : lines[i].trim()).slice(0, 300);
}
const tail = (s, n = 15) => s.trim().split('\n').slice(-n).join('\n');

/** Times `runs` fresh processes of args; `before` runs (untimed) before each to reset output. */
async function timeRuns(label, args, before, extraEnv = {}, count = opts.runs) {
  const runs = [];
  for (let i = 0; i < count; i++) {
    before?.();
    const r = await runNode(args, { extraEnv });
    log(`  ${label} run ${i + 1}/${count}: ${r.code === 0 ? `${fmtS(r.seconds)} s wall, ${fmtS(r.cpuS)} s CPU${r.sysS != null ? ` (${fmtS(r.sysS)} system)` : ''}, ${fmtMB(r.rssMB)} MB` : `FAILED (exit ${r.code})`}`);
    if (r.code !== 0) { log(tail(r.stderr || r.stdout)); return { ok: false, code: r.code, runs, failedAfterS: r.seconds, rssMB: r.rssMB, error: firstError(r) }; }
    runs.push({ seconds: r.seconds, cpuS: r.cpuS, sysS: r.sysS, rssMB: r.rssMB });
  }
  const secs = runs.map((r) => r.seconds);
  const rss = runs.map((r) => r.rssMB).filter((x) => x != null);
  const cpu = runs.map((r) => r.cpuS).filter((x) => x != null);
  const sys = runs.map((r) => r.sysS).filter((x) => x != null);
  return { ok: true, runs, median: median(secs), min: Math.min(...secs), max: Math.max(...secs), cpuMedian: cpu.length ? median(cpu) : null, sysMedian: sys.length ? median(sys) : null, rssMB: rss.length ? Math.max(...rss) : null };
}

function fsType(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const t = fs.statfsSync(dir).type;
  return t === 0x01021994 ? 'tmpfs' : t === 0xef53 ? 'ext4' : `filesystem 0x${t.toString(16)}`;
}

// ---------- main ----------
async function main() {
  const load = await waitForQuiet();
  const results = { nodeEnv: opts.nodeEnv ?? process.env.NODE_ENV ?? null, machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadBefore: load.before, loadWarning: load.warning }, rssMethod: RSS_METHOD, runs: opts.runs, sitegen: [], sitegenNoCache: [], baseline: [], real: null, workdir: WORK, workdirFs: fsType(WORK) };

  for (const n of opts.pages) {
    const dir = prepareSite(n);
    const dist = path.join(dir, 'dist');
    const cleanDist = () => fs.rmSync(dist, { recursive: true, force: true });
    log(`\nN=${n} (${path.relative(REPO, dir)})`);
    const row = { n, pages: null, aliases: null, stages: null, target: TARGET_S[n] ?? null };
    let failed = false;
    if (opts.stages) {
      cleanDist();
      const r = await runNode([CLI, 'build', '--root', dir, '--json']);
      if (r.code !== 0) {
        log(`  untimed --json build FAILED (exit ${r.code})\n${tail(r.stdout + r.stderr, 25)}`);
        results.sitegen.push({ ...row, ok: false, code: r.code, failedAfterS: r.seconds, rssMB: r.rssMB, error: firstError(r) });
        failed = true;
      } else {
        const j = JSON.parse(r.stdout);
        Object.assign(row, { pages: j.pages, aliases: j.aliases, stages: j.timings, stagesRunSeconds: r.seconds, stagesRunRssMB: r.rssMB });
        log(`  untimed --json build: ${j.pages} pages, ${j.aliases} aliases, ${fmtS(r.seconds)} s; stages (ms): ${Object.entries(j.timings).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}`);
      }
    }
    if (!failed) {
      const t = await timeRuns('sitegen', [CLI, 'build', '--root', dir, '--quiet'], cleanDist);
      results.sitegen.push({ ...row, ...t, pagesPerSecond: t.ok ? n / t.median : null });
      // Once more with the build cache off (SITEGEN_NO_CACHE=1): every file parsed, the site compiled by
      // esbuild, as on a fresh clone. One run.
      const c = await timeRuns('sitegen, no cache', [CLI, 'build', '--root', dir, '--quiet'], cleanDist, { SITEGEN_NO_CACHE: '1' }, 1);
      results.sitegenNoCache.push({ ...row, ...c, pagesPerSecond: c.ok ? n / c.median : null });
    }
    cleanDist();
    // a crashed build leaves its staging folder (dist.tmp-*) behind; remove it so the next run starts clean
    for (const f of fs.readdirSync(dir)) if (/^dist\.(tmp|old)-/.test(f)) fs.rmSync(path.join(dir, f), { recursive: true, force: true });

    if (opts.baseline) {
      const out = path.join(TMP, `baseline-${n}`);
      const b = await timeRuns('baseline', [path.join(BENCH, 'baseline.mjs'), path.join(dir, 'content', 'pages'), out], () => fs.rmSync(out, { recursive: true, force: true }));
      fs.rmSync(out, { recursive: true, force: true });
      results.baseline.push({ n, pages: n, ...b, pagesPerSecond: b.ok ? n / b.median : null });
    }
  }

  if (opts.real) {
    // --out is resolved against --root (path.resolve(root, out)), so an absolute temp path leaves dist/ alone.
    const out = path.join(TMP, 'real-dist');
    const clean = () => { for (const f of fs.readdirSync(TMP)) if (f.startsWith('real-dist')) fs.rmSync(path.join(TMP, f), { recursive: true, force: true }); };
    log('\nrepository site (cold build, --out in a temp folder)');
    const t = await timeRuns('real site', [CLI, 'build', '--root', REPO, '--quiet', '--out', out], clean);
    clean();
    results.real = t;
    // The same without the build cache (node_modules/.cache/sitegen): the site module and the client
    // bundle compiled by esbuild, as on a fresh clone or after a template edit.
    log('\nrepository site, build cache off (SITEGEN_NO_CACHE=1: esbuild compiles the site and its islands)');
    results.realNoCache = await timeRuns('real site, no cache', [CLI, 'build', '--root', REPO, '--quiet', '--out', out], clean, { SITEGEN_NO_CACHE: '1' });
    clean();
  }
  // Fixed cost of every command: Node + the CLI bundle (bin/sitegen.js) and its imports, no site work.
  log('\nstart-up (node bin/sitegen.js --version)');
  results.startup = await timeRuns('start-up', [CLI, '--version']);
  if (opts.dev) {
    // The dev issue's figure: `sitegen dev` on 1,000 pages, one Markdown edit and one layout edit → the
    // page served with the change (bench/dev.mjs; npm run bench:dev for the full run).
    log('\ndev edit → served (node bench/dev.mjs, BENCH_EDITS=10)');
    const d = spawnSync(process.execPath, [path.join(BENCH, 'dev.mjs')], { cwd: REPO, env: { ...process.env, BENCH_EDITS: '10' }, encoding: 'utf8', timeout: 600_000 });
    log((d.stdout ?? '').trimEnd().split('\n').map((l) => `  ${l}`).join('\n'));
    results.dev = (d.stdout ?? '').split('\n').flatMap((l) => {
      const m = l.match(/^ {2}(\S.*?)\s+(\d+)\s+([\d.]+) ms\s+([\d.]+) ms/);
      return m && m[1] !== 'edit' ? [{ edit: m[1].trim(), n: Number(m[2]), medianMs: Number(m[3]), p95Ms: Number(m[4]) }] : [];
    });
  }
  results.loadAfter = loadAverage().load;
  return results;
}

function printTable(res) {
  const rows = [['', 'N', 'pages', 'aliases', 'median s', 'min s', 'CPU s', 'pages/s', 'peak RSS MB', 'target s', 'time', 'RSS ≤400']];
  const mark = (ok) => (ok == null ? '-' : ok ? '✓' : '✗');
  for (const r of res.sitegen) {
    if (!r.ok) { rows.push(['sitegen', String(r.n), String(r.pages ?? '-'), String(r.aliases ?? '-'), `FAILED (exit ${r.code}${r.failedAfterS ? ` after ${fmtS(r.failedAfterS)} s` : ''})`, '', '', '', fmtMB(r.rssMB), r.target == null ? '-' : `≤ ${r.target}`, '✗', '-']); continue; }
    rows.push(['sitegen', String(r.n), String(r.pages ?? r.n), String(r.aliases ?? '-'), fmtS(r.median), fmtS(r.min), fmtS(r.cpuMedian), r.pagesPerSecond.toFixed(0), fmtMB(r.rssMB),
      r.target == null ? '-' : `≤ ${r.target}`, mark(r.target == null ? null : r.median <= r.target), mark(r.rssMB == null ? null : r.rssMB <= TARGET_RSS_MB)]);
  }
  for (const r of res.sitegenNoCache ?? []) {
    if (!r.ok) { rows.push(['no cache (1 run)', String(r.n), String(r.pages ?? '-'), String(r.aliases ?? '-'), `FAILED (exit ${r.code})`, '', '', '', '', '', '', '']); continue; }
    rows.push(['no cache (1 run)', String(r.n), String(r.pages ?? r.n), String(r.aliases ?? '-'), fmtS(r.median), fmtS(r.min), fmtS(r.cpuMedian), r.pagesPerSecond.toFixed(0), fmtMB(r.rssMB), '', '', mark(r.rssMB == null ? null : r.rssMB <= TARGET_RSS_MB)]);
  }
  for (const r of res.baseline) {
    if (!r.ok) { rows.push(['baseline', String(r.n), String(r.n), '-', `FAILED (exit ${r.code})`, '', '', '', '', '', '', '']); continue; }
    rows.push(['baseline', String(r.n), String(r.n), '-', fmtS(r.median), fmtS(r.min), fmtS(r.cpuMedian), r.pagesPerSecond.toFixed(0), fmtMB(r.rssMB), '', '', '']);
  }
  if (res.real) {
    const r = res.real;
    rows.push(r.ok ? ['real site', '-', '-', '-', fmtS(r.median), fmtS(r.min), fmtS(r.cpuMedian), '-', fmtMB(r.rssMB), '', '', ''] : ['real site', '-', '-', '-', `FAILED (exit ${r.code})`, '', '', '', '', '', '', '']);
  }
  if (res.realNoCache?.ok) rows.push(['real, no cache', '-', '-', '-', fmtS(res.realNoCache.median), fmtS(res.realNoCache.min), fmtS(res.realNoCache.cpuMedian), '-', fmtMB(res.realNoCache.rssMB), '', '', '']);
  for (const d of res.dev ?? []) rows.push([`dev ${d.edit.split(' ')[0]} edit→served`, '-', '-', '-', (d.medianMs / 1000).toFixed(3), '', '', '-', '', '', '', '']);
  if (res.startup?.ok) rows.push(['start-up', '-', '-', '-', fmtS(res.startup.median), fmtS(res.startup.min), fmtS(res.startup.cpuMedian), '-', fmtMB(res.startup.rssMB), '', '', '']);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [];
  out.push(`sites built in ${res.workdir} (${res.workdirFs})`);
  out.push(`sitegen bench — Node ${res.machine.node}, ${res.machine.cpus} CPUs (${res.machine.cpuModel}), median of ${res.runs} run(s), NODE_ENV=${res.nodeEnv ?? '(unset)'}; load average before ${res.machine.loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${res.loadAfter.map((x) => x.toFixed(2)).join(' ')}`);
  if (res.machine.loadWarning) out.push(`WARNING: ${res.machine.loadWarning}`);
  out.push(line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line));
  out.push(`peak RSS: ${res.rssMethod}. Wall time: spawn → exit of a fresh process, output folder emptied before each run.`);
  out.push('CPU s: user + system CPU time of the run (median; --json has the system part); on a busy machine it is steadier than wall time. Targets are judged on the median wall time.');
  for (const r of [...res.sitegen, ...res.baseline, res.real].filter((x) => x && !x.ok && x.error)) out.push(`failure${r.n ? ` at N=${r.n}` : ''}: ${r.error}`);
  const staged = res.sitegen.filter((r) => r.stages);
  if (staged.length) {
    out.push('', 'build stages (ms, from the untimed --json build):');
    const names = [...new Set(staged.flatMap((r) => Object.keys(r.stages)))];
    const sr = [['N', ...names], ...staged.map((r) => [String(r.n), ...names.map((k) => (r.stages[k] == null ? '-' : String(Math.round(r.stages[k]))))])];
    const sw = sr[0].map((_, i) => Math.max(...sr.map((r) => r[i].length)));
    for (const r of sr) out.push(r.map((c, i) => c.padStart(sw[i])).join('  '));
  }
  out.push('', 'for reference (brief, 2-core Linux, Node 20):   100 / 1,000 / 10,000 pages / peak RSS @10k');
  for (const o of OTHERS) out.push(`  ${o[0].padEnd(44)} ${o.slice(1).map((c) => c.padStart(9)).join(' ')}`);
  return out.join('\n');
}

try {
  const res = await main();
  process.stdout.write((opts.json ? JSON.stringify(res, null, 2) : printTable(res)) + '\n');
  const failed = res.sitegen.some((r) => !r.ok) || (res.sitegenNoCache ?? []).some((r) => !r.ok) || res.baseline.some((r) => !r.ok) || (res.real && !res.real.ok) || (res.realNoCache && !res.realNoCache.ok);
  process.exitCode = failed ? 1 : 0;
} finally {
  fs.rmSync(TMP, { recursive: true, force: true });
}
