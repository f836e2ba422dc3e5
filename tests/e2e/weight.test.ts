// Page weight: what the built site makes a visitor download before they interact. The home page loads
// ≤ 65 KB gzip of JavaScript (measured in Chromium and in the build's own report) and supabase-js only once
// the visitor reaches for the form; every page's CSS is ≤ 15 KB gzip; no page's <head> waits on another
// origin; a page without islands ships no JavaScript at all (the fixture site: every real page has the
// header's islands).
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { readBodies } from '../helpers/responseBodies.ts';
import { REPO, fixture, sitegen } from '../helpers/cli.ts';
import type { PageReport } from '../../src/core/types.ts';

const base = inject('baseUrl');
const dist = inject('distDir');
const KB = 1024;
const HOME_JS_BUDGET = 65 * KB;
const CSS_BUDGET = 15 * KB;

let browser: Browser;
let tmp: string;
beforeAll(async () => {
  browser = await launchBrowser();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-weight-'));
});
afterAll(async () => {
  await browser?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const gzipBytes = (b: Uint8Array) => gzipSync(b).length;
const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;

/** Every page of dist/ (alias pages, which only redirect, left out), as URL path → HTML. */
function distPages(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, f.name);
      if (f.isDirectory()) { if (f.name !== 'assets') walk(p); continue; }
      if (!f.name.endsWith('.html')) continue;
      const html = fs.readFileSync(p, 'utf8');
      if (html.includes('http-equiv="refresh"')) continue;
      const rel = path.relative(dist, p).split(path.sep).join('/');
      out.set(rel === 'index.html' ? '/' : '/' + rel.replace(/index\.html$/, ''), html);
    }
  };
  walk(dist);
  return out;
}

const head = (html: string) => html.match(/<head>([\s\S]*?)<\/head>/)?.[1] ?? '';
const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
const tags = (html: string, name: string) => html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? [];

/** The dist/assets file holding supabase-js (loaded by the waitlist code with import()). */
function supabaseChunk(): string {
  const dir = path.join(dist, 'assets');
  const hits = fs.readdirSync(dir).filter((f) => f.endsWith('.js') && fs.readFileSync(path.join(dir, f), 'utf8').includes('supabase-js'));
  expect(hits).toHaveLength(1);
  return `/assets/${hits[0]}`;
}

/** Records every JavaScript response of a page: URL path → gzip size of its body. */
function recordScripts(page: Page) {
  const reads = readBodies(page, (r) => r.request().resourceType() === 'script', gzipBytes);
  return {
    urls: () => reads.paths(),
    gzipTotal: async () => [...(await reads.settled()).values()].reduce((s, n) => s + n, 0),
  };
}

describe('the home page', () => {
  it('loads ≤ 65 KB gzip of JavaScript before interaction, without supabase-js, which comes on focus', async () => {
    const supabase = supabaseChunk();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    // Offline logo CDN: third-party requests end at once instead of waiting on a network this machine lacks.
    await page.route((url) => url.origin !== base, (route) => route.abort());
    const scripts = recordScripts(page);
    await page.goto(base + '/');
    // The hero form (load) and the headline (idle) are enhanced; the page is quiet.
    await page.locator('sitegen-island[data-island="WaitlistForm"][data-hydrated]').first().waitFor({ state: 'attached' });
    await page.locator('sitegen-island[data-island="RotatingWord"][data-hydrated]').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    const atLoad = await scripts.gzipTotal();
    expect(atLoad, `JS at load: ${kb(atLoad)}`).toBeLessThanOrEqual(HOME_JS_BUDGET);
    expect(scripts.urls()).not.toContain(supabase);

    // Scrolling to the end (no pointer, no focus) brings in the "visible" islands: the closing form and the
    // marquees. That is everything the page can load before the visitor touches a form.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const total = await page.locator('sitegen-island').count();
    await expect.poll(() => page.locator('sitegen-island[data-hydrated]').count()).toBe(total);
    await page.waitForLoadState('networkidle');
    const all = await scripts.gzipTotal();
    expect(all, `JS with every island: ${kb(all)}`).toBeLessThanOrEqual(HOME_JS_BUDGET);
    expect(scripts.urls()).not.toContain(supabase);
    // No React: every island on the home page is an enhancement island.
    expect(scripts.urls().some((u) => /react/i.test(u))).toBe(false);

    await page.locator('form.waitlist input[type="email"]').first().focus();
    await expect.poll(() => scripts.urls()).toContain(supabase);
    await ctx.close();
  });

  it("the build's report agrees: home ≤ 65 KB gzip, and so is every page with the waitlist form", () => {
    // What `sitegen build --json` printed for the build these tests serve (the suite's global setup).
    const reports: PageReport[] = JSON.parse(fs.readFileSync(inject('buildReport'), 'utf8')).pageReports;
    const home = reports.find((p) => p.path === '/');
    expect(home).toBeTruthy();
    expect(home!.jsGzipBytes, `home: ${kb(home!.jsGzipBytes)}`).toBeLessThanOrEqual(HOME_JS_BUDGET);
    expect(home!.islands).toEqual(expect.arrayContaining(['WaitlistForm', 'RotatingWord']));
    const withForm = reports.filter((p) => p.islands.includes('WaitlistForm'));
    expect(withForm.length).toBeGreaterThan(45); // home, for-consumers, 3 areas, 45 sectors
    for (const p of withForm) expect(p.jsGzipBytes, p.path).toBeLessThanOrEqual(HOME_JS_BUDGET);
    // Pages whose islands are all enhancement islands (Name.client.ts) never load React.
    const enhancementOnly = reports.filter((p) => p.islands.every((n) => fs.existsSync(path.join(REPO, 'templates/islands', `${n}.client.ts`))));
    expect(enhancementOnly.map((p) => p.path)).toEqual(expect.arrayContaining(['/', '/faqs/', '/for-consumers/']));
    for (const p of enhancementOnly) expect(p.jsGzipBytes, p.path).toBeLessThan(10 * KB);
  });
});

