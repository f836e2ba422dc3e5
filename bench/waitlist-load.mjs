#!/usr/bin/env node
// Load and crash test of the local waitlist API (`sitegen preview`, PGlite behind /rest/v1/waitlist).
//
//   node bench/waitlist-load.mjs [--json] [--n 1000] [--restart-n 500] [--concurrency 50] [--timeout 120]
//                                [--db-from <empty database folder>]
//
// 1. Starts `sitegen preview` on a copy of the basic fixture's dist/ in a site folder that registers the
//    waitlist plugin (plugins/waitlist), with a fresh SITEGEN_WAITLIST_DIR: a new database, or a copy of
//    the empty one --db-from names (the tests pass the one their setup made, instead of Postgres' initdb
//    again; what is measured and checked is the same).
// 2. Round 1: N sign-ups with distinct emails, `concurrency` in flight, anon key. Round 2: the same N again.
//    Asserts: exactly N rows, every round-2 attempt answered 409, no 5xx anywhere; prints p50/p95/p99 and req/s.
// 3. Restart test, once with SIGTERM and once with SIGKILL: sends restart-n new sign-ups, kills the server
//    when about a third are acknowledged, restarts it on the same data dir and checks that every sign-up
//    answered 201 before the kill is stored (and the earlier N rows too).
// The servers run with the Node flags this script runs with (`node --liftoff-only bench/waitlist-load.mjs`).
// Only talks to 127.0.0.1; bounded in requests and time (--timeout, seconds); removes its temp dir and
// kills its children on every exit path. Exit code 0 when every invariant holds, 1 otherwise.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin/sitegen.js');
const FIXTURE = path.join(REPO, 'tests/fixtures/basic');

// --- options -------------------------------------------------------------------------------------
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const num = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = Number(argv[i + 1]);
  if (!Number.isInteger(value) || value <= 0) fail(`--${name} needs a positive whole number`);
  return value;
};
const JSON_OUT = flag('json');
const N = num('n', 1000);
const RESTART_N = num('restart-n', 500);
const CONCURRENCY = num('concurrency', 50);
const TIMEOUT_S = num('timeout', 120);
const REQUEST_TIMEOUT_MS = 15_000;
const DB_FROM = (() => {
  const i = argv.indexOf('--db-from');
  if (i === -1) return null;
  const dir = argv[i + 1];
  if (!dir || !fs.existsSync(path.join(dir, 'PG_VERSION'))) fail(`--db-from needs a database folder (one with PG_VERSION), got ${dir ?? 'nothing'}`);
  return path.resolve(dir);
})();

function fail(message) {
  process.stderr.write(`waitlist-load: ${message}\n`);
  process.exit(1);
}

// The local anon key lives in plugins/waitlist/keys.ts as concatenated string literals; read it from there
// so this plain-JS script cannot drift from the backend.
function readKey(name) {
  const source = fs.readFileSync(path.join(REPO, 'plugins/waitlist/keys.ts'), 'utf8');
  const m = source.match(new RegExp(`export const ${name}\\s*=\\s*((?:'[^']*'\\s*\\+?\\s*)+);`));
  if (!m) fail(`cannot find ${name} in plugins/waitlist/keys.ts`);
  return [...m[1].matchAll(/'([^']*)'/g)].map((part) => part[1]).join('');
}
const ANON_KEY = readKey('LOCAL_ANON_KEY');
// The service key is random per database: this one is written beside the database before it is created
// (`<dataDir>.service-key`, as plugins/waitlist/serviceKey.ts names it), and the server keeps it.
const SERVICE_KEY = `eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.${crypto.randomBytes(32).toString('base64url')}`;

const log = (line) => { if (!JSON_OUT) process.stdout.write(line + '\n'); };

// --- resources, always released ------------------------------------------------------------------
const children = new Set();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-waitlist-load-'));
let cleanedUp = false;
function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => { cleanup(); process.exit(130); });
const deadline = setTimeout(() => {
  process.stderr.write(`waitlist-load: global timeout of ${TIMEOUT_S} s reached\n`);
  cleanup();
  process.exit(1);
}, TIMEOUT_S * 1000);
deadline.unref();

