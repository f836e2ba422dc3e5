#!/usr/bin/env node
// `npm run bench`: cold and warm whole-process `sitegen build` runs on N synthetic pages, on the disk that
// holds the repository, interleaved with Hugo builds of the same content when `hugo` is on PATH, and the
// issue-16 targets met or not (bench/report.mjs prints them; bench/README.md has the method).
//
//   node bench/run.mjs [--pages 100,1000,10000] [--runs 3] [--tmpfs | --workdir d] [--no-hugo] [--no-real] [--no-dev] [--no-images] [--no-starters] [--json]
//
// Per N: content from ../shared/bench/gen.mjs (generated once into <workdir>/site-N/, not timed), bench/site
// and bench/hugo-site copied beside it, untimed checks (a cold and a warm `--json` build: page count and
// stage timings; a Hugo build: page count), then --runs repetitions of [sitegen cold, Hugo, sitegen warm, sitegen again, Hugo again],
// each a fresh process. COLD = a user's first build on a fresh clone after `npm ci`: no output, no
// <root>/.sitegen build state, and node_modules/.cache/sitegen as `npm ci` leaves it: deleted, then
// `sitegen prepare` (the package's postinstall: CLI bundle, vendor bundle; untimed, timed on its own as
// "install step"). WARM = the same with the cache the previous (cold) build left; only the output is deleted.
import { spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { log, waitForQuiet, loadAverage, cpuSnapshot, otherCpu, runProcess, summarize, firstError, fsType, fmtS, fmtMB, tail, TMP, RSS_METHOD, setAside, setAsideOutputs, emptyTrash } from './proc.mjs';
import { hugoVersion, prepareHugo, hugoBuildArgs, coldHugo, hugoPagesFigure, countIndexFiles } from './hugo.mjs';
import { printReport, targets } from './report.mjs';
import { GEN } from './devsite.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.dirname(BENCH);
const CLI = path.join(REPO, 'bin', 'sitegen.js');
const SITE = path.join(BENCH, 'site');
const TMPFS_DIR = '/dev/shm/sitegen-bench';
// Everything under node_modules/.cache/sitegen is made by sitegen on its first run after `npm ci`.
const PKG_CACHE = path.join(REPO, 'node_modules', '.cache', 'sitegen');
// <root>/.sitegen holds build state (cache/, client/) and the local waitlist database, which is data, not cache.
const KEEP_IN_STATE = new Set(['waitlist', 'waitlist.lock', 'server.json']);

// ---------- arguments ----------
const HELP = `node bench/run.mjs [options]
  --pages a,b    page counts, each ≥ 10 (default 100,1000,10000)
  --runs n       repetitions of [sitegen cold, Hugo, sitegen warm, sitegen again, Hugo again]; medians reported (default 3)
  --tmpfs        build the generated sites in ${TMPFS_DIR} instead of the repository's disk
  --workdir d    build the generated sites in d (default bench/.work, on the repository's disk)
  --no-hugo      skip Hugo even when it is on PATH
  --baseline     also time bench/baseline.mjs (gray-matter + marked + renderToStaticMarkup)
  --no-real      skip the repository site's cold and warm builds
  --no-dev       skip bench/dev.mjs (dev first page served, edit → served)
  --no-images    skip bench/images.mjs (the image pipeline on 200 photos against sharp alone)
  --no-starters  skip bench/starters.mjs (the blog starter with 10,000 posts, the docs starter with 1,000 pages)
  --no-stages    skip the untimed --json builds (no stage timings, no alias count)
  --no-again     skip the "again" rows (each tool built again over its previous output)
  --no-incremental  skip the incremental rows (sitegen again with nothing changed, one Markdown file
                 changed, the layout template changed)
  --rm-outputs   delete outputs and caches right before each run instead of setting them aside until the
                 end (see bench/README.md: on this machine's disk that slows the run after the deletion)
  --node-env v   set NODE_ENV=v for every timed sitegen process (default: inherited, else sitegen's own)
  --json         print machine-readable results only
  --wait s       wait up to s seconds for load average < 1.5 (default 60)
  --timeout s    kill a run after s seconds (default 1800)
`;
function parseArgs(argv) {
  const o = { pages: [100, 1000, 10000], runs: 3, baseline: false, real: true, dev: true, images: true, starters: true, stages: true, again: true, incremental: true, hugo: true, rmOutputs: false, json: false, wait: 60, timeout: 1800, nodeEnv: null, workdir: path.join(BENCH, '.work'), workdirWhy: 'default: the repository\'s disk' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => { const v = argv[++i]; if (v === undefined) die(`${a} needs a value`); return v; };
    if (a === '--pages') o.pages = val().split(',').map((s) => Number(s.trim()));
    else if (a === '--runs') o.runs = Number(val());
    else if (a === '--baseline') o.baseline = true;
    else if (a === '--no-real') o.real = false;
    else if (a === '--no-dev') o.dev = false;
    else if (a === '--no-images') o.images = false;
    else if (a === '--no-starters') o.starters = false;
    else if (a === '--no-stages') o.stages = false;
    else if (a === '--no-again') o.again = false;
    else if (a === '--no-incremental') o.incremental = false;
    else if (a === '--no-hugo') o.hugo = false;
    else if (a === '--rm-outputs') o.rmOutputs = true;
    else if (a === '--json') o.json = true;
    else if (a === '--wait') o.wait = Number(val());
    else if (a === '--timeout') o.timeout = Number(val());
    else if (a === '--tmpfs') { o.workdir = TMPFS_DIR; o.workdirWhy = 'tmpfs, on request (--tmpfs)'; }
    else if (a === '--workdir') { o.workdir = path.resolve(val()); o.workdirWhy = 'on request (--workdir)'; }
    else if (a === '--node-env') o.nodeEnv = val();
    else if (a === '-h' || a === '--help') { process.stdout.write(HELP); process.exit(0); }
    else die(`unknown argument ${a} (see --help)`);
  }
  if (!o.pages.length || o.pages.some((n) => !Number.isInteger(n) || n < 10)) die('--pages takes integers ≥ 10 (the nav links page-0 … page-9)');
  if (!Number.isInteger(o.runs) || o.runs < 1) die('--runs takes an integer ≥ 1');
  return o;
}
function die(msg) { process.stderr.write(`bench: ${msg}\n`); process.exit(1); }
const opts = parseArgs(process.argv.slice(2));
if (!fs.existsSync(GEN)) die(`no content generator at ${GEN} (../shared/bench/gen.mjs beside the repository; set BENCH_GEN)`);
const WORK = opts.workdir;
setAsideOutputs(opts.rmOutputs ? 'rm' : 'rename');

// ---------- cold / warm state ----------
/**
 * A fresh clone's state for `root` after `npm ci`: no output, no build state in <root>/.sitegen, and
 * node_modules/.cache/sitegen deleted and made again by what `npm ci` runs, the package's postinstall
 * (`sitegen prepare`: the CLI bundle and the vendor bundle, no compiled site). Untimed here; the "install
 * step" row times it.
 */
function makeCold(root, out) {
  rmOutput(root, out);
  const state = path.join(root, '.sitegen');
  if (fs.existsSync(state)) for (const f of fs.readdirSync(state)) if (!KEEP_IN_STATE.has(f) && f !== '.bench-trash') setAside(path.join(state, f));
  setAside(PKG_CACHE);
  // The timed builds' NODE_ENV (--node-env, else inherited, else sitegen's own), which keys the vendor bundle.
  const p = spawnSync(process.execPath, [CLI, 'prepare'], { cwd: REPO, encoding: 'utf8', env: opts.nodeEnv ? { ...process.env, NODE_ENV: opts.nodeEnv } : process.env });
  if (p.status !== 0) die(`sitegen prepare (what npm ci runs) failed:\n${p.stderr}`);
}
/** Warm: the previous build's caches stay; only its output goes (and any staging folder a crash left). */
function rmOutput(root, out) {
  setAside(out);
  const dir = path.dirname(out), base = path.basename(out);
  if (fs.existsSync(dir)) for (const f of fs.readdirSync(dir)) if (f.startsWith(`${base}.tmp-`) || f.startsWith(`${base}.old-`)) setAside(path.join(dir, f));
}

// ---------- site preparation ----------
const genHash = createHash('sha256').update(fs.readFileSync(GEN)).digest('hex').slice(0, 16);
function prepareSite(n) {
  const dir = path.join(WORK, `site-${n}`);
  const pagesDir = path.join(dir, 'content', 'pages');
  const marker = path.join(dir, '.generated');
  const want = `${n} ${genHash}`;
  if (!fs.existsSync(marker) || fs.readFileSync(marker, 'utf8') !== want || !fs.existsSync(pagesDir)) {
    log(`generating ${n} pages: node ${path.relative(REPO, GEN)} ${n} ${path.relative(REPO, pagesDir)}`);
    fs.mkdirSync(dir, { recursive: true });
    execFileSync(process.execPath, [GEN, String(n), pagesDir], { stdio: ['ignore', 'ignore', 'inherit'] });
    fs.writeFileSync(marker, want);
  }
  // The site itself (config, templates) is copied fresh every time, so edits to bench/site/ count.
  fs.rmSync(path.join(dir, 'templates'), { recursive: true, force: true });
  fs.cpSync(SITE, dir, { recursive: true });
  return dir;
}

// ---------- timed runs ----------
const sitegen = (args, extra = {}) => runProcess([CLI, ...args], { cwd: REPO, timeoutS: opts.timeout, nodeEnv: opts.nodeEnv, ...extra });
const hugo = (args) => runProcess(args, { cmd: 'hugo', cwd: REPO, timeoutS: opts.timeout });

/** One timed run: `prepare()` (untimed), the process, `check(r)` → error text or null. Logged. */
async function timed(label, i, prepare, start, check = () => null) {
  prepare();
  const r = await start();
  const problem = r.code !== 0 ? `exit ${r.code}` : check(r);
  log(`  ${label} ${i + 1}/${opts.runs}: ${problem ? `FAILED (${problem})` : `${fmtS(r.seconds)} s wall, ${fmtS(r.cpuS)} s CPU${r.sysS != null ? ` (${fmtS(r.sysS)} system)` : ''}, ${fmtMB(r.rssMB)} MB`}`);
  if (problem) log(tail(r.stderr || r.stdout));
  return problem ? { failed: true, code: r.code, error: r.code !== 0 ? firstError(r) : problem, seconds: r.seconds, rssMB: r.rssMB } : { seconds: r.seconds, cpuS: r.cpuS, sysS: r.sysS, rssMB: r.rssMB };
}
/** Collects repetitions into a summary; the first failure ends that series. */
const series = () => ({ runs: [], failure: null, add(r) { if (this.failure) return; if (r.failed) this.failure = r; else this.runs.push(r); }, done() { return this.failure ? { ok: false, ...this.failure } : this.runs.length ? summarize(this.runs) : { ok: false, error: 'not run: the cold build before it failed' }; } });

async function untimedJson(label, dir, cold) {
  const dist = path.join(dir, 'dist');
  if (cold) makeCold(dir, dist); else rmOutput(dir, dist);
  const r = await sitegen(['build', '--root', dir, '--json']);
  if (r.code !== 0) { log(`  untimed ${label} --json build FAILED (exit ${r.code})\n${tail(r.stdout + r.stderr, 25)}`); return { ok: false, code: r.code, error: firstError(r) }; }
  const j = JSON.parse(r.stdout);
  log(`  untimed ${label} --json build: ${j.pages} pages, ${j.aliases} aliases, ${fmtS(r.seconds)} s; stages (ms): ${Object.entries(j.timings).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}`);
  return { ok: true, pages: j.pages, aliases: j.aliases, stages: j.timings, seconds: r.seconds };
}

async function benchSize(n, hugoOn) {
  const dir = prepareSite(n);
  const dist = path.join(dir, 'dist');
  log(`\nN=${n} (${dir})`);
  const row = { n, pages: null, aliases: null };
  if (opts.stages) {
    const c = await untimedJson('cold', dir, true);
    const w = c.ok ? await untimedJson('warm', dir, false) : c;
    if (!c.ok || !w.ok) return { ...row, failed: (c.ok ? w : c) };
    Object.assign(row, { pages: c.pages, aliases: c.aliases, stagesCold: c.stages, stagesWarm: w.stages });
  }
  let h = null;
  if (hugoOn) {
    h = prepareHugo(BENCH, dir);
    coldHugo(h);
    const r = await hugo(hugoBuildArgs(h));
    const pages = r.code === 0 ? countIndexFiles(h.out) : null;
    row.hugoPages = pages;
    row.hugoFigure = r.code === 0 ? hugoPagesFigure(r.stdout) : null;
    log(`  untimed Hugo build: ${r.code === 0 ? `${pages} pages (index.html files; Hugo's summary says ${row.hugoFigure}), ${fmtS(r.seconds)} s` : `FAILED (exit ${r.code})\n${tail(r.stderr + r.stdout)}`}`);
    if (r.code !== 0 || pages !== n) { row.hugoError = r.code !== 0 ? firstError(r) : `wrote ${pages} pages, expected ${n}`; h = null; }
  }
  // Every timed run must leave N pages in its output, as the untimed runs did.
  const pagesIn = (out) => () => { const k = countIndexFiles(out); return k === n ? null : `wrote ${k} pages, expected ${n}`; };
  const cold = series(), warm = series(), hg = series(), again = series(), hgAgain = series();
  const args = ['build', '--root', dir, '--quiet'];
  const hugoPages = (r) => { const f = hugoPagesFigure(r.stdout); return f === row.hugoFigure ? pagesIn(h.out)() : `Hugo's summary says ${f} pages, expected ${row.hugoFigure}`; };
  // Incremental builds over the previous output: nothing changed, one Markdown file changed (a line added
  // to one page's body), the layout template changed (its footer text: every page renders again).
  const unchanged = series(), oneFile = series(), template = series();
  const mdFile = path.join(dir, 'content', 'pages', 'docs', 'page-5.md');
  const mdText = fs.existsSync(mdFile) ? fs.readFileSync(mdFile, 'utf8') : null;
  const layout = path.join(dir, 'templates', 'Layout.tsx');
  for (let i = 0; i < opts.runs; i++) {
    cold.add(await timed('sitegen cold', i, () => makeCold(dir, dist), () => sitegen(args), pagesIn(dist)));
    if (h) hg.add(await timed('Hugo       ', i, () => coldHugo(h), () => hugo(hugoBuildArgs(h)), hugoPages));
    if (!cold.failure) warm.add(await timed('sitegen warm', i, () => rmOutput(dir, dist), () => sitegen(args), pagesIn(dist)));
    if (!opts.again) continue;
    // Built again with the previous output in place, as `sitegen build` run twice does: one untimed
    // build first, so the timed one finds what a developer's builds after the first find (write.ts).
    if (!warm.failure) {
      await sitegen(args);
      again.add(await timed('sitegen again', i, () => {}, () => sitegen(args), pagesIn(dist)));
    }
    if (h && !hg.failure) hgAgain.add(await timed('Hugo again  ', i, () => {}, () => hugo(hugoBuildArgs(h)), hugoPages));
  }
  if (opts.incremental && !cold.failure && mdText !== null) {
    for (let i = 0; i < opts.runs; i++) {
      await sitegen(args); // the output and build state the timed runs start from
      unchanged.add(await timed('sitegen unchanged', i, () => {}, () => sitegen(args), pagesIn(dist)));
      oneFile.add(await timed('sitegen one file ', i, () => fs.appendFileSync(mdFile, `\nA line added by bench run ${i + 1}.\n`), () => sitegen(args), pagesIn(dist)));
      template.add(await timed('sitegen template ', i, () => fs.writeFileSync(layout, fs.readFileSync(layout, 'utf8').replace(/Generated for benchmarking[^<]*/, `Generated for benchmarking, edit ${i + 1}.`)), () => sitegen(args), pagesIn(dist)));
    }
    fs.writeFileSync(mdFile, mdText); // the generated content as gen.mjs wrote it (the layout is copied afresh each time)
  }
  rmOutput(dir, dist);
  if (h) coldHugo(h);
  const inc = opts.incremental && mdText !== null;
  return { ...row, cold: cold.done(), warm: warm.done(), hugo: h ? hg.done() : null, again: opts.again ? again.done() : null, hugoAgain: opts.again && h ? hgAgain.done() : null,
    unchanged: inc ? unchanged.done() : null, oneFile: inc ? oneFile.done() : null, template: inc ? template.done() : null };
}

async function benchReal() {
  // --out is resolved against --root, so an absolute temp path leaves the repository's dist/ alone.
  const out = path.join(TMP, 'real-dist');
  const args = ['build', '--root', REPO, '--quiet', '--out', out];
  log('\nrepository site (--out in a temp folder; cold deletes <repo>/.sitegen build state, not the waitlist database)');
  const cold = series(), warm = series();
  for (let i = 0; i < opts.runs; i++) {
    cold.add(await timed('real cold', i, () => makeCold(REPO, out), () => sitegen(args)));
    if (!cold.failure) warm.add(await timed('real warm', i, () => rmOutput(REPO, out), () => sitegen(args)));
  }
  rmOutput(REPO, out);
  return { cold: cold.done(), warm: warm.done() };
}

async function benchBaseline(n) {
  const dir = path.join(WORK, `site-${n}`);
  const out = path.join(TMP, `baseline-${n}`);
  const s = series();
  for (let i = 0; i < opts.runs; i++) s.add(await timed('baseline', i, () => setAside(out), () => runProcess([path.join(BENCH, 'baseline.mjs'), path.join(dir, 'content', 'pages'), out], { cwd: REPO })));
  fs.rmSync(out, { recursive: true, force: true });
  return { n, ...s.done() };
}

function benchDev(hugoOn) {
  // bench/dev.mjs: first page served by `sitegen dev` (1,000 pages, the real site) and `hugo server`, then
  // 10 Markdown and 10 layout edits → served. It writes its figures as JSON to BENCH_DEV_JSON.
  log('\ndev server (node bench/dev.mjs: first page served, then edit → served with BENCH_EDITS=10)');
  const file = path.join(TMP, 'dev.json');
  const d = spawnSync(process.execPath, [path.join(BENCH, 'dev.mjs')], {
    cwd: REPO, encoding: 'utf8', timeout: 900_000,
    env: { ...process.env, BENCH_EDITS: '10', BENCH_DEV_JSON: file, BENCH_FIRST_RUNS: String(opts.runs), BENCH_HUGO: hugoOn ? '1' : '0' },
  });
  log((d.stdout ?? '').trimEnd().split('\n').map((l) => `  ${l}`).join('\n'));
  let figures = {};
  try { figures = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { /* it failed before writing them */ }
  if (d.status !== 0) { log(`  bench/dev.mjs FAILED (exit ${d.status ?? d.signal})\n${tail(d.stderr ?? '')}`); return { ok: false, error: tail(d.stderr ?? '', 3), ...figures }; }
  return { ok: true, ...figures };
}

function benchImages() {
  // bench/images.mjs: cold and warm builds of 200 photos in Markdown against sharp alone, peak RSS, bytes shipped.
  log('\nimages (node bench/images.mjs: 200 photos, each in one Markdown post; sharp alone as the floor)');
  const d = spawnSync(process.execPath, [path.join(BENCH, 'images.mjs'), '--json'], { cwd: REPO, encoding: 'utf8', timeout: 3_600_000, maxBuffer: 64 * 1024 * 1024 });
  if (d.status !== 0) { log(`  bench/images.mjs FAILED (exit ${d.status ?? d.signal})\n${tail(d.stderr ?? '')}`); return { ok: false, error: tail(d.stderr ?? '', 3) }; }
  const out = JSON.parse(d.stdout);
  const f = out.figures, t = out.targets;
  const met = (ok) => (ok ? 'met' : 'NOT MET');
  log(`  cold ${fmtS(f.coldS)} s = ${f.ratio.toFixed(2)}× sharp alone (${fmtS(f.floorS)} s): ${met(f.ratio <= t.coldRatio)} (≤ ${t.coldRatio}×)`);
  log(`  warm (output kept) adds ${f.keptAddsMs.toFixed(0)} ms: ${met(f.keptAddsMs <= t.warmAddsMs)} (≤ ${t.warmAddsMs} ms; into a new dist/: ${f.warmAddsMs.toFixed(0)} ms); peak RSS, build and encoder ${fmtMB(f.peakBothMB)} MB: ${met(f.peakBothMB <= t.peakRssMB)} (≤ ${t.peakRssMB} MB)`);
  log(`  one page ships ${(f.onePage.shipped / 1024).toFixed(0)} KB for a ${(f.onePage.original / 1048576).toFixed(1)} MB original`);
  return { ok: true, ...f };
}

function benchStarters() {
  // bench/starters.mjs: the blog and docs starters grown to many pages, built again after one edit.
  log('\nstarters (node bench/starters.mjs: `sitegen init` blog with 10,000 posts, docs with 1,000 pages, text from gen.mjs)');
  const d = spawnSync(process.execPath, [path.join(BENCH, 'starters.mjs'), '--json', '--runs', String(opts.runs)], { cwd: REPO, encoding: 'utf8', timeout: 3_600_000, maxBuffer: 64 * 1024 * 1024 });
  log((d.stderr ?? '').trimEnd().split('\n').map((l) => `  ${l}`).join('\n'));
  if (d.status !== 0) { log(`  bench/starters.mjs FAILED (exit ${d.status ?? d.signal})`); return { ok: false, error: tail(d.stderr ?? '', 3) }; }
  return { ok: true, ...JSON.parse(d.stdout) };
}

async function main() {
  const load = await waitForQuiet(opts.wait);
  const cpuBefore = cpuSnapshot();
  const hv = opts.hugo ? hugoVersion() : null;
  log(hv ? `hugo: ${hv}` : opts.hugo ? 'hugo: not on PATH, no comparison' : 'hugo: skipped (--no-hugo)');
  const res = {
    machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadBefore: load.before, loadWarning: load.warning },
    nodeEnv: opts.nodeEnv ?? process.env.NODE_ENV ?? null, rssMethod: RSS_METHOD, runs: opts.runs,
    workdir: WORK, workdirFs: fsType(WORK), workdirWhy: opts.workdirWhy, removal: opts.rmOutputs ? 'deleted' : 'set aside', hugo: hv, sizes: [], baseline: [], real: null, dev: null,
  };
  for (const n of opts.pages) {
    res.sizes.push(await benchSize(n, !!hv));
    if (opts.baseline) res.baseline.push(await benchBaseline(n));
  }
  if (opts.real) res.real = await benchReal();
  // What `npm ci` adds for sitegen (its postinstall): bundling the CLI and the vendor bundle. Not part of
  // the cold builds above, which start from what it leaves; without it, a cold build pays this on top.
  log('\ninstall step (node_modules/.cache/sitegen removed, then `sitegen prepare`, the package\'s postinstall)');
  const sc = series();
  for (let i = 0; i < opts.runs; i++) sc.add(await timed('install step', i, () => setAside(PKG_CACHE), () => sitegen(['prepare'])));
  res.startupCold = sc.done();
  // Fixed cost of every later command: Node + the CLI bundle and its imports, no site work. After the cold
  // start-up, so dev.mjs next finds the CLI bundle made, as a second `sitegen dev` does.
  log('\nstart-up (node bin/sitegen.js --version)');
  const st = series();
  for (let i = 0; i < opts.runs; i++) st.add(await timed('start-up', i, () => {}, () => sitegen(['--version'])));
  res.startup = st.done();
  if (opts.dev) res.dev = benchDev(!!hv);
  if (opts.images) res.images = benchImages();
  if (opts.starters) res.starters = benchStarters();
  res.loadAfter = loadAverage().load;
  res.otherCpu = otherCpu(cpuBefore, cpuSnapshot());
  return res;
}

try {
  const res = await main();
  process.stdout.write((opts.json ? JSON.stringify({ ...res, targets: targets(res) }, null, 2) : printReport(res)) + '\n');
  const bad = (x) => x && x.ok === false;
  const failed = res.sizes.some((s) => s.failed || bad(s.cold) || bad(s.warm) || bad(s.hugo) || bad(s.again) || bad(s.hugoAgain) || bad(s.unchanged) || bad(s.oneFile) || bad(s.template) || s.hugoError) || res.baseline.some(bad) || bad(res.real?.cold) || bad(res.real?.warm) || bad(res.dev) || bad(res.images) || bad(res.starters);
  process.exitCode = failed ? 1 : 0;
} finally {
  const s = emptyTrash();
  if (!opts.rmOutputs) log(`(outputs and caches set aside between runs deleted after the last run, in ${fmtS(s)} s)`);
  fs.rmSync(TMP, { recursive: true, force: true });
}
