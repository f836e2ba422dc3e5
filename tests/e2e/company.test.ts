// The company pages in Chromium: /faqs, /support, /careers, /investors, /for-accelerators,
// /for-venture-studios, /manifesto. Each renders cleanly (200, title, one h1, ordered headings, no console
// errors); the FAQ accordion behaves as SPEC section 4 says, passes axe with an answer open and stays readable
// without JavaScript; mail links and response times match content/site.yaml and the spec's constants. Axe on
// each page as it loads is site.test.ts's (its route checks, tests/e2e/siteRoutes.ts), on the same state.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { Browser, Page } from 'playwright-core';
import { axeOf } from '../helpers/axe.ts';
import { launchTokens } from '../../templates/lib/launch.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';
import { filePage } from '../helpers/filePage.ts';
import { REPO } from '../helpers/cli.ts';

const base = inject('baseUrl');
const site = parse(fs.readFileSync(path.join(REPO, 'content/site.yaml'), 'utf8'));
const faqs = parse(fs.readFileSync(path.join(REPO, 'content/pages/faqs.yaml'), 'utf8'));

/** Route → expected <title> and the site.yaml address its mail links must use (none for /faqs, /manifesto). */
const PAGES: { route: string; title: string; email?: string }[] = [
  { route: '/faqs/', title: 'Frequently Asked Questions' },
  { route: '/support/', title: 'Support', email: site.emails.support },
  { route: '/careers/', title: 'Careers', email: site.emails.careers },
  { route: '/investors/', title: 'Investors', email: site.emails.investors },
  { route: '/for-accelerators/', title: 'For Accelerators', email: site.emails.info },
  { route: '/for-venture-studios/', title: 'For Venture Studios', email: site.emails.studios },
  { route: '/manifesto/', title: 'Manifesto' },
];

let browser: Browser;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await onePerFile.close(); await browser?.close(); });

// The file's page, reset between tests (tests/helpers/filePage.ts): cookies and storage cleared, so nothing
// leaks between tests, and each loads a new document.
const onePerFile = filePage(() => browser);
async function open(route: string): Promise<{ page: Page; problems: ReturnType<typeof watchProblems>; status: number | undefined }> {
  const page = await onePerFile.open();
  const problems = watchProblems(page);
  const res = await page.goto(base + route);
  return { page, problems, status: res?.status() };
}

async function seriousAxeViolations(page: Page): Promise<string[]> {
  const axe = await axeOf(page).analyze();
  return axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

describe('company pages', () => {
  // One page loads the routes of these checks in turn (a context and page of their own cost several times a
  // load); each load is a new document, and each check watches only what its own load logs.
  let shared: Page;
  beforeAll(async () => { shared = await (await browser.newContext()).newPage(); });
  afterAll(async () => { await shared?.context().close(); });
  async function visit(route: string) {
    shared.removeAllListeners('console');
    shared.removeAllListeners('pageerror');
    const problems = watchProblems(shared);
    const res = await shared.goto(base + route);
    return { page: shared, problems, status: res?.status() };
  }

  it.each(PAGES)('$route: 200, title, one h1, ordered headings, description, no console errors', async ({ route, title }) => {
    const { page, problems, status } = await visit(route);
    expect(status).toBe(200);
    expect(await page.title()).toBe(`${title} | ${site.name}`);
    expect(await page.locator('h1').count()).toBe(1);
    // Headings inside <main> start at h1 and never skip a level on the way down.
    const levels = await page.locator('main').locator('h1, h2, h3, h4, h5, h6').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
    expect(levels[0]).toBe(1);
    levels.forEach((l, i) => { if (i > 0) expect(l, `heading ${i} after h${levels[i - 1]}`).toBeLessThanOrEqual(levels[i - 1] + 1); });
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description?.length).toBeGreaterThanOrEqual(50);
    expect(description?.length).toBeLessThanOrEqual(160);
    expect(await page.locator('main').innerText()).not.toMatch(/\{[A-Za-z]+\}/);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
  });

  it.each(PAGES.filter((p) => p.email))('$route: every mail link goes to $email', async ({ route, email }) => {
    const { page } = await visit(route);
    const hrefs = await page.locator('main a[href^="mailto:"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const h of hrefs) expect(decodeURIComponent(h.slice('mailto:'.length).split('?')[0])).toBe(email);
    expect(await page.locator('main').innerText()).toContain(email);
  });

  it('only /faqs (the accordion) and /manifesto (the waitlist form it ends with) put an island in the page body', async () => {
    for (const { route } of PAGES) {
      const html = await (await fetch(base + route)).text();
      const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
      const islands = [...main.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]);
      expect(islands, route).toEqual(route === '/faqs/' ? ['FaqAccordion'] : route === '/manifesto/' ? ['WaitlistForm'] : []);
    }
  });
});

describe('/support', () => {
  it('gives both response times from the spec, an email button and a link to /faqs', async () => {
    const { page } = await open('/support/');
    const text = await page.locator('main').innerText();
    // SPEC section 9, written here independently of site.yaml.
    expect(text).toContain('2-3 business days');
    expect(text).toContain('7-14 business days');
    expect(site.supportResponse).toEqual({ paid: '2-3 business days', freemium: '7-14 business days' });
    await expect(page.locator(`main a.btn[href^="mailto:${site.emails.support}"]`).count()).resolves.toBe(1);
    const faqLink = page.locator('main a[href="/faqs/"]');
    await expect(faqLink.count()).resolves.toBe(1);
    await faqLink.click();
    await page.waitForURL(/\/faqs\/$/);
  });
});

