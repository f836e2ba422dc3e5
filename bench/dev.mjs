#!/usr/bin/env node
// bench/dev.mjs (npm run bench:dev): how fast a dev server serves its first page, and a fresh page after an edit.
// Generates a 1,000-page site (shared gen.mjs content + a small config and layout, bench/devsite.mjs) in
// bench/.work/dev-site. First page: spawn → first 200 for `/` and a content page, for `sitegen dev` on that
// site (as from a fresh clone: its .sitegen/ removed before each run), `sitegen dev` on the repository's site
// (with its waitlist database, in a fresh temp folder each run) and, when `hugo` is on PATH, `hugo server` on the same content (bench/hugo-site; a content page: that site
// has no home page). Edits: `sitegen dev` on the 1,000 pages with its event stream; one Markdown page's body
// edited N times, then the layout template N times; each sample is edit → reload event → GET showing the text.
// Env: BENCH_PAGES (1000), BENCH_EDITS (20; 0 skips the edits), BENCH_TEMPLATE_EDITS (same as BENCH_EDITS),
// BENCH_FIRST_RUNS (3; 0 skips the first-page runs), BENCH_HUGO (0 skips Hugo), BENCH_DEV_JSON (write the
// figures as JSON to this file, for bench/run.mjs). Then hot updates on the real site in Chromium
// (bench/dev-hmr.mjs; HOT_EDITS, 10; BENCH_HOT=0 skips them), and the issue #31 targets, met or not.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prepareDevSite, pagePath, pageFile } from './devsite.mjs';
import { firstPage, freePort } from './first-page.mjs';
import { prepareHugo, hugoServerArgs } from './hugo.mjs';
import { hotBench } from './dev-hmr.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.dirname(BENCH);
const SITE = path.join(REPO, 'bench', '.work', 'dev-site');
// The shared generator, beside the repository (../shared from its root); BENCH_GEN overrides (worktrees).
const GEN = process.env.BENCH_GEN ?? path.resolve(REPO, '..', 'shared', 'bench', 'gen.mjs');
const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const EDITS = Number(process.env.BENCH_EDITS ?? 20);
const TEMPLATE_EDITS = Number(process.env.BENCH_TEMPLATE_EDITS ?? EDITS);
const FIRST_RUNS = Number(process.env.BENCH_FIRST_RUNS ?? 3);
const WARMUP = 2;
const TIMEOUT_MS = 30_000;
// The real site's content page for the first-page figure (any page with a body will do).
const REAL_PAGE = '/faqs/';

// ---- The measurement.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `sitegen dev` and resolves with its URL; collects its output for the server-side timings. */
function startDev() {
  const proc = spawn(process.execPath, [path.join(REPO, 'bin/sitegen.js'), 'dev', '--root', SITE, '--port', '0', '--no-backend'], { cwd: REPO, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill(); reject(new Error(`dev server did not start:\n${out}`)); }, 120_000);
    const onData = (d) => {
      out += d;
      const m = out.match(/at (http:\/\/\S+?)\/?\s/);
      if (m) { clearTimeout(timer); resolve({ url: m[1], proc, output: () => out, startMs: performance.now() - t0 }); }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`dev server exited with ${code}:\n${out}`)); });
  });
}

