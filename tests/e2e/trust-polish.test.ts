// Issue 29, "polish": the small things a careful visitor notices. Each check is geometry, colour or state
// in Chromium at the width named.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { onePage } from '../helpers/onePage.ts';
import { filePage } from '../helpers/filePage.ts';

const base = inject('baseUrl');
let browser: Browser;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await shared.close(); await browser?.close(); });

// The tests take turns on one page (tests/helpers/filePage.ts): each loads what it looks at. The test
// without JavaScript has a page of its own.
const shared = filePage(() => browser);
async function open(path: string, opts: { width?: number } = {}): Promise<Page> {
  const page = await shared.open({ width: opts.width ?? 1280, height: 900 });
  await page.goto(base + path);
  return page;
}
const hydratedAll = (page: Page, name: string) => expect.poll(() => page.locator(`sitegen-island[data-island="${name}"]:not([data-hydrated])`).count(), { timeout: 10_000 }).toBe(0);

/** Words with a hyphen or an @ that a line break splits, inside the elements `selector` matches. */
function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => els.flatMap((el) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const texts: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
    // A word may be split over text nodes (a <span> around it); measure each run of non-space characters.
    for (const t of texts) {
      for (const m of (t.textContent ?? '').matchAll(/\S*[-@]\S*/g)) {
        const r = document.createRange();
        r.setStart(t, m.index!);
        r.setEnd(t, m.index! + m[0].length);
        if (new Set([...r.getClientRects()].map((c) => Math.round(c.top))).size > 1) out.push(m[0]);
      }
    }
    return out;
  }));
}

