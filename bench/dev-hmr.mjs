// bench/dev-hmr.mjs: hot updates of `sitegen dev` as a person sees them, called by bench/dev.mjs (or run
// alone: node bench/dev-hmr.mjs). Chromium (playwright-core, /usr/bin/chromium or $CHROME_PATH) has a page
// of the real site open against `sitegen dev` on a copy of the site (the repository's files are never
// edited); each sample is save → the edit applied in that page, timed in the page itself (Date.now() when
// a DOM mutation shows the edit; both clocks are the system clock). Four kinds of edit, HOT_EDITS times
// each (10) after 2 warm-ups: a stylesheet rule, a React island's markup (with text typed into it first,
// which must still be there: state kept), a Markdown page's body, and a layout component. Every sample
// must leave the page's window marker in place (no reload), or the run fails; the next save waits for the
// server's rebuild of the last one to end (its `rebuilt` event), as a person's next save would.
// HOT_KINDS=template,css runs only those kinds (all four by default).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EDITS = Number(process.env.HOT_EDITS ?? 10);
const WARMUP = 2;
const ONLY = process.env.HOT_KINDS ? new Set(process.env.HOT_KINDS.split(',')) : null;
const TIMEOUT_MS = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The targets of issue #31, ms from save to applied (medians). */
export const HOT_TARGETS = { css: 100, island: 300, content: 150, template: 300 };

/** A copy of the real site in a temp folder (content, templates, static, plugins, config), packages linked. */
function copySite() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-bench-hot-')));
  for (const f of ['sitegen.config.ts', 'package.json', 'tsconfig.json', 'content', 'templates', 'static', 'plugins']) {
    fs.cpSync(path.join(REPO, f), path.join(dir, f), { recursive: true });
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

function startDev(root) {
  const proc = spawn(process.execPath, [path.join(REPO, 'bin/sitegen.js'), 'dev', '--root', root, '--port', '0', '--no-backend'], { cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill(); reject(new Error(`dev server did not start:\n${out}`)); }, 120_000);
    const onData = (d) => {
      out += d;
      const m = out.match(/at (http:\/\/\S+?)\/?\s/);
      if (m) { clearTimeout(timer); resolve({ url: m[1], proc, output: () => out }); }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`dev server exited with ${code}:\n${out}`)); });
  });
}

/** Counts the server's `rebuilt` events (one per finished rebuild); `after(n)` resolves once more than n came. */
function rebuilds(url) {
  let count = 0;
  const waiters = [];
  const req = http.get(`${url}/__sitegen/events`, (res) => {
    res.setEncoding('utf8');
    let buf = '';
    res.on('data', (chunk) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        if (/^event: rebuilt$/m.test(buf.slice(0, i))) { count++; for (const w of waiters.splice(0)) if (count > w.n) w.resolve(); else waiters.push(w); }
        buf = buf.slice(i + 2);
      }
    });
  });
  return {
    get count() { return count; },
    after: (n) => (count > n ? Promise.resolve() : new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no rebuild within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
      waiters.push({ n, resolve: () => { clearTimeout(timer); resolve(); } });
    })),
    close: () => req.destroy(),
  };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

/**
 * The edits. `edit(text, mark)` returns the file's text with the mark in it; `applied(mark)` runs in the page
 * (as it is: the page's CSP allows no eval) and returns the page's clock once the page shows the edit. `prepare`/`check` set up and verify page state that must survive.
 */
const KINDS = [
  {
    kind: 'css', label: 'stylesheet edit (main.css)', route: '/', file: 'templates/styles/main.css',
    edit: (t, mark) => `${t}\n:root { --bench-mark: "${mark}"; }\n`,
    applied: (mark) => getComputedStyle(document.documentElement).getPropertyValue('--bench-mark').trim() === `"${mark}"` && Date.now(),
  },
  {
    kind: 'island', label: 'React island edit (DemoSimpleForm)', route: '/demo/form/simple/', file: 'templates/islands/DemoSimpleForm.tsx',
    edit: (t, mark) => t.replace('<RequiredNote text={p} />', `<RequiredNote text={p} /><span hidden data-bench="${mark}" />`),
    applied: (mark) => !!document.querySelector(`[data-bench="${mark}"]`) && Date.now(),
    prepare: async (page) => { await page.locator('sitegen-island[data-hydrated] input[type="text"]').first().fill('typed before the edit'); },
    check: async (page) => (await page.locator('sitegen-island input[type="text"]').first().inputValue()) === 'typed before the edit' || 'the island lost its state',
  },
  {
    kind: 'content', label: 'content edit (manifesto.md body)', route: '/manifesto/', file: 'content/pages/manifesto.md',
    edit: (t, mark) => `${t}\nEdited paragraph ${mark}.\n`,
    applied: (mark) => document.body.textContent.includes(`Edited paragraph ${mark}.`) && Date.now(),
  },
  {
    kind: 'template', label: 'template edit (Footer.tsx)', route: '/manifesto/', file: 'templates/components/Footer.tsx',
    edit: (t, mark) => t.replace('<span>© {year} {site.company}</span>', `<span>© {year} {site.company}</span><span hidden data-bench="${mark}" />`),
    applied: (mark) => !!document.querySelector(`[data-bench="${mark}"]`) && Date.now(),
  },
];