/** Opens the SSE stream; `next(pred)` resolves with the first later `reload` event matching pred. */
function events(url) {
  const waiters = [];
  const errors = [];
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/__sitegen/events`, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event || !data) continue;
          const payload = JSON.parse(data);
          if (event === 'errors' && payload.length) errors.push(...payload.map((e) => e.text));
          if (process.env.BENCH_DEBUG) process.stderr.write(`[sse] ${event} ${data.slice(0, 200)}\n`);
          if (event !== 'reload') continue;
          for (const w of waiters.splice(0)) if (!w.pred(payload)) waiters.push(w); else w.resolve(payload);
        }
      });
      resolve({
        next: (pred) => new Promise((res2, rej2) => {
          const timer = setTimeout(() => rej2(new Error(`no reload event within ${TIMEOUT_MS} ms; errors: ${errors.join('\n') || 'none'}`)), TIMEOUT_MS);
          waiters.push({ pred, resolve: (p) => { clearTimeout(timer); res2(p); } });
        }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

async function measure(label, count, edit, route, url, stream) {
  const samples = [];
  for (let k = -WARMUP; k < count; k++) {
    const marker = `bench-${label.replace(/\W/g, '')}-${k + WARMUP}-${Date.now().toString(36)}`;
    const t0 = performance.now();
    const reloaded = stream.next((p) => p.paths.includes('*') || p.paths.includes(route));
    edit(marker);
    await reloaded;
    const html = await (await fetch(url + route)).text();
    const ms = performance.now() - t0;
    if (!html.includes(marker)) throw new Error(`${label}: ${route} was reloaded but does not show the edit ${marker}`);
    if (k >= 0) samples.push(ms);
    await sleep(120); // apart from each other, as a person's saves are
  }
  return samples;
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { n: s.length, median: s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2, p95: at(0.95), min: s[0], max: s[s.length - 1] };
};

/** The server's own "→ N routes re-rendered in X ms" lines after `from` characters of its output. */
function serverLines(output, from) {
  const lines = [...output.slice(from).matchAll(/→ (\d+) routes? re-rendered in (\d+) ms/g)].map((m) => ({ routes: Number(m[1]), ms: Number(m[2]) }));
  return lines.slice(WARMUP);
}


/** `runs` interleaved rounds of [sitegen dev 1k, sitegen dev real site, hugo server]; medians per path. */
async function firstPages(runs, hugoOn) {
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  const cli = path.join(REPO, 'bin', 'sitegen.js');
  const env = { ...process.env, NO_COLOR: '1' };
  const h = hugoOn ? prepareHugo(BENCH, SITE) : null;
  const servers = [
    // As from a fresh clone: no <site>/.sitegen (content cache, compiled site module) left by the run before.
    { server: 'sitegen dev', site: `${PAGES}-page dev site`, paths: ['/', pagePath(0)], cmd: process.execPath, args: (port) => [cli, 'dev', '--root', SITE, '--port', String(port), '--no-backend'], fresh: path.join(SITE, '.sitegen') },
    // The real site with its waitlist database, new each run (a fresh clone has none; migrations run).
    { server: 'sitegen dev', site: 'real site', paths: ['/', REAL_PAGE], cmd: process.execPath, args: (port) => [cli, 'dev', '--root', REPO, '--port', String(port)], db: true },
    ...(h ? [{ server: 'hugo server', site: `${PAGES}-page dev site`, paths: [pagePath(0)], cmd: 'hugo', args: (port) => hugoServerArgs(h, port) }] : []),
  ];
  const samples = servers.map((s) => s.paths.map(() => ({ runs: [], error: null })));
  for (let r = 0; r < runs; r++) {
    for (const [i, s] of servers.entries()) {
      const db = s.db ? fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-bench-db-')) : null;
      if (s.fresh) fs.rmSync(s.fresh, { recursive: true, force: true });
      const port = await freePort();
      const got = await firstPage({ cmd: s.cmd, args: s.args(port), port, paths: s.paths, cwd: REPO, env: db ? { ...env, SITEGEN_WAITLIST_DIR: path.join(db, 'waitlist') } : env });
      if (db) fs.rmSync(db, { recursive: true, force: true });
      s.paths.forEach((p, k) => {
        const ms = got.ms[p];
        if (ms == null) samples[i][k].error ??= `no 200 for ${p}: ${got.output.trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`;
        else samples[i][k].runs.push(ms);
      });
      process.stdout.write(`  first page, ${s.server} (${s.site}) run ${r + 1}/${runs}: ${s.paths.map((p) => `${p} ${got.ms[p] == null ? 'FAILED' : `${got.ms[p].toFixed(0)} ms`}`).join(', ')}\n`);
    }
  }
  if (h) fs.rmSync(h.dir, { recursive: true, force: true });
  return servers.flatMap((s, i) => s.paths.map((p, k) => {
    const x = samples[i][k];
    return { server: s.server, site: s.site, path: p, runs: x.runs, medianMs: x.error ? null : median(x.runs), error: x.error };
  }));
}

async function editBench() {
  const dev = await startDev();
  const stream = await events(dev.url);
  const built = /built (\d+) pages in memory in (\d+) ms/.exec(dev.output());
  process.stdout.write(`  edit bench server started in ${dev.startMs.toFixed(0)} ms (first build: ${built ? `${built[1]} pages in ${built[2]} ms` : 'see output'})\n`);
  const rows = [];
  try {
    const md = pageFile(SITE, 0);
    const original = fs.readFileSync(md, 'utf8');
    let from = dev.output().length;
    const content = await measure('content', EDITS, (marker) => fs.writeFileSync(md, `${original}\nEdited paragraph ${marker}.\n`), pagePath(0), dev.url, stream);
    rows.push(['content edit (one .md body)', stats(content), serverLines(dev.output(), from)]);
    fs.writeFileSync(md, original);
    await sleep(200);

    // (BENCH_TEMPLATE_EDITS=0: no template edits, and no row for them)
    const layout = path.join(SITE, 'templates', 'Layout.tsx');
    const layoutSource = fs.readFileSync(layout, 'utf8');
    from = dev.output().length;
    const template = TEMPLATE_EDITS > 0 ? await measure('template', TEMPLATE_EDITS, (marker) => fs.writeFileSync(layout, layoutSource.replace('>layout-mark<', `>${marker}<`)), pagePath(0), dev.url, stream) : [];
    if (template.length) rows.push(['template edit (layout)', stats(template), serverLines(dev.output(), from)]);
    fs.writeFileSync(layout, layoutSource);
  } catch (e) {
    process.stderr.write(`server output:\n${dev.output()}\n`);
    throw e;
  } finally {
    stream.close();
    dev.proc.kill('SIGTERM');
  }
  const f = (n) => `${n.toFixed(1)} ms`.padStart(10);
  process.stdout.write('\n  edit                          n     median        p95        min        max   routes re-rendered   server rebuild (median)\n');
  for (const [name, s, lines] of rows) {
    const routes = [...new Set(lines.map((l) => l.routes))].join('/') || '?';
    const server = lines.length ? stats(lines.map((l) => l.ms)).median : NaN;
    process.stdout.write(`  ${name.padEnd(28)} ${String(s.n).padStart(3)} ${f(s.median)} ${f(s.p95)} ${f(s.min)} ${f(s.max)}   ${routes.padStart(18)}   ${Number.isNaN(server) ? '?' : `${server} ms`}\n`);
  }
  process.stdout.write(`\n  (edit → reload event on the event stream → GET shows the edit; wall clock, includes the 10 ms debounce; load average now ${os.loadavg()[0].toFixed(2)})\n`);
  return rows.map(([edit, s]) => ({ edit, n: s.n, medianMs: s.median, p95Ms: s.p95, minMs: s.min, maxMs: s.max }));
}

/** The targets of issue #31: the first page of the 1,000-page site within 1 s, and the hot-update medians. */
function printTargets(result) {
  const rows = [];
  const first = result.firstPage.find((f) => f.server === 'sitegen dev' && f.site === `${PAGES}-page dev site` && f.path === '/');
  const hugo = result.firstPage.find((f) => f.server === 'hugo server');
  if (first) rows.push([`first page served, ${PAGES}-page site (median of ${first.runs.length})`, first.medianMs, 1000, hugo?.medianMs]);
  for (const h of result.hot) rows.push([`${h.edit}, save → applied (median of ${h.n})`, h.medianMs, h.targetMs, undefined]);
  if (!rows.length) return;
  process.stdout.write('\n  target                                                              measured   target   hugo server\n');
  for (const [name, ms, target, hugoMs] of rows) {
    const met = ms != null && ms <= target;
    process.stdout.write(`  ${name.padEnd(66)} ${ms == null ? 'failed'.padStart(8) : `${ms.toFixed(0)} ms`.padStart(8)}   ≤ ${String(target).padStart(4)} ms ${hugoMs == null ? '         ' : `${hugoMs.toFixed(0)} ms`.padStart(9)}   ${met ? 'met' : 'NOT MET'}\n`);
  }
}

async function main() {
  const load = os.loadavg()[0];
  const hugoOn = process.env.BENCH_HUGO !== '0' && spawnSync('hugo', ['version'], { encoding: 'utf8' }).status === 0;
  process.stdout.write(`sitegen dev benchmark: ${PAGES} pages, first page ×${FIRST_RUNS}${hugoOn ? ' (with hugo server)' : ''}, ${EDITS} edits each (+${WARMUP} warm-up), load average ${load.toFixed(2)} on ${os.cpus().length} cores\n`);
  prepareDevSite(SITE, PAGES);
  const result = { firstPage: FIRST_RUNS > 0 ? await firstPages(FIRST_RUNS, hugoOn) : [], edits: EDITS > 0 ? await editBench() : [], hot: process.env.BENCH_HOT === '0' ? [] : await hotBench() };
  printTargets(result);
  if (process.env.BENCH_DEV_JSON) fs.writeFileSync(process.env.BENCH_DEV_JSON, JSON.stringify(result));
  if (result.firstPage.some((f) => f.error)) { for (const f of result.firstPage.filter((x) => x.error)) process.stderr.write(`first page failed: ${f.server} ${f.site}: ${f.error}\n`); process.exitCode = 1; }
}

main().catch((e) => { process.stderr.write(`${e?.stack ?? e}\n`); process.exit(1); });
