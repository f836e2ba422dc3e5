// `npm run lighthouse`: Lighthouse (performance, accessibility, best practices, SEO) on key pages of the
// built site served by `sitegen preview`, in Debian's Chromium. Prints a table; with --assert N exits 1
// when any score is below N or a page shifts its layout (CLS above 0). --assert-perf M sets a lower floor for
// performance only: it is timing, and a shared 2-core CI machine moves it by a few points, while the other three
// categories are deterministic audits. Run `npx sitegen build` first (the script builds when dist/ is missing).
// --dist DIR serves that built folder instead of dist/ (scripts/test.mjs builds into a temporary one).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import lighthouse from 'lighthouse';
import defaultConfig from 'lighthouse/core/config/default-config.js';
import * as chromeLauncher from 'chrome-launcher';

const args = process.argv.slice(2);
const assertAt = args.includes('--assert') ? Number(args[args.indexOf('--assert') + 1]) : null;
const perfAt = args.includes('--assert-perf') ? Number(args[args.indexOf('--assert-perf') + 1]) : assertAt;
const floor = (c) => (c === 'performance' ? perfAt : assertAt);
const passes = (row) => assertAt === null || (CATEGORIES.every((c) => row[c] >= floor(c)) && Number(row.cls) === 0);
// --report FILE: writes {page, scores, passed} per page as JSON (scripts/test.mjs counts each page as a test).
const reportFile = args.includes('--report') ? args[args.indexOf('--report') + 1] : null;
const distDir = args.includes('--dist') ? args[args.indexOf('--dist') + 1] : 'dist';
const pages = ['/', '/for-consumers/online/saas/', '/legal/', '/uae-pdpl/'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
// A category's score is the weighted mean of its audits, so an audit of weight 0 in every category we score
// (the performance diagnostics and insights, manual checks, informative ones) moves no score: those are not
// run, nor the gatherers only they need (trace elements, a back/forward-cache navigation, code coverage,
// image re-encoding). Every audit with a weight runs, so the scores are Lighthouse's own category scores.
const weighted = new Set(CATEGORIES.flatMap((c) => defaultConfig.categories[c].auditRefs.filter((a) => a.weight > 0).map((a) => a.id)));
const UNWEIGHTED = [...new Set(CATEGORIES.flatMap((c) => defaultConfig.categories[c].auditRefs.map((a) => a.id)))].filter((id) => !weighted.has(id));

if (!fs.existsSync(`${distDir}/index.html`)) {
  const b = spawnSync(process.execPath, ['bin/sitegen.js', 'build', '--quiet', '--out', distDir], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}

const server = spawn(process.execPath, ['bin/sitegen.js', 'preview', '--port', '0', '--no-backend', '--out', distDir], { stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => { out += d; const m = out.match(/at (http:\/\/\S+?)\/?\s/); if (m) resolve(m[1]); });
  server.once('exit', (c) => reject(new Error(`preview exited ${c}`)));
});

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const rows = [];
let failed = false;
try {
  for (const p of pages) {
    const audit = async () => {
      const r = await lighthouse(base + p, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES }, {
        extends: 'lighthouse:default',
        // A local preview has no HTTPS or HTTP/2; Lighthouse's desktop profile, no throttling of the loopback.
        // No screenshots: the filmstrip, the final frame and the full-page picture weigh 0 in every score and
        // cost seconds a page to take and encode (the trace the timings come from is recorded all the same).
        settings: {
          formFactor: 'desktop', screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false }, throttlingMethod: 'provided',
          disableFullPageScreenshot: true, skipAudits: ['screenshot-thumbnails', 'final-screenshot', ...UNWEIGHTED],
        },
      });
      const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((r.lhr.categories[c].score ?? 0) * 100)]));
      const audits = Object.values(r.lhr.audits).filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable').map((a) => a.id);
      return { page: p, ...scores, lcp: Math.round(r.lhr.audits['largest-contentful-paint'].numericValue), cls: r.lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3), issues: audits.join(', ') };
    };
    let row = await audit();
    // Performance and CLS depend on timing (a busy machine; whether the font lands before first paint on a
    // cold browser profile): when only they miss, measure twice more and keep the median of each, as
    // Lighthouse CI does. The three deterministic categories are never retried.
    const onlyTiming = assertAt !== null && !passes(row) && passes({ ...row, performance: 100, cls: '0.000' });
    if (onlyTiming) {
      const runs = [row, await audit(), await audit()];
      const median = (f) => runs.map(f).sort((a, b) => a - b)[1];
      row = { ...row, performance: median((x) => x.performance), cls: median((x) => Number(x.cls)).toFixed(3), runs: runs.map((x) => `${x.performance}/${x.cls}`).join(' ') };
    }
    rows.push(row);
    if (!passes(row)) failed = true;
  }
} finally {
  await chrome.kill();
  server.kill();
}
console.log('page'.padEnd(30), 'perf  a11y  best  seo   LCP ms  CLS    below 90');
for (const r of rows) console.log(r.page.padEnd(30), String(r.performance).padEnd(5), String(r.accessibility).padEnd(5), String(r['best-practices']).padEnd(5), String(r.seo).padEnd(5), String(r.lcp).padEnd(7), r.cls.padEnd(6), (r.runs ? `median of 3 runs (perf/CLS: ${r.runs}); ` : '') + (r.issues || '-'));
if (reportFile) fs.writeFileSync(reportFile, JSON.stringify(rows.map((r) => ({ page: r.page, scores: Object.fromEntries(CATEGORIES.map((c) => [c, r[c]])), cls: Number(r.cls), passed: passes(r) }))));
if (failed) { console.error(`✗ a score is below ${assertAt} (performance ${perfAt}) or CLS is above 0`); process.exit(1); }