// --- the server ----------------------------------------------------------------------------------
// The fixture's dist/ is copied into a temp site folder: preview writes <root>/.sitegen/server.json, and
// serving the shared fixture would point `sitegen waitlist export` (and its tests) at this server.
function prepareSite() {
  if (!fs.existsSync(path.join(FIXTURE, 'dist/index.html'))) {
    const r = spawnSync(process.execPath, [BIN, 'build', '--root', FIXTURE, '-q'], { cwd: REPO, encoding: 'utf8' });
    if (r.status !== 0) fail(`building the fixture failed:\n${r.stderr}`);
  }
  const root = path.join(tmp, 'site');
  fs.cpSync(path.join(FIXTURE, 'dist'), path.join(root, 'dist'), { recursive: true });
  // A site whose only job is the waitlist plugin: preview starts server plugins from the site's config.
  fs.writeFileSync(path.join(root, 'sitegen.config.ts'), [
    `import { waitlist } from ${JSON.stringify(path.join(REPO, 'plugins/waitlist/index.ts'))};`,
    `export default { site: { title: 'Load', url: 'https://load.example' }, routes: () => [], collections: {},`,
    `  plugins: [waitlist({ migrations: ${JSON.stringify(path.join(REPO, 'supabase/migrations'))} })] };`,
  ].join('\n'));
  return root;
}

function startPreview(root, dataDir) {
  const proc = spawn(process.execPath, [...process.execArgv, BIN, 'preview', '--root', root, '--port', '0'], {
    cwd: REPO, env: { ...process.env, NO_COLOR: '1', SITEGEN_WAITLIST_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`preview did not start:\n${out}`)); }, 60_000);
    const onData = (chunk) => {
      out += chunk;
      const m = out.match(/at (http:\/\/[^\s]+?)\/?\s/);
      if (m) { clearTimeout(timer); resolve({ url: m[1], proc, output: () => out }); }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`preview exited (${code ?? signal}):\n${out}`)); });
  });
}

function stopProcess(proc, signal) {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve({ code: proc.exitCode, signal: proc.signalCode });
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    proc.once('exit', (code, sig) => { clearTimeout(timer); resolve({ code, signal: sig }); });
    proc.kill(signal);
  });
}

