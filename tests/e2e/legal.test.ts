// The legal pages in real Chromium, on the site built and served by the e2e global setup: every route
// (status, title, one h1, description, axe, html-validate), the /legal index, the refund policy's sections
// and facts, the UAE PDPL language toggle, the five policies as readable pages, and the optional policy
// host's embed loader under Playwright's fake clock: that part runs on a second build made with POLICY_HOST
// set (the default build has no host), with the third-party host faked by page.route. Facts come from SPEC.md, written here independently of
// content/ and site.yaml, so a content edit that breaks one fails a test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeOf } from '../helpers/axe.ts';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';
import { filePage } from '../helpers/filePage.ts';
import { REPO, sitegen, startServer } from '../helpers/cli.ts';

const siteUrl = inject('baseUrl');
/** The server the current test talks to: the default build, or the POLICY_HOST build in 'policy embed'. */
let baseUrl = siteUrl;
const distDir = inject('distDir');
const EMBEDDED = ['terms', 'privacy', 'cookies', 'app-privacy', 'acceptable-use'];
const LEGAL_ROUTES = ['/legal/', '/refund-policy/', '/uae-pdpl/', ...EMBEDDED.map((id) => `/${id}/`)];
// SPEC section 9: loader 10 s to 90 %, poll 200 ms, timeout 15 s, then 2 % steps every 20 ms.
const LOADER_MS = 10_000, TIMEOUT_MS = 15_000, CAP = 90;
const HOST = 'https://policies.example.com';
const ARABIC = /[\u0600-\u06FF]/;

let browser: Browser;
// The tests that only load and read pages of the default build take turns on one page (tests/helpers/filePage.ts).
const shared = filePage(() => browser);
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await shared.close(); await browser?.close(); });

async function newContext(): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 900 } });
}

/** Host script that renders the document into the embed container after `delayMs`, as a real host would. */
const renderingScript = (delayMs: number) => `setTimeout(() => {
  const box = document.querySelector('[data-policy-embed]');
  const h = document.createElement('h2'); h.textContent = 'Hosted document ' + box.dataset.id + ' ' + box.dataset.lang;
  box.append(h);
}, ${delayMs});`;

type HostReply = { script: string } | { status: number };
/**
 * Fakes the policy host for this context and records the script requests. A script it serves marks the window
 * as it runs (hostScriptRan), so a test can wait for the script's timers to exist before moving the paused clock.
 */
async function fakeHost(context: BrowserContext, reply: HostReply): Promise<string[]> {
  const requested: string[] = [];
  await context.route(`${HOST}/**`, (route) => {
    requested.push(route.request().url());
    return 'script' in reply ? route.fulfill({ status: 200, contentType: 'text/javascript', body: `window.__hostScriptRan = true;\n${reply.script}` }) : route.fulfill({ status: reply.status, body: 'not found' });
  });
  return requested;
}

/** Opens a page with the clock installed and paused, so every timer runs only when the test says. */
async function openPaused(context: BrowserContext, route: string) {
  const page = await context.newPage();
  const problems = watchProblems(page);
  // Remembers whether the overlay was ever in the DOM, even between two checks.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(() => { if (document.querySelector('.policy-embed__overlay')) (window as any).__sawOverlay = true; })
        .observe(document.body, { childList: true, subtree: true });
    });
  });
  await page.clock.install({ time: new Date('2025-09-01T09:00:00Z') });
  await page.clock.pauseAt(new Date('2025-09-01T09:00:01Z'));
  const res = await page.goto(baseUrl + route);
  expect(res?.status()).toBe(200);
  await page.locator('sitegen-island[data-island="PolicyEmbed"][data-hydrated]').waitFor({ state: 'attached' });
  await expect.poll(() => page.locator('.policy-embed').getAttribute('data-phase')).not.toBe('static');
  return { page, problems };
}

const directive = (csp: string, name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(name + ' '));
const overlay = (page: Page) => page.locator('.policy-embed__overlay');
const progress = (page: Page) => page.getByRole('progressbar').evaluate((el) => (el as HTMLProgressElement).value);
const storage = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('policy-storage') ?? 'null'));
const sawOverlay = (page: Page) => page.evaluate(() => (window as any).__sawOverlay === true);
/** Waits, in real time, until the fake host's script has run: its timer only exists from then on. */
const hostScriptRan = (page: Page) => expect.poll(() => page.evaluate(() => (window as any).__hostScriptRan === true)).toBe(true);