async function measureKind(browser, url, root, k, server) {
  const page = await browser.newPage();
  await page.goto(url + k.route);
  await page.locator('html[data-sitegen-dev="connected"]').waitFor({ state: 'attached', timeout: TIMEOUT_MS });
  if (await page.locator('sitegen-island').count()) await page.locator('sitegen-island[data-hydrated]').first().waitFor({ state: 'attached', timeout: TIMEOUT_MS });
  await page.evaluate(() => { window.__benchNotReloaded = true; });
  await k.prepare?.(page);
  const file = path.join(root, k.file);
  const original = fs.readFileSync(file, 'utf8');
  const samples = [];
  try {
    for (let i = -WARMUP; i < EDITS; i++) {
      const mark = `hot-${k.kind}-${i + WARMUP}-${Date.now().toString(36)}`;
      const text = k.edit(original, mark);
      if (text === original) throw new Error(`${k.label}: the edit changed nothing (has ${k.file} moved on?)`);
      // Checked every 5 ms in the page; the value is the page's clock when the check first passed.
      const done = page.waitForFunction(k.applied, mark, { polling: 5, timeout: TIMEOUT_MS }).then((h) => h.jsonValue());
      // Polling starts on the page before the file changes.
      await sleep(20);
      const rebuilt = server.count;
      const t0 = Date.now();
      fs.writeFileSync(file, text);
      const at = await done;
      // The next save only once this one's rebuild is over (a stylesheet or island edit shows before it).
      await server.after(rebuilt);
      if (!await page.evaluate(() => window.__benchNotReloaded === true)) throw new Error(`${k.label}: the page reloaded`);
      const ok = await (k.check?.(page) ?? true);
      if (ok !== true) throw new Error(`${k.label}: ${ok}`);
      if (i >= 0) samples.push(at - t0);
      await sleep(150); // apart from each other, as a person's saves are
    }
  } finally {
    // Restored, and rebuilt before the next kind starts.
    const restored = server.count;
    fs.writeFileSync(file, original);
    await server.after(restored).catch(() => {});
    await page.close();
  }
  return samples;
}

/** Runs the four kinds of edit; returns one row per kind with its median and whether it met its target. */
export async function hotBench() {
  const root = copySite();
  const dev = await startDev(root);
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'], headless: true });
  const server = rebuilds(dev.url);
  const rows = [];
  try {
    for (const k of KINDS) {
      if (ONLY && !ONLY.has(k.kind)) continue;
      const samples = await measureKind(browser, dev.url, root, k, server);
      rows.push({ kind: k.kind, edit: k.label, n: samples.length, medianMs: median(samples), minMs: Math.min(...samples), maxMs: Math.max(...samples), targetMs: HOT_TARGETS[k.kind], met: median(samples) <= HOT_TARGETS[k.kind] });
    }
  } catch (e) {
    process.stderr.write(`server output:\n${dev.output().slice(-4000)}\n`);
    throw e;
  } finally {
    server.close();
    await browser.close();
    dev.proc.kill('SIGTERM');
    await new Promise((r) => { if (dev.proc.exitCode !== null) r(); else dev.proc.once('exit', r); });
    fs.rmSync(root, { recursive: true, force: true });
  }
  const f = (n) => `${n.toFixed(0)} ms`.padStart(8);
  process.stdout.write('\n  hot update (real site, in Chromium)      n   median      min      max   target\n');
  for (const r of rows) process.stdout.write(`  ${r.edit.padEnd(38)} ${String(r.n).padStart(3)} ${f(r.medianMs)} ${f(r.minMs)} ${f(r.maxMs)}   ≤ ${r.targetMs} ms  ${r.met ? 'met' : 'NOT MET'}\n`);
  process.stdout.write(`  (save → the edit applied in the open page, no reload; load average now ${os.loadavg()[0].toFixed(2)})\n`);
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  hotBench().catch((e) => { process.stderr.write(`${e?.stack ?? e}\n`); process.exit(1); });
}
