// The documentation site (docs/), built by sitegen under a base path as GitHub Pages serves it, and run by
// `sitegen preview`: every page is valid HTML with no serious or critical axe violation and no console error,
// links between the Markdown files became page URLs under the base, and searching for a word finds its page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeOf } from '../helpers/axe.ts';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { REPO, sitegen, startServer } from '../helpers/cli.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';
import { filePage } from '../helpers/filePage.ts';

const ROOT = path.join(REPO, 'docs');
// Built into a temporary folder: the repository's docs/dist is left as it was.
const OUT = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-e2e-docs-'));
const DIST = path.join(OUT, 'dist');
const BASE = '/sitegen/';
let server: Awaited<ReturnType<typeof startServer>>;
let site: string;
let browser: Browser;
let pages: string[];
// The tests that load and read pages take turns on one page (tests/helpers/filePage.ts).
const shared = filePage(() => browser);

beforeAll(async () => {
  const env = { ...process.env, DOCS_BASE: BASE, SITE_URL: 'https://docs.example' };
  const b = sitegen(['build', '--root', ROOT, '--quiet', '--out', DIST], { env });
  if (b.code !== 0) throw new Error(b.stderr + b.stdout);
  server = await startServer(['preview', '--root', ROOT, '--port', '0', '--no-backend', '--out', DIST], { env });
  site = new URL(BASE, server.url).href;
  browser = await launchBrowser();
  pages = fs.readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html')).sort();
}, 60_000);

afterAll(async () => {
  await shared.close();
  await browser?.close();
  await server?.stop();
  fs.rmSync(OUT, { recursive: true, force: true });
});

describe('the documentation site', () => {
  it('has a page for every topic and an error reference with every id of the catalogue', async () => {
    expect(pages).toEqual(expect.arrayContaining(['index.html', 'getting-started/index.html', 'markdown/index.html', 'errors/reference/index.html', '404.html']));
    const { errorCatalogue } = await import('../../src/public.ts');
    const reference = fs.readFileSync(path.join(DIST, 'errors/reference/index.html'), 'utf8');
    for (const id of Object.keys(errorCatalogue)) expect(reference, id).toContain(`id="${id}"`);
  });

  it('is valid HTML on every page', async () => {
    const validator = new HtmlValidate(new FileSystemConfigLoader());
    for (const rel of pages) {
      const report = await validator.validateString(fs.readFileSync(path.join(DIST, rel), 'utf8'), rel);
      expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`)), rel).toEqual([]);
    }
  });

  // Every page at 1280 px; at 375 px the page types (home, a Markdown page with tables and code, the reference).
  // One test per width: together they took 106 s of a 120 s limit on a busy machine, and the page-by-page
  // run at 1280 px alone took 120 s in `npm test` at a load of 20 (the unit suite beside it): 240 s each.
  it.each([375, 1280])('passes axe with no serious or critical violation and logs no error, at %i px', async (width) => {
    const phone = ['index.html', 'markdown/index.html', 'errors/reference/index.html'];
    // One page loads every route in turn (a new page costs a renderer's start, several times a load); each
    // load starts a new document, and the problems are those logged since the previous route's check.
    const page = await shared.open({ width, height: 900 });
    const problems = watchProblems(page);
    for (const rel of pages.filter((p) => p !== '404.html' && (width > 375 || phone.includes(p)))) {
      const url = new URL(rel.replace(/index\.html$/, ''), site).href;
      expect((await page.goto(url))?.status(), url).toBe(200);
      const axe = await axeOf(page).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), `${url} at ${width}`).toEqual([]);
      expect(problems, url).toEqual({ console: [], errors: [] });
    }
  }, 240_000);

  it('turns links between the Markdown files into page URLs under the base', async () => {
    const html = fs.readFileSync(path.join(DIST, 'configuration/index.html'), 'utf8');
    expect(html).toContain(`href="../outputs/"`);
    expect(html).not.toMatch(/href="[a-z-]+\.md/);
  });

  it('lists a page\'s sections on the page, each link reaching its heading', async () => {
    const page = await shared.open({ width: 375, height: 800 });
    await page.goto(new URL('authoring/', site).href);
    const contents = page.getByRole('navigation', { name: 'On this page' });
    const links = contents.getByRole('link');
    expect(await links.count()).toBeGreaterThanOrEqual(3);
    await contents.getByRole('link', { name: 'Drafts' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#drafts');
    const top = await page.getByRole('heading', { level: 2, name: /^Drafts/ }).evaluate((h) => h.getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(40);
    // The page's own text starts right under the site's navigation at 375 px: the sidebar is one row.
    const navHeight = await page.getByRole('navigation', { name: 'Documentation' }).evaluate((n) => n.getBoundingClientRect().height);
    expect(navHeight).toBeLessThan(80);
  });

  it.each([375, 1280])('keeps the option names of a three-column table whole, at %i px', async (width) => {
    const page = await shared.open({ width, height: 800 });
    await page.goto(new URL('cli/', site).href);
    // Each name in a first cell (`-r, --root <dir>`, `--no-cache`) is one line of text, not a letter per line.
    const lines = await page.locator('.doc table td:first-child code').evaluateAll((codes) => codes.map((c) => [c.textContent, c.getClientRects().length]));
    expect(lines.length).toBeGreaterThan(10);
    for (const [name, count] of lines) expect(count, String(name)).toBe(1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('keeps each word of a table header whole (the images page\'s "attribute" over a column of short names)', async () => {
    const page = await shared.open({ width: 1280, height: 800 });
    await page.goto(new URL('images/', site).href);
    const headers = await page.locator('.doc table th').evaluateAll((ths) => ths.map((th) => {
      const r = document.createRange(); r.selectNodeContents(th);
      return [th.textContent!.trim(), r.getClientRects().length, th.textContent!.trim().split(/\s+/).length] as const;
    }));
    expect(headers.length).toBeGreaterThan(3);
    for (const [text, lines, words] of headers) expect(lines, text).toBeLessThanOrEqual(words);
  });

  it('finds a page by a word of its text, under the default CSP, and goes there', async () => {
    const page = await shared.open();
    const problems = watchProblems(page);
    const res = await page.goto(site);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    const box = page.getByRole('searchbox', { name: 'Search the documentation' });
    await box.fill('footnotes');
    const result = page.locator('.search-results a', { hasText: 'Markdown' });
    await expect.poll(() => result.count()).toBe(1);
    await result.click();
    await page.waitForURL(`${site}markdown/`);
    await box.fill('zzzz-no-such-word');
    await expect.poll(() => page.locator('#search-status').textContent()).toBe('No page found');
    expect(problems).toEqual({ console: [], errors: [] });
  });

  it('shows no search box without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(site);
    await expect.poll(() => page.getByRole('searchbox').count()).toBe(0);
    await context.close();
  });
});