/** The database starts in the background; requests wait for it. Poll until a count answers. */
async function waitForApi(url) {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      return await countRows(url);
    } catch (error) {
      if (Date.now() > until) throw new Error(`the waitlist API did not answer: ${error.message}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

// --- requests ------------------------------------------------------------------------------------
async function signUp(url, email) {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: {
        apikey: ANON_KEY, authorization: `Bearer ${ANON_KEY}`,
        'content-type': 'application/json', prefer: 'return=minimal',
      },
      body: JSON.stringify({ email, utm_source: 'load', metadata: { bench: 'waitlist-load' } }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return { email, status: res.status, ms: performance.now() - started, at: performance.now() };
  } catch (error) {
    return { email, status: 0, error: String(error?.cause?.code ?? error?.name ?? error), ms: performance.now() - started, at: performance.now() };
  }
}

async function countRows(url) {
  const res = await fetch(`${url}/rest/v1/waitlist?select=id&limit=0`, {
    headers: { apikey: SERVICE_KEY, prefer: 'count=exact' }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`count answered ${res.status}`);
  const total = Number(res.headers.get('content-range')?.split('/')[1]);
  if (!Number.isInteger(total)) throw new Error(`no count in Content-Range: ${res.headers.get('content-range')}`);
  return total;
}

/** Every stored email, 1,000 rows a page, as `sitegen waitlist export` reads them. */
async function storedEmails(url) {
  const emails = [];
  for (let offset = 0; ; offset += 1000) {
    const res = await fetch(`${url}/rest/v1/waitlist?select=email&order=id.asc&limit=1000&offset=${offset}`, {
      headers: { apikey: SERVICE_KEY }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (res.status !== 200) throw new Error(`reading rows answered ${res.status}`);
    const page = await res.json();
    emails.push(...page.map((row) => row.email));
    if (page.length < 1000) return emails;
  }
}

/** Runs task(item) for every item with at most `limit` in flight; `stop()` ends it early (the rest are skipped). */
async function pool(items, limit, task, onResult = () => {}) {
  const results = [];
  let next = 0;
  let stopped = false;
  const stop = () => { stopped = true; };
  async function worker() {
    while (!stopped && next < items.length) {
      const item = items[next++];
      const result = await task(item);
      results.push(result);
      onResult(result, stop);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return { results, skipped: items.length - next };
}

/** 'ECONNRESET ×3, ECONNREFUSED ×47' */
function tally(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, n]) => `${value} ×${n}`).join(', ');
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
}

async function round(name, url, emails) {
  const started = performance.now();
  const { results } = await pool(emails, CONCURRENCY, (email) => signUp(url, email));
  const seconds = (performance.now() - started) / 1000;
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const summary = {
    name, requests: results.length, statuses,
    serverErrors: results.filter((r) => r.status >= 500).length,
    networkErrors: results.filter((r) => r.status === 0).length,
    p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99), max: percentile(ms, 100),
    seconds: Math.round(seconds * 100) / 100, throughput: Math.round(results.length / seconds),
  };
  log(`  ${name.padEnd(8)} ${summary.requests} requests  ${JSON.stringify(statuses)}  p50 ${summary.p50} ms  p95 ${summary.p95} ms  ` +
    `p99 ${summary.p99} ms  max ${summary.max} ms  ${summary.throughput} req/s (${summary.seconds} s)`);
  return summary;
}

/**
 * Sends `count` new sign-ups to `server` (running, its API answering) and kills it with `signal` once a
 * third are acknowledged, restarts it on the same data dir and checks every acknowledged row is there.
 * Returns the summary and the restarted server, left running: the next round kills that one, so each
 * start of the server after the first is a restart after a kill (a start costs seconds of CPU).
 */
async function crashRound(signal, server, root, dataDir, prefix, count, rowsBefore) {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}-${i}@load.example`);
  const killAt = Math.max(1, Math.floor(count / 3));
  let acknowledged = 0;
  let killed = null;
  let killedAt = Infinity;
  const { results, skipped } = await pool(emails, CONCURRENCY, (email) => signUp(server.url, email), (result, stop) => {
    if (result.status === 201) acknowledged++;
    if (acknowledged >= killAt && killed === null) {
      killedAt = performance.now();
      killed = stopProcess(server.proc, signal); // requests still in flight keep going: some land, some fail
    }
    if (killed !== null && result.status === 0) stop(); // the server is gone: no point queueing more
  });
  const exit = await (killed ?? stopProcess(server.proc, signal));

  const restarted = await startPreview(root, dataDir);
  const afterRestart = await waitForApi(restarted.url);
  const stored = new Set(await storedEmails(restarted.url));

  const acked = results.filter((r) => r.status === 201).map((r) => r.email);
  const lost = acked.filter((email) => !stored.has(email));
  const notAcked = results.filter((r) => r.status !== 201);
  const landedWithoutAck = notAcked.filter((r) => stored.has(r.email)).length;
  const statuses = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const summary = {
    signal, sent: results.length, skipped, statuses, acknowledged: acked.length,
    acknowledgedAfterSignal: results.filter((r) => r.status === 201 && r.at > killedAt).length,
    exit: exit.signal ?? exit.code, rowsBefore, rowsAfterRestart: afterRestart,
    newRowsStored: emails.filter((e) => stored.has(e)).length, landedWithoutAck, lost: lost.length, lostSample: lost.slice(0, 5),
    serverErrors: results.filter((r) => r.status >= 500 && r.status !== 503).length,
    unavailable: statuses[503] ?? 0,
    networkErrors: tally(results.filter((r) => r.status === 0).map((r) => r.error)),
  };
  log(`  ${signal.padEnd(8)} sent ${summary.sent} (skipped ${skipped}), 201: ${summary.acknowledged} ` +
    `(${summary.acknowledgedAfterSignal} of them answered after the signal was sent), ` +
    `statuses ${JSON.stringify(statuses)}, exit ${summary.exit}; after restart: ${afterRestart} rows ` +
    `(${rowsBefore} before + ${summary.newRowsStored} new, ${landedWithoutAck} stored without an answer), lost acknowledged: ${summary.lost}` +
    (summary.networkErrors ? `; network errors: ${summary.networkErrors}` : ''));
  return { summary, restarted };
}