describe('every page', () => {
  it('ships ≤ 15 KB gzip of CSS', () => {
    const pages = distPages();
    expect(pages.size).toBeGreaterThanOrEqual(68);
    for (const [route, html] of pages) {
      const sheets = tags(head(html), 'link').filter((t) => attr(t, 'rel') === 'stylesheet').map((t) => attr(t, 'href')!);
      const bytes = sheets.reduce((s, href) => s + gzipBytes(fs.readFileSync(path.join(dist, href))), 0);
      expect(bytes, `${route}: ${kb(bytes)} of CSS`).toBeLessThanOrEqual(CSS_BUDGET);
    }
  });

  it('has nothing render-blocking from another origin: head scripts are same-origin modules, stylesheets local', () => {
    const local = (url: string | undefined) => !!url && url.startsWith('/') && !url.startsWith('//');
    for (const [route, html] of distPages()) {
      const h = head(html);
      for (const s of tags(h, 'script')) {
        expect(attr(s, 'type'), `${route}: ${s}`).toBe('module'); // deferred: never blocks rendering
        expect(local(attr(s, 'src')), `${route}: ${s}`).toBe(true);
      }
      for (const l of tags(h, 'link').filter((t) => ['stylesheet', 'modulepreload', 'preload'].includes(attr(t, 'rel') ?? ''))) {
        expect(local(attr(l, 'href')), `${route}: ${l}`).toBe(true);
      }
    }
    // Nor does a stylesheet pull from another origin (@import or a font).
    for (const f of fs.readdirSync(path.join(dist, 'assets')).filter((n) => n.endsWith('.css'))) {
      expect(fs.readFileSync(path.join(dist, 'assets', f), 'utf8'), f).not.toMatch(/@import\s+(url\()?["']?(https?:)?\/\/|url\(["']?(https?:)?\/\//);
    }
  });

  it('the home page requests no script, stylesheet or font from another origin while loading', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== base && ['script', 'stylesheet', 'font'].includes(r.resourceType())) foreign.push(r.url());
    });
    await page.route((url) => url.origin !== base, (route) => route.abort());
    await page.goto(base + '/', { waitUntil: 'load' });
    expect(foreign).toEqual([]);
    await page.close();
  });
});

describe('a page without islands', () => {
  it('ships 0 bytes of JavaScript (fixture site: every page of the real site has the header islands)', () => {
    const out = path.join(tmp, 'fixture');
    const r = sitegen(['build', '--root', fixture('basic'), '--json', '--quiet', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const reports: PageReport[] = JSON.parse(r.stdout).pageReports;
    const bare = reports.filter((p) => p.islands.length === 0);
    expect(bare.map((p) => p.path)).toContain('/items/alpha/');
    for (const p of bare) {
      expect(p.jsGzipBytes, p.path).toBe(0);
      const html = fs.readFileSync(path.join(out, p.output), 'utf8');
      expect(html, p.path).not.toMatch(/<script\b|rel="modulepreload"/);
    }
  });
});