describe('/careers, /investors, coming-soon pages', () => {
  it('careers: Join Our Team, the four areas, and no open positions listed', async () => {
    const { page } = await open('/careers/');
    expect(await page.locator('h1').innerText()).toBe('Join Our Team');
    const areas = await page.locator('main h3').allInnerTexts();
    for (const a of ['Engineering', 'Design', 'Growth', 'Operations']) expect(areas).toContain(a);
    expect(await page.locator('main').innerText()).toMatch(/no open positions/i);
  });

  it('investors: 4-6 quick facts and credentials within 24 hours after review', async () => {
    const { page } = await open('/investors/');
    const facts = await page.locator('.quick-facts dt').count();
    expect(facts).toBeGreaterThanOrEqual(4);
    expect(facts).toBeLessThanOrEqual(6);
    const text = await page.locator('main').innerText();
    expect(text).toMatch(/within 24 hours/);
    expect(text).toMatch(/review/i);
  });

  it('accelerators: Elevate, Connect and Insights cards and a Get in Touch link', async () => {
    const { page } = await open('/for-accelerators/');
    expect(await page.locator('main .card h3').allInnerTexts()).toEqual(['Elevate', 'Connect', 'Insights']);
    await expect(page.getByRole('link', { name: 'Get in Touch' }).getAttribute('href')).resolves.toMatch(new RegExp(`^mailto:${site.emails.info}`));
  });
});

describe('/faqs accordion', () => {
  const answersOf = (page: Page) => page.locator('.faq__answer');
  const buttonsOf = (page: Page) => page.locator('.faq button.faq__question');
  async function expanded(page: Page): Promise<string[]> {
    return buttonsOf(page).evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-expanded') ?? 'missing'));
  }
  async function ready(): Promise<Page> {
    const { page } = await open('/faqs/');
    await expect.poll(() => buttonsOf(page).count()).toBe(7);
    return page;
  }

  it('has 7 questions, each a button in a heading with aria-controls, and none open at first', async () => {
    const page = await ready();
    expect(await page.locator('.faq h2 > button.faq__question').count()).toBe(7);
    expect(await expanded(page)).toEqual(Array(7).fill('false'));
    for (let i = 0; i < 7; i++) {
      const controls = await buttonsOf(page).nth(i).getAttribute('aria-controls');
      const panel = page.locator(`[id="${controls}"]`);
      expect(await panel.count()).toBe(1);
      expect(await panel.isHidden()).toBe(true);
      expect(await panel.getAttribute('hidden')).not.toBeNull();
    }
  });

  it('opens one at a time: click opens, another click moves it, clicking the open one closes it', async () => {
    const page = await ready();
    const b = buttonsOf(page);
    await b.nth(0).click();
    expect(await expanded(page)).toEqual(['true', ...Array(6).fill('false')]);
    await expect(answersOf(page).nth(0).isVisible()).resolves.toBe(true);
    await expect(answersOf(page).nth(0).innerText()).resolves.toContain(faqs.questions[0].answer[0].slice(0, 40));
    await b.nth(3).click();
    expect(await expanded(page)).toEqual(['false', 'false', 'false', 'true', 'false', 'false', 'false']);
    await expect(answersOf(page).nth(0).isHidden()).resolves.toBe(true);
    await expect(answersOf(page).nth(3).isVisible()).resolves.toBe(true);
    await b.nth(3).click();
    expect(await expanded(page)).toEqual(Array(7).fill('false'));
    await expect(answersOf(page).nth(3).isHidden()).resolves.toBe(true);
  });

  it('works from the keyboard: Enter opens, Space closes', async () => {
    const page = await ready();
    await buttonsOf(page).nth(5).focus();
    await page.keyboard.press('Enter');
    expect((await expanded(page))[5]).toBe('true');
    await expect(answersOf(page).nth(5).isVisible()).resolves.toBe(true);
    await page.keyboard.press('Space');
    expect(await expanded(page)).toEqual(Array(7).fill('false'));
  });

  it('is axe clean with an item open, and its Contact Support link goes to /support', async () => {
    const page = await ready();
    await buttonsOf(page).nth(1).click();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Contact Support' }).click();
    await page.waitForURL(/\/support\/$/);
  });

  it('states the launch wording true at build time and the premium price, both from site.yaml', async () => {
    const page = await ready();
    const text = await answersOf(page).allTextContents();
    expect(text.join(' ')).toContain(launchTokens(site).launchFaq);
    expect(site.launch).toBe('September 2025');
    expect(text.join(' ')).toContain('$20/month');
  });

  it('has every answer in the server HTML, readable without JavaScript', async () => {
    const raw = await (await fetch(base + '/faqs/')).text();
    // The island's props repeat the copy; look only at the markup.
    const markup = raw.replace(/data-props="[^"]*"/g, '')
      .replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    for (const q of faqs.questions) {
      expect(markup).toContain(q.question);
      for (const p of q.answer) expect(markup).toContain(p.replace(/\{launchFaq\}/, launchTokens(site).launchFaq).replace(/\{premiumPrice\}/, site.premiumPrice));
    }
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(base + '/faqs/');
    expect(await answersOf(page).count()).toBe(7);
    for (let i = 0; i < 7; i++) await expect(answersOf(page).nth(i).isVisible()).resolves.toBe(true);
    await context.close();
  });
});