// --- main ----------------------------------------------------------------------------------------
async function main() {
  const root = prepareSite();
  const dataDir = path.join(fs.realpathSync(tmp), 'waitlist');
  if (DB_FROM) { fs.cpSync(DB_FROM, dataDir, { recursive: true, errorOnExist: true, force: false }); fs.chmodSync(dataDir, 0o700); }
  fs.writeFileSync(`${dataDir}.service-key`, SERVICE_KEY, { mode: 0o600 });
  log(`waitlist load: ${N} sign-ups twice, ${CONCURRENCY} in flight; restart test with ${RESTART_N} sign-ups (SIGTERM, SIGKILL)`);

  const server = await startPreview(root, dataDir);
  await waitForApi(server.url);
  const emails = Array.from({ length: N }, (_, i) => `user-${i}@load.example`);
  const first = await round('round 1', server.url, emails);
  const second = await round('round 2', server.url, emails);
  const rows = await countRows(server.url);
  const distinct = new Set((await storedEmails(server.url)).map((e) => e.toLowerCase())).size;
  log(`  rows stored: ${rows} (${distinct} distinct), round 2 answered 409: ${second.statuses[409] ?? 0}/${N}, ` +
    `5xx: ${first.serverErrors + second.serverErrors}`);

  // The same server takes the SIGTERM round; the one restarted after it, the SIGKILL round.
  const { summary: term, restarted } = await crashRound('SIGTERM', server, root, dataDir, 'term', RESTART_N, rows);
  const { summary: kill, restarted: last } = await crashRound('SIGKILL', restarted, root, dataDir, 'kill', RESTART_N, term.rowsAfterRestart);
  await stopProcess(last.proc, 'SIGTERM');

  const checks = {
    rowsExact: rows === N && distinct === N,
    round1All201: (first.statuses[201] ?? 0) === N,
    round2All409: (second.statuses[409] ?? 0) === N,
    no5xx: first.serverErrors + second.serverErrors === 0 && term.serverErrors === 0 && kill.serverErrors === 0,
    noNetworkErrors: first.networkErrors + second.networkErrors === 0,
    sigtermNoAckLost: term.lost === 0 && term.acknowledged > 0 && term.rowsAfterRestart === rows + term.newRowsStored,
    sigkillNoAckLost: kill.lost === 0 && kill.acknowledged > 0 && kill.rowsAfterRestart === term.rowsAfterRestart + kill.newRowsStored,
  };
  const ok = Object.values(checks).every(Boolean);
  const result = { ok, checks, rows, distinct, rounds: [first, second], restart: [term, kill], concurrency: CONCURRENCY, n: N, restartN: RESTART_N };
  if (JSON_OUT) process.stdout.write(JSON.stringify(result) + '\n');
  else {
    for (const [name, passed] of Object.entries(checks)) log(`  ${passed ? '✓' : '✗'} ${name}`);
    log(ok ? '✓ all waitlist load invariants hold' : '✗ some waitlist load invariants failed');
  }
  return ok;
}

main().then(
  (ok) => { cleanup(); process.exit(ok ? 0 : 1); },
  (error) => { process.stderr.write(`waitlist-load: ${error?.stack ?? error}\n`); cleanup(); process.exit(1); },
);