describe('polish', () => {
  it('at 320 px every email field fits inside its form, within the card\'s padding', async () => {
    const one = await shared.widths({ width: 320, height: 900 });
    for (const route of ['/', '/for-consumers/', '/for-consumers/online/saas/', '/manifesto/']) {
      const page = await one.at(base + route);
      const over = await page.locator('form.waitlist input[type=email]').evaluateAll((inputs) => inputs.filter((i) => {
        const box = i.closest('form')!.getBoundingClientRect();
        const r = i.getBoundingClientRect();
        return r.right > box.right + 0.5 || r.left < box.left - 0.5;
      }).length);
      expect(over, route).toBe(0);
    }
  });

  it('a status message keeps clear of the closing card\'s bottom edge', async () => {
    for (const width of [320, 375, 1280]) {
      const page = await open('/', { width });
      await hydratedAll(page, 'WaitlistForm');
      const form = page.locator('.cta-card form.waitlist');
      await form.locator('input[type=email]').fill('a@b');
      await form.locator('button[type=submit]').click();
      await expect.poll(() => form.locator('[role=status]').textContent()).not.toBe('');
      const gap = await form.evaluate((f) => f.closest('.cta-card')!.getBoundingClientRect().bottom - f.querySelector('[role=status]')!.getBoundingClientRect().bottom);
      expect(gap, `at ${width}`).toBeGreaterThanOrEqual(12);
    }
  });

  it('the sticky header is opaque', async () => {
    const page = await open('/');
    expect(await page.locator('.site-header').evaluate((h) => getComputedStyle(h).backgroundColor)).toBe('rgb(255, 255, 255)');
  });

  it('the match card keeps a card\'s width at 768 px', async () => {
    const page = await open('/', { width: 768 });
    expect((await page.locator('.hero figure.match').boundingBox())!.width).toBeLessThanOrEqual(480);
  });

  it('breaks no address or hyphenated name mid-word (investors address, "Co-Founder")', async () => {
    const one = await shared.widths();
    for (const width of [320, 375, 768]) {
      const page = await one.at(base + '/investors/', width);
      expect(await brokenWords(page, '.company-address'), `/investors/ at ${width}`).toEqual([]);
      for (const route of ['/', '/for-consumers/online/saas/', '/for-consumers/brick-and-mortar/medical/']) {
        await page.goto(base + route);
        expect(await brokenWords(page, 'main h1, main h2'), `${route} at ${width}`).toEqual([]);
      }
    }
  });

  it('"✓ JOINED!" reads as a success, not as a disabled button', async () => {
    const page = await open('/');
    await hydratedAll(page, 'WaitlistForm');
    const form = page.locator('#join');
    await form.locator('input[type=email]').fill(`polish-${Date.now()}@example.com`);
    await form.locator('button[type=submit]').click();
    const button = form.locator('button[type=submit]');
    await expect.poll(() => button.textContent(), { timeout: 10_000 }).toBe('✓ JOINED!');
    expect(await button.evaluate((b) => getComputedStyle(b).opacity)).toBe('1');
  });

  it('the closing form\'s button is enabled without scrolling to it', async () => {
    const page = await open('/');
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.locator('.cta-card button[type=submit]').evaluate((b: HTMLButtonElement) => b.disabled), { timeout: 10_000 }).toBe(false);
  });

  it('without JavaScript the headline has no empty band under it', async () => {
    const one = await onePage(browser, { javaScriptEnabled: false });
    for (const width of [375, 1280]) {
      const page = await one.at(base + '/', width);
      const gap = await page.locator('#home-title').evaluate((h) => h.nextElementSibling!.getBoundingClientRect().top - h.getBoundingClientRect().bottom);
      expect(gap, `at ${width}`).toBeLessThanOrEqual(24);
    }
    await one.close();
  });

  it('a themed page uses its theme on buttons, back links and badges', async () => {
    const page = await open('/for-consumers/hybrid/real-estate/');
    const colours = await page.evaluate(() => ({
      button: getComputedStyle(document.querySelector('.sector-hero .btn--primary')!).backgroundColor,
      back: getComputedStyle(document.querySelector('.back-link')!).color,
      badge: getComputedStyle(document.querySelector('.sector-hero .badge')!).color,
    }));
    expect(colours.back).toBe(colours.button);
    expect(colours.badge).toBe(colours.button);
  });

  it('the 404 gradient runs down to the footer, without a seam', async () => {
    const one = await shared.widths();
    for (const width of [375, 1280, 1920]) {
      const page = await one.at(base + '/404.html', width);
      const gap = await page.evaluate(() => document.querySelector('.site-footer')!.getBoundingClientRect().top - document.querySelector('main > section')!.getBoundingClientRect().bottom);
      expect(Math.abs(gap), `at ${width}`).toBeLessThanOrEqual(1);
    }
  });

  it('the mobile menu lists the company links under their own heading, not under Solutions', async () => {
    const page = await open('/', { width: 375 });
    await page.locator('.mobile-menu > summary').click();
    const heading = await page.locator('#mobile-menu-panel a[href="/manifesto/"]').evaluate((a) => {
      let el: Element | null = a.closest('ul');
      while (el && !el.matches('.mobile-menu__heading')) el = el.previousElementSibling;
      return el?.textContent;
    });
    expect(heading).toBeTruthy();
    expect(heading).not.toMatch(/solutions/i);
  });

  it('the closing card on /faqs/ is no wider than the questions above it', async () => {
    const page = await open('/faqs/');
    const [faq, card] = await Promise.all([page.locator('.faq').boundingBox(), page.locator('.cta-card').boundingBox()]);
    expect(card!.width).toBeLessThanOrEqual(faq!.width + 1);
  });

  it('sector cards side by side are the same height', async () => {
    const one = await shared.widths();
    for (const route of ['/for-consumers/online/saas/', '/for-consumers/brick-and-mortar/medical/', '/for-consumers/hybrid/real-estate/']) {
      const page = await one.at(base + route);
      const heights = await page.locator('.split > .card').evaluateAll((cs) => cs.map((c) => Math.round(c.getBoundingClientRect().height)));
      expect(heights.length, route).toBe(2);
      expect(heights[0], route).toBe(heights[1]);
    }
  });
});