describe('legal routes', () => {
  it('answer 200 with a title, one h1, a 50-160 character description and no serious axe violations', async () => {
    // One page loads each route in turn (a new document each time; a new page would cost a renderer's start).
    const page = await shared.open();
    const problems = watchProblems(page);
    for (const route of LEGAL_ROUTES) {
      const res = await page.goto(baseUrl + route);
      expect(res?.status(), route).toBe(200);
      expect(await page.title(), route).toMatch(/\S+ \| Greatness Gathered\.$/);
      const description = (await page.locator('meta[name="description"]').getAttribute('content')) ?? '';
      expect(description.length, `${route} description`).toBeGreaterThanOrEqual(50);
      expect(description.length, `${route} description`).toBeLessThanOrEqual(160);
      await expect.poll(() => page.locator('sitegen-island:not([data-hydrated])').count(), { message: route }).toBe(0);
      expect(await page.locator('h1').count(), route).toBe(1);
      const axe = await axeOf(page).analyze();
      const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious, route).toEqual([]);
      expect(problems.errors, route).toEqual([]);
      expect(problems.console, route).toEqual([]);
    }
  });

  it('pass html-validate', async () => {
    // The project's .htmlvalidate.json, given by name: the site is built in a temp folder, where a search
    // from the file would find no configuration and check nothing.
    const validator = new HtmlValidate(new FileSystemConfigLoader(JSON.parse(fs.readFileSync(path.join(REPO, '.htmlvalidate.json'), 'utf8'))));
    for (const route of LEGAL_ROUTES) {
      const report = await validator.validateFile(path.join(distDir, route, 'index.html'));
      const messages = report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`));
      expect(messages, route).toEqual([]);
    }
  });

  it('send the strict CSP: with no policy host configured, no legal page allows a third-party script or frame', async () => {
    for (const route of LEGAL_ROUTES) {
      const csp = (await fetch(baseUrl + route)).headers.get('content-security-policy') ?? '';
      expect(directive(csp, 'script-src'), route).toBe("script-src 'self'");
      expect(directive(csp, 'frame-src'), route).toBe("frame-src 'none'");
      expect(directive(csp, 'style-src'), route).toBe("style-src 'self'");
    }
  });
});

describe('/legal', () => {
  it('links every policy, each with a summary', async () => {
    const page = await shared.open();
    await page.goto(baseUrl + '/legal/');
    const cards = page.locator('main .legal-index__item');
    const hrefs = await cards.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.sort()).toEqual(['/acceptable-use/', '/app-privacy/', '/cookies/', '/privacy/', '/refund-policy/', '/terms/', '/uae-pdpl/']);
    for (const text of await cards.locator('p').allTextContents()) expect(text.length).toBeGreaterThan(80);
    expect(await page.locator('main').textContent()).not.toMatch(/\{[a-zA-Z]+\}/); // every placeholder filled
  });
});

describe('/refund-policy', () => {
  it('has 12 numbered sections, section 9 Key Terms, the effective date, Delaware law and the subscription rules', async () => {
    const page = await shared.open();
    await page.goto(baseUrl + '/refund-policy/');
    const headings = await page.locator('main .legal-section > h2').allTextContents();
    expect(headings).toHaveLength(12);
    headings.forEach((h, i) => expect(h).toMatch(new RegExp(`^${i + 1}\\. \\S`)));
    expect(headings[8]).toBe('9. Key Terms');
    expect(await page.locator('#section-9 dt').count()).toBeGreaterThanOrEqual(3);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('August 14, 2025');
    expect(text).toContain('Delaware');
    expect(text).toMatch(/all sales are final/i);
    expect(text).toMatch(/renew automatically/i);
    expect(text).toMatch(/end of your current Billing Cycle/);
    expect(text).toMatch(/Chargeback[^.]*immediately suspend or terminate/);
    expect(text).not.toMatch(/\{[a-zA-Z]+\}/);
    expect(await page.locator('main a[href^="#section-"]').count()).toBe(12);
  });
});

describe('/uae-pdpl', () => {
  const doc = (page: Page) => page.locator('article.pdpl');
  const toggle = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

  it('is English in the server HTML', async () => {
    const html = await (await fetch(baseUrl + '/uae-pdpl/')).text();
    expect(html).toMatch(/<article class="pdpl" lang="en" dir="ltr">/);
    expect(html).toMatch(/<h1[^>]*>UAE PDPL Compliance Statement<\/h1>/);
  });

  it('states version 1.0, ten sections, the status panel and the SPEC figures', async () => {
    const page = await shared.open();
    await page.goto(baseUrl + '/uae-pdpl/');
    expect(await page.locator('main .legal-section > h2').count()).toBe(10);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('1.0');
    expect(text).toContain('30 calendar days');
    expect(text).toContain('72 hours');
    expect(text).toContain('AES-256');
    expect(text).toContain('TLS 1.3');
    await expect(page.locator('.pdpl-status__item', { hasText: 'Security certifications' }).textContent()).resolves.toContain('In progress');
    await expect(page.locator('main a[href="mailto:privacy@greatnessgathered.com"]').count()).resolves.toBeGreaterThan(0);
  });

  it('toggles to Arabic (rtl, mirrored, ?lang=ar), starts in Arabic from the URL, and back to English', async () => {
    const context = await newContext(); // axe needs a page of its own context
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(baseUrl + '/uae-pdpl/');
    await page.locator('sitegen-island[data-island="PdplDocument"][data-hydrated]').waitFor({ state: 'attached' });
    await expect(toggle(page, 'English').getAttribute('aria-pressed')).resolves.toBe('true');
    const tocX = () => page.locator('.legal-toc').evaluate((el) => el.getBoundingClientRect().left);
    const ltrToc = await tocX();

    await toggle(page, 'العربية').click();
    await expect.poll(() => doc(page).getAttribute('lang')).toBe('ar');
    await expect(doc(page).getAttribute('dir')).resolves.toBe('rtl');
    expect(new URL(page.url()).searchParams.get('lang')).toBe('ar');
    await expect(toggle(page, 'العربية').getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(toggle(page, 'English').getAttribute('aria-pressed')).resolves.toBe('false');
    expect(await page.locator('h1').textContent()).toMatch(ARABIC);
    expect(await page.locator('main .legal-section > h2').count()).toBe(10);
    for (const p of await page.locator('main .legal-section p').allTextContents()) expect(p).toMatch(ARABIC);
    expect(await tocX()).toBeGreaterThan(ltrToc + 400); // the contents column moved to the other side

    await page.reload();
    await page.locator('sitegen-island[data-island="PdplDocument"][data-hydrated]').waitFor({ state: 'attached' });
    await expect.poll(() => doc(page).getAttribute('dir')).toBe('rtl');
    expect(await page.locator('h1').textContent()).toMatch(ARABIC);
    const axe = await axeOf(page).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    await toggle(page, 'English').click();
    await expect.poll(() => doc(page).getAttribute('lang')).toBe('en');
    await expect(doc(page).getAttribute('dir')).resolves.toBe('ltr');
    expect(new URL(page.url()).searchParams.has('lang')).toBe(false);
    expect(await page.locator('h1').textContent()).toBe('UAE PDPL Compliance Statement');
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await context.close();
  });
});

describe('policy embed (a build with POLICY_HOST set)', () => {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let outDir = '';
  beforeAll(async () => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-policy-host-'));
    const b = sitegen(['build', '--quiet', '--out', path.join(outDir, 'dist')], { env: { POLICY_HOST: HOST } });
    if (b.code !== 0) throw new Error(`build with POLICY_HOST failed:\n${b.stderr}`);
    server = await startServer(['preview', '--port', '0', '--no-backend', '--out', path.join(outDir, 'dist')]);
    baseUrl = server.url;
  }, 120_000);
  afterAll(async () => {
    baseUrl = siteUrl;
    await server?.stop();
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('allows the host for scripts and frames on the five policy pages only', async () => {
    for (const id of EMBEDDED) {
      const csp = (await fetch(`${baseUrl}/${id}/`)).headers.get('content-security-policy') ?? '';
      expect(directive(csp, 'script-src'), id).toBe(`script-src 'self' ${HOST}`);
      expect(directive(csp, 'frame-src'), id).toBe(`frame-src ${HOST}`);
      expect(directive(csp, 'style-src'), id).toBe("style-src 'self'");
    }
    for (const route of ['/', '/legal/', '/faqs/', '/for-consumers/online/saas/']) {
      const csp = (await fetch(baseUrl + route)).headers.get('content-security-policy') ?? '';
      expect(csp, route).not.toContain(HOST);
    }
  });

  it('runs the loader to 90 % at 10 s (not before), then steps 2 % per 20 ms to 100 once content is there, and records the policy', async () => {
    const context = await newContext();
    const requested = await fakeHost(context, { script: renderingScript(10_500) });
    const { page, problems } = await openPaused(context, '/terms/');
    await overlay(page).waitFor({ state: 'visible' });
    expect(await progress(page)).toBe(0);
    expect(requested).toEqual([`${HOST}/embed.js`]);
    await expect(page.locator(`script[src="${HOST}/embed.js"]`).evaluate((s) => [s.dataset.id, s.dataset.lang])).resolves.toEqual(['terms', 'en-us']);
    await hostScriptRan(page);

    await page.clock.runFor(LOADER_MS / 2);
    expect(await progress(page)).toBe(CAP / 2);
    await page.clock.runFor(LOADER_MS / 2 - 200);
    expect(await progress(page)).toBeLessThan(CAP);
    await page.clock.runFor(200);
    expect(await progress(page)).toBe(CAP);
    await page.clock.runFor(400); // 10.4 s: capped, still waiting for the document
    expect(await progress(page)).toBe(CAP);
    expect(await overlay(page).isVisible()).toBe(true);

    await page.clock.runFor(240); // content at 10.5 s, seen by the 10.6 s poll, two 20 ms steps
    expect(await progress(page)).toBe(CAP + 4);
    expect(await overlay(page).isVisible()).toBe(true);
    await page.clock.runFor(100);
    expect(await overlay(page).count()).toBe(0);
    expect(await page.locator('[data-policy-embed] h2').textContent()).toBe('Hosted document terms en-us');
    expect(await storage(page)).toEqual({ scriptLoaded: true, loaded: ['terms'] });
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);

    // Second visit: the policy is known, so the document loads without the overlay ever appearing.
    const again = await openPaused(context, '/terms/');
    await hostScriptRan(again.page); // before this, the clock could pass 10.5 s before the document's timer is set
    await again.page.clock.runFor(LOADER_MS + 1_000);
    expect(await again.page.locator('[data-policy-embed] h2').count()).toBe(1);
    expect(await sawOverlay(again.page)).toBe(false);
    expect(await sawOverlay(page)).toBe(true);
    await context.close();
  });

  it('forces ready at 15 s when the document never appears, and offers the hosted copy', async () => {
    const context = await newContext();
    await fakeHost(context, { script: '/* loads, renders nothing */' });
    const { page, problems } = await openPaused(context, '/privacy/');
    await hostScriptRan(page); // its load is what the storage check below records
    await page.clock.runFor(TIMEOUT_MS - 200);
    expect(await overlay(page).isVisible()).toBe(true);
    expect(await progress(page)).toBe(CAP);
    await page.clock.runFor(200 + 5 * 20);
    expect(await overlay(page).count()).toBe(0);
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('link').getAttribute('href')).resolves.toBe(`${HOST}/documents/privacy?lang=en-us`);
    // The script loaded, but a document never seen is not recorded: the next visit shows the loader again.
    expect(await storage(page)).toEqual({ scriptLoaded: true, loaded: [] });
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('stops the overlay and shows the fallback link when the script is blocked', async () => {
    const context = await newContext();
    await fakeHost(context, { status: 404 });
    const { page, problems } = await openPaused(context, '/cookies/');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await overlay(page).count()).toBe(0);
    await expect(alert.getByRole('link').getAttribute('href')).resolves.toBe(`${HOST}/documents/cookies?lang=en-us`);
    expect(await alert.getByRole('link').isVisible()).toBe(true);
    await page.clock.runFor(TIMEOUT_MS + 1_000); // nothing comes back later
    expect(await overlay(page).count()).toBe(0);
    expect(await storage(page)).toEqual({ scriptLoaded: false, loaded: [] });
    expect(problems.errors).toEqual([]);
    // The only console error is the deliberately failed script request.
    expect(problems.console).toEqual([expect.stringMatching(/Failed to load resource: .*404/)]);
    await context.close();
  });

  it('serves a usable page without JavaScript: no overlay, no empty frame, a link to the hosted document', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(baseUrl + '/acceptable-use/');
    expect(await overlay(page).count()).toBe(0);
    expect(await page.locator('.policy-embed__frame').isVisible()).toBe(false);
    const link = page.locator('.policy-embed__fallback a');
    await expect(link.getAttribute('href')).resolves.toBe(`${HOST}/documents/acceptable-use?lang=en-us`);
    expect(await link.isVisible()).toBe(true);
    await context.close();
  });
});
