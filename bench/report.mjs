// bench/report.mjs: the printed report of bench/run.mjs: cold/warm/Hugo table, sitegen/Hugo ratios, the real
// site, dev first page and edit → served, stage timings, and each issue-16 target with met / not met.
import { fmtS, fmtMB, OTHER_CPU_LIMIT } from './proc.mjs';

// Issue 16's targets (same disk, same run, whole process).
export const TARGETS = { cold100S: 0.5, rssMB: 400, devFirstPageS: 1, editMs: 50, realColdS: 1, unchanged10kS: 0.3, oneFile10kS: 0.5, rss100kMB: 1024, edit100kS: 2 };

/**
 * How time and peak memory grow with the page count: each size against the one before (sorted by N), the
 * medians' ratios beside the ratio of pages. A ratio below the pages' one is sub-linear growth.
 */
export function growth(res) {
  const ok = (r) => r?.ok ? r : null;
  const sizes = res.sizes.filter((s) => ok(s.cold)).sort((a, b) => a.n - b.n);
  const rows = [];
  const q = (a, b) => (a != null && b != null && b > 0 ? a / b : null);
  for (let i = 1; i < sizes.length; i++) {
    const a = sizes[i - 1], b = sizes[i];
    const row = { from: a.n, to: b.n, pages: b.n / a.n };
    for (const k of ['cold', 'warm', 'oneFile']) {
      const x = ok(a[k]), y = ok(b[k]);
      row[k] = x && y ? { wall: q(y.median, x.median), cpu: q(y.cpuMedian, x.cpuMedian), rss: q(y.rssMB, x.rssMB) } : null;
    }
    rows.push(row);
  }
  return rows;
}

/** The growth table's lines (empty with fewer than two sizes). */
export function growthLines(res) {
  const rows = growth(res);
  if (!rows.length) return [];
  const r = (x) => (x == null ? '-' : `${x.toFixed(2)}×`);
  const t = [['N → N', 'pages', 'cold wall', 'cold CPU', 'cold RSS', 'warm wall', 'warm CPU', 'warm RSS', 'one file wall', 'one file RSS']];
  for (const g of rows) t.push([`${g.from} → ${g.to}`, r(g.pages), r(g.cold?.wall), r(g.cold?.cpu), r(g.cold?.rss), r(g.warm?.wall), r(g.warm?.cpu), r(g.warm?.rss), r(g.oneFile?.wall), r(g.oneFile?.rss)]);
  return ['', 'growth (each size against the one before: medians\' ratios; peak RSS growing slower than pages is memory that does not hold every page):', ...table(t)];
}

export const COLD_MEANS = 'COLD = a first build on a fresh clone after `npm ci`: output, <root>/.sitegen build state (not the waitlist database) and node_modules/.cache/sitegen (CLI bundle, vendor bundle, compiled site) removed before each run, then what npm ci\'s postinstall makes again (`sitegen prepare`: CLI and vendor bundle, untimed; its own row is "install step"); Hugo: output, resources/ and its cache dir removed.';
export const WARM_MEANS = 'WARM = the same build again with the cache the previous (cold) build left; only the output is removed.';
export const AGAIN_MEANS = 'AGAIN = each tool built again over its own previous output, as a developer rebuilding does: sitegen after one untimed build (so its previous output is kept for reuse), Hugo after its cold run.';
export const INCREMENTAL_MEANS = 'UNCHANGED / ONE FILE / TEMPLATE = sitegen built again over its previous output and build state with nothing changed, after one line was added to one Markdown page, after the layout template\'s footer text changed (every page renders again); Hugo has no such mode: its figure is its full build.';

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? (c ?? '').padEnd(widths[i]) : (c ?? '').padStart(widths[i]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
}

