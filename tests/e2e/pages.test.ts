// Pages as a visitor sees them, in Chromium on the site the e2e global setup built and serves: the five
// policies readable as our own pages with every third party cut off, the strict CSP on home, card lists
// without stray markers, card grids without lopsided rows, and the smaller layout promises (stats 2×2
// on phones, the footer at the bottom of short pages, a form where the manifesto says the waitlist is open).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';

const base = inject('baseUrl');
const POLICIES = ['/privacy/', '/terms/', '/cookies/', '/app-privacy/', '/acceptable-use/'];
let browser: Browser;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

/** A page whose every request to another origin is aborted, as with a strict blocker or no network. */
async function sameOriginOnly(width = 1280, height = 900): Promise<{ page: Page; blocked: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const origin = new URL(base).origin;
  const blocked: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || new URL(url).origin === origin) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  return { page, blocked };
}

describe('policies', () => {
  it('each policy page shows its own text, an h1 and numbered sections, with every third-party request blocked', async () => {
    const { page, blocked } = await sameOriginOnly();
    const problems = watchProblems(page);
    for (const route of POLICIES) {
      expect((await page.goto(base + route))?.status(), route).toBe(200);
      await expect(page.locator('h1').count(), route).resolves.toBe(1);
      const sections = page.locator('main .legal-section h2');
      expect(await sections.count(), route).toBeGreaterThanOrEqual(5);
      const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
      expect(text.length, `${route} text length`).toBeGreaterThan(1200);
      expect(await page.getByRole('alert').count(), route).toBe(0);
      // Every contents link leads to a section on the page.
      const targets = await page.locator('.legal-toc a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).hash));
      expect(targets.length, route).toBe(await sections.count());
      for (const t of targets) expect(await page.locator(t).count(), `${route} ${t}`).toBe(1);
    }
    expect(blocked).toEqual([]);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('the privacy policy states the facts of the spec and what the waitlist really stores', async () => {
    const text = await (await fetch(base + '/privacy/')).text();
    for (const fact of ['AES-256', 'TLS 1.3', '72 hours', '30 calendar days', 'utm_source', 'user-agent', 'referring page', 'Supabase', 'privacy@greatnessgathered.com']) {
      expect(text, fact).toContain(fact);
    }
    const cookies = await (await fetch(base + '/cookies/')).text();
    for (const fact of ['sets no cookies', 'Session storage', 'policy-storage']) expect(cookies, fact).toContain(fact);
    const terms = await (await fetch(base + '/terms/')).text();
    for (const fact of ['Delaware', '2-3 business days', '7-14 business days']) expect(terms, fact).toContain(fact);
  });
});

describe('content security policy', () => {
  it("home's script, frame, style, font and connect sources name no third-party origin", async () => {
    const csp = (await fetch(base + '/')).headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    // img-src belongs to the logo strip's own issue; every other directive must be self-only.
    for (const name of ['script-src', 'frame-src', 'style-src', 'font-src', 'connect-src', 'default-src']) {
      const thirdParty = (directives[name] ?? []).filter((s: string) => /^https?:/.test(s));
      expect(thirdParty, name).toEqual([]);
    }
  });
});
