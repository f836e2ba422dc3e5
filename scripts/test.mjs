// `npm test`: typecheck, unit tests (vitest), end-to-end tests (vitest + Chromium), in that order.
// Ends with the plain "N passed, N failed" line CI reads; exits non-zero if anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const only = process.argv[2]; // optional: typecheck | unit | e2e | lighthouse
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-test-'));
let passed = 0, failed = 0, skipped = 0;
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };

const times = [];
/** Runs a step; `label` names it in the closing line of times per part. */
function run(cmd, args, label) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const t = Date.now();
  const status = spawnSync(cmd, args, { stdio: 'inherit', env }).status;
  times.push(`${label} ${((Date.now() - t) / 1000).toFixed(0)} s`);
  return status;
}

function vitest(name, config) {
  const out = path.join(tmp, `${name}.json`);
  const code = run('npx', ['vitest', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], name);
  let report = null;
  try { report = JSON.parse(fs.readFileSync(out, 'utf8')); } catch { /* vitest crashed before reporting */ }
  if (!report) { failed++; console.log(`${name}: vitest produced no report (exit ${code})`); return; }
  passed += report.numPassedTests;
  failed += report.numFailedTests + (code !== 0 && report.numFailedTests === 0 ? 1 : 0);
  skipped += report.numPendingTests + report.numTodoTests;
}

if (!only || only === 'typecheck') {
  if (run('npx', ['tsc', '--noEmit', '-p', '.'], 'typecheck') === 0) passed++; else failed++;
}
if (!only || only === 'unit') vitest('unit', 'vitest.config.ts');
if (!only || only === 'e2e') vitest('e2e', 'vitest.e2e.config.ts');
// Lighthouse on /, a sector page, /legal and /uae-pdpl of a fresh build: every category ≥ 95 (issue 7).
// Each page is one test.
if (!only || only === 'lighthouse') {
  const out = path.join(tmp, 'lighthouse.json');
  // Built into the run's temporary folder: the repository's dist/ is left as it was.
  const dist = path.join(tmp, 'dist');
  const build = run(process.execPath, ['bin/sitegen.js', 'build', '--quiet', '--out', dist], 'lighthouse build');
  const code = build === 0 ? run(process.execPath, ['scripts/lighthouse.mjs', '--assert', '100', '--assert-perf', '95', '--report', out, '--dist', dist], 'lighthouse') : build;
  let rows = null;
  try { rows = JSON.parse(fs.readFileSync(out, 'utf8')); } catch { /* lighthouse crashed before reporting */ }
  if (!rows) { failed++; console.log(`lighthouse: no report (exit ${code})`); }
  else for (const r of rows) { if (r.passed) passed++; else { failed++; console.log(`lighthouse: ${r.page} below 100 (performance 95) or CLS above 0: ${JSON.stringify(r.scores)} CLS ${r.cls}`); } }
}

fs.rmSync(tmp, { recursive: true, force: true });
console.log(`\ntime per part: ${times.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