// A failed row says FAILED in its time cell; the reason is listed under the table (notes), not in the cell.
let notes = [];
const failedRow = (label, n, why) => { notes.push(`${label}${n === '-' ? '' : ` at N=${n}`}: ${why}`); return [label, String(n), '-', '-', 'FAILED', '', '', '', '', '']; };
const cells = (label, n, pages, aliases, r) => (!r ? null : !r.ok
  ? failedRow(label, n, r.error ?? `exit ${r.code}`)
  : [label, String(n), pages, aliases, fmtS(r.median), fmtS(r.min), fmtS(r.cpuMedian), fmtS(r.sysMedian), fmtMB(r.rssMB), typeof n === 'number' ? (n / r.median).toFixed(0) : '-']);
const ratio = (a, b) => (a?.ok && b?.ok ? a.median / b.median : null);
const fmtRatio = (x) => (x == null ? '-' : `${x.toFixed(2)}×`);

/** Every target of issue 16 with the measured figure and ✓ / ✗, or "not measured" when this run lacks it. */
export function targets(res) {
  const out = [];
  const add = (name, value, ok, detail = '') => out.push({ name, value, met: ok, detail });
  const size = (n) => res.sizes.find((s) => s.n === n);
  const noHugo = res.hugo ? 'Hugo failed' : 'no Hugo in this run';
  // sitegen failing is a target not met; Hugo missing or failing leaves it unmeasured.
  const vsHugo = (name, s, k, limit) => {
    if (!s) return add(name, 'not measured (N not run)', null);
    if (!s[k]?.ok) return add(name, `sitegen failed${s.failed ? ' its untimed check' : ''}`, false);
    if (!s.hugo?.ok) return add(name, `not measured (${noHugo})`, null);
    const r = ratio(s[k], s.hugo);
    add(name, `${fmtS(s[k].median)} s vs Hugo ${fmtS(s.hugo.median)} s (${fmtRatio(r)})`, r <= limit);
  };
  for (const n of [1000, 10000]) {
    const s = size(n);
    vsHugo(`cold build ≤ Hugo at ${n.toLocaleString('en')} pages`, s, 'cold', 1);
  }
  // Issue 28: incremental builds at 10,000 pages, each shown beside Hugo's full build of the same run.
  const s10 = size(10000);
  const hugoNote = (s) => (s?.hugo?.ok ? ` (Hugo's full build ${fmtS(s.hugo.median)} s)` : '');
  const limitRow = (name, r, limit) => {
    if (!s10) return add(name, 'not measured (N not run)', null);
    if (!r) return add(name, 'not measured (--no-incremental)', null);
    if (!r.ok) return add(name, 'sitegen failed', false);
    add(name, `${fmtS(r.median)} s${hugoNote(s10)}`, r.median <= limit);
  };
  limitRow(`nothing changed ≤ ${TARGETS.unchanged10kS} s at 10,000 pages`, s10?.unchanged, TARGETS.unchanged10kS);
  limitRow(`one Markdown file changed ≤ ${TARGETS.oneFile10kS} s at 10,000 pages`, s10?.oneFile, TARGETS.oneFile10kS);
  if (!s10) add('template changed ≤ warm build at 10,000 pages', 'not measured (N not run)', null);
  else if (!s10.template) add('template changed ≤ warm build at 10,000 pages', 'not measured (--no-incremental)', null);
  else if (!s10.template.ok || !s10.warm?.ok) add('template changed ≤ warm build at 10,000 pages', 'sitegen failed', false);
  else add('template changed ≤ warm build at 10,000 pages', `${fmtS(s10.template.median)} s vs warm ${fmtS(s10.warm.median)} s${hugoNote(s10)}`, s10.template.median <= s10.warm.median);
  const s100 = size(100);
  add(`cold build ≤ ${TARGETS.cold100S} s at 100 pages`, !s100 ? 'not measured (N not run)' : s100.cold?.ok ? `${fmtS(s100.cold.median)} s` : 'sitegen failed', s100?.cold?.ok ? s100.cold.median <= TARGETS.cold100S : s100 ? false : null);
  for (const s of res.sizes) vsHugo(`warm build ≤ ½ Hugo at ${s.n.toLocaleString('en')} pages`, s, 'warm', 0.5);
  const s100k = size(100000);
  vsHugo('cold build ≤ Hugo at 100,000 pages', s100k, 'cold', 1);
  const rss100k = s100k?.cold;
  add(`peak RSS ≤ ${TARGETS.rss100kMB} MB at 100,000 pages, cold`, !s100k ? 'not measured (N not run)' : rss100k?.ok ? `${fmtMB(rss100k.rssMB)} MB` : 'sitegen failed', !s100k ? null : rss100k?.ok && rss100k.rssMB != null ? rss100k.rssMB <= TARGETS.rss100kMB : false);
  const e100k = s100k?.oneFile;
  add(`one-file edit build ≤ ${TARGETS.edit100kS} s at 100,000 pages`, !s100k ? 'not measured (N not run)' : !e100k ? 'not measured (--no-incremental)' : e100k.ok ? `${fmtS(e100k.median)} s` : 'sitegen failed', !s100k || !e100k ? null : e100k.ok ? e100k.median <= TARGETS.edit100kS : false);
  const s10k = size(10000);
  for (const k of ['cold', 'warm']) {
    const r = s10k?.[k], name = `peak RSS ≤ ${TARGETS.rssMB} MB at 10,000 pages, ${k}`;
    if (!s10k) add(name, 'not measured (N not run)', null);
    else if (!r?.ok) add(name, `build failed${r?.rssMB != null ? ` (${fmtMB(r.rssMB)} MB when it ended)` : ''}`, false);
    else add(name, r.rssMB == null ? 'not measured (no RSS method)' : `${fmtMB(r.rssMB)} MB`, r.rssMB == null ? null : r.rssMB <= TARGETS.rssMB);
  }
  const fp = res.dev?.firstPage ?? [];
  const sg = fp.filter((f) => f.server === 'sitegen dev');
  if (!sg.length) add(`dev first page served ≤ ${TARGETS.devFirstPageS} s`, res.dev ? 'not measured (dev bench failed)' : 'not measured (--no-dev)', null);
  for (const f of sg) add(`dev first page ≤ ${TARGETS.devFirstPageS} s: ${f.site} ${f.path}`, f.medianMs == null ? `failed: ${f.error ?? '?'}` : `${(f.medianMs / 1000).toFixed(3)} s`, f.medianMs == null ? false : f.medianMs <= TARGETS.devFirstPageS * 1000);
  const edit = (res.dev?.edits ?? []).find((e) => e.edit.startsWith('content'));
  add(`dev edit → served ≤ ${TARGETS.editMs} ms (median, content edit)`, edit ? `${edit.medianMs.toFixed(1)} ms` : res.dev ? 'not measured (dev bench failed or no edits)' : 'not measured (--no-dev)', edit ? edit.medianMs <= TARGETS.editMs : null);
  const rc = res.real?.cold;
  add(`real site cold build ≤ ${TARGETS.realColdS} s`, !res.real ? 'not measured (--no-real)' : rc.ok ? `${fmtS(rc.median)} s` : 'failed', !res.real ? null : rc.ok ? rc.median <= TARGETS.realColdS : false);
  return out;
}

/**
 * Why this run's figures are not to be judged, or null: the load when measuring started, or other processes'
 * CPU (or the host's steal) during it above OTHER_CPU_LIMIT of the machine. Without /proc, the load after the
 * run stands in, though the bench's own two busy cores raise it too.
 */
export function busy(res) {
  if (res.machine.loadWarning) return res.machine.loadWarning;
  const oc = res.otherCpu;
  if (!oc) return Math.max(...res.loadAfter) > 1.5 ? `load average ${res.loadAfter[0].toFixed(2)} after the run` : null;
  if (oc.share > OTHER_CPU_LIMIT) return `other processes used ${(oc.share * 100).toFixed(1)} % of the CPUs`;
  const steal = oc.wall > 0 ? oc.steal / (oc.wall * res.machine.cpus) : 0;
  return steal > OTHER_CPU_LIMIT ? `the host took ${(steal * 100).toFixed(1)} % of the CPUs (steal)` : null;
}

export function printReport(res) {
  const out = [];
  out.push(`sites built in ${res.workdir} (${res.workdirFs}; ${res.workdirWhy})`);
  out.push(`sitegen bench: Node ${res.machine.node}, ${res.machine.cpus} CPUs (${res.machine.cpuModel}), median of ${res.runs} run(s) per row, NODE_ENV=${res.nodeEnv ?? '(sitegen default)'}, Hugo: ${res.hugo ?? 'not run'}`);
  out.push(`load average before ${res.machine.loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${res.loadAfter.map((x) => x.toFixed(2)).join(' ')}`);
  if (res.machine.loadWarning) out.push(`WARNING: ${res.machine.loadWarning}`);
  const oc = res.otherCpu;
  if (oc) out.push(`other processes used ${oc.seconds.toFixed(1)} CPU s during the run (${(oc.share * 100).toFixed(1)} % of ${res.machine.cpus} CPUs over ${oc.wall.toFixed(0)} s; limit ${OTHER_CPU_LIMIT * 100} %), steal ${oc.steal.toFixed(1)} s`);
  out.push(COLD_MEANS, WARM_MEANS, ...(res.sizes.some((x) => x.again) ? [AGAIN_MEANS] : []), ...(res.sizes.some((x) => x.unchanged) ? [INCREMENTAL_MEANS] : []), res.removal === 'deleted'
    ? 'REMOVED = deleted right before each run (--rm-outputs): on ext4 without a journal the next run then pays for every inode freed in the last minutes (bench/README.md).'
    : 'REMOVED = renamed out of the way (.bench-trash beside it) and deleted after the last run, so no run pays for the deletions before it (bench/README.md; --rm-outputs deletes right before each run).', '');
  const rows = [['', 'N', 'pages', 'aliases', 'median s', 'min s', 'CPU s', 'system s', 'peak RSS MB', 'pages/s']];
  for (const s of res.sizes) {
    if (s.failed) { rows.push(failedRow('sitegen (untimed check)', s.n, s.failed.error ?? `exit ${s.failed.code}`)); continue; }
    const pages = String(s.pages ?? s.n), aliases = String(s.aliases ?? '-');
    rows.push(cells('sitegen cold', s.n, pages, aliases, s.cold));
    if (s.hugo) rows.push(cells('Hugo', s.n, String(s.hugoPages), '-', s.hugo));
    else if (s.hugoError) rows.push(failedRow('Hugo (untimed check)', s.n, s.hugoError));
    rows.push(cells('sitegen warm', s.n, pages, aliases, s.warm));
    if (s.again) rows.push(cells('sitegen again', s.n, pages, aliases, s.again));
    if (s.hugoAgain) rows.push(cells('Hugo again', s.n, String(s.hugoPages), '-', s.hugoAgain));
    if (s.unchanged) rows.push(cells('sitegen unchanged', s.n, pages, aliases, s.unchanged));
    if (s.oneFile) rows.push(cells('sitegen one file', s.n, pages, aliases, s.oneFile));
    if (s.template) rows.push(cells('sitegen template', s.n, pages, aliases, s.template));
  }
  for (const b of res.baseline) rows.push(cells('baseline', b.n, String(b.n), '-', b));
  if (res.real) { rows.push(cells('real site cold', '-', '-', '-', res.real.cold)); rows.push(cells('real site warm', '-', '-', '-', res.real.warm)); }
  if (res.startup) rows.push(cells('start-up (--version)', '-', '-', '-', res.startup));
  if (res.startupCold) rows.push(cells('install step (prepare)', '-', '-', '-', res.startupCold));
  out.push(...table(rows.filter(Boolean)));
  for (const n of notes) out.push(`FAILED ${n}`);
  notes = [];
  out.push(`peak RSS: ${res.rssMethod}. Wall time: spawn → exit of a fresh process. CPU s: user + system (median); steadier than wall time on a shared machine, but targets are judged on the median wall time.`);

  out.push(...growthLines(res));

  const withHugo = res.sizes.filter((s) => s.hugo?.ok);
  if (withHugo.length) {
    out.push('', 'sitegen / Hugo (median wall time; < 1 is faster than Hugo):');
    for (const s of withHugo) out.push(`  N=${String(s.n).padEnd(6)} cold ${fmtRatio(ratio(s.cold, s.hugo)).padStart(7)}   warm ${fmtRatio(ratio(s.warm, s.hugo)).padStart(7)}${s.again?.ok && s.hugoAgain?.ok ? `   again ${fmtRatio(ratio(s.again, s.hugoAgain)).padStart(7)}` : ''}   (CPU: cold ${fmtRatio(s.cold.cpuMedian && s.hugo.cpuMedian ? s.cold.cpuMedian / s.hugo.cpuMedian : null)}, warm ${fmtRatio(s.warm.cpuMedian && s.hugo.cpuMedian ? s.warm.cpuMedian / s.hugo.cpuMedian : null)})`);
  }

  if (res.dev) {
    out.push('', 'dev server:');
    if (!res.dev.ok) out.push(`  FAILED: ${res.dev.error}`);
    for (const f of res.dev.firstPage ?? []) out.push(`  first page: ${f.server.padEnd(12)} ${f.site.padEnd(22)} ${f.path.padEnd(18)} ${f.medianMs == null ? `FAILED: ${f.error}` : `${(f.medianMs / 1000).toFixed(3)} s (median of ${f.runs.length}; ${f.runs.map((x) => (x / 1000).toFixed(2)).join(', ')})`}`);
    for (const e of res.dev.edits ?? []) out.push(`  ${e.edit.padEnd(30)} edit → served: median ${e.medianMs.toFixed(1)} ms, p95 ${e.p95Ms.toFixed(1)} ms (n=${e.n})`);
    out.push('  (first page: spawn → first 200 response, polled every 20 ms; edit: file write → reload event → GET shows the edit)');
  }

  if (res.starters) {
    out.push('', 'starters (bench/starters.mjs: `sitegen init` sites grown with gen.mjs text; median of the runs):');
    if (!res.starters.ok) out.push(`  FAILED: ${res.starters.error}`);
    for (const [name, size] of [['blog', 'posts'], ['docs', 'pages']]) {
      const x = res.starters[name];
      if (x) out.push(`  ${name} starter, ${x[size]} ${size}: first build ${fmtS(x.first.seconds)} s (${fmtMB(x.first.rssMB)} MB), nothing changed ${fmtS(x.unchanged.seconds)} s, one file changed ${fmtS(x.oneFile.seconds)} s (${fmtMB(x.oneFile.rssMB)} MB)`);
    }
  }

  const staged = res.sizes.filter((s) => s.stagesCold);
  if (staged.length) {
    out.push('', 'build stages (ms, from the untimed --json builds; total is in-process, without Node start-up):');
    const names = [...new Set(staged.flatMap((s) => [...Object.keys(s.stagesCold), ...Object.keys(s.stagesWarm)]))];
    const sr = [['N', 'build', ...names]];
    for (const s of staged) for (const [k, t] of [['cold', s.stagesCold], ['warm', s.stagesWarm]]) sr.push([String(s.n), k, ...names.map((x) => (t[x] == null ? '-' : String(Math.round(t[x]))))]);
    out.push(...table(sr).filter((_, i) => i !== 1));
  }

  out.push('', 'issue 16 and 28 targets (same disk, same run, whole process):');
  const ts = targets(res);
  for (const t of ts) out.push(`  ${t.met == null ? '–' : t.met ? '✓' : '✗'} ${t.name.padEnd(52)} ${t.value}`);
  out.push(`  ${ts.filter((t) => t.met).length} met, ${ts.filter((t) => t.met === false).length} not met, ${ts.filter((t) => t.met == null).length} not measured in this run`);
  const why = busy(res);
  if (why) out.push(`  (the machine was busy: ${why}; re-run on a quiet machine before judging the targets)`);
  return out.join('\n');
}
