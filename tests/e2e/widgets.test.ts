// The shared widgets in Chromium: rotating headline (timed with Playwright's clock), header dropdown,
// mobile menu, and the logo marquee (self-hosted logos only).
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';

const base = inject('baseUrl');
let browser: Browser;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

async function open(path: string, opts: { width?: number; reducedMotion?: boolean; clock?: boolean } = {}): Promise<{ page: Page; ctx: BrowserContext }> {
  const ctx = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 }, reducedMotion: opts.reducedMotion ? 'reduce' : 'no-preference' });
  const page = await ctx.newPage();
  if (opts.clock) await page.clock.install();
  await page.goto(base + path);
  return { page, ctx };
}
const hydrated = (page: Page, name: string) => page.locator(`sitegen-island[data-island="${name}"][data-hydrated]`).first().waitFor({ state: 'attached' });

describe('rotating headline', () => {
  it('shows Co-Founder in the HTML and alternates with Business Partner every 8000 ms', async () => {
    const html = await (await fetch(base + '/')).text();
    expect(html).toMatch(/<h1 id="home-title">Find Your <sitegen-island[^>]*><span class="rotating-word" aria-hidden="true" data-word="Co-Founder">Co-Founder<\/span><span class="visually-hidden">Co-Founder or Business Partner<\/span>/);
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    // Paused before the page exists: only runFor moves its time (idle hydration included). A minute ahead, as
    // below: a second was behind the page's clock once install() took that long on a busy machine.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.goto(base + '/');
    await page.clock.runFor(2_100);
    await hydrated(page, 'RotatingWord');
    const word = page.locator('.rotating-word');
    await expect(word.textContent()).resolves.toBe('Co-Founder');
    await page.clock.runFor(7_900);
    await expect(word.textContent()).resolves.toBe('Co-Founder');
    await page.clock.runFor(200);
    await expect(word.textContent()).resolves.toBe('Business Partner');
    await page.clock.runFor(8_000);
    await expect(word.textContent()).resolves.toBe('Co-Founder');
    // Not a live region: screen readers are not interrupted every 8 s.
    expect(await page.locator('h1 [aria-live]').count()).toBe(0);
    await expect(word.getAttribute('aria-hidden')).resolves.toBe('true');
    await ctx.close();
  });

  it('changes without animation under prefers-reduced-motion', async () => {
    const { page, ctx } = await open('/', { reducedMotion: true });
    const duration = await page.locator('.rotating-word').evaluate((el) => parseFloat(getComputedStyle(el).animationDuration));
    expect(duration).toBeLessThan(0.001);
    await ctx.close();
    const normal = await open('/');
    expect(await normal.page.locator('.rotating-word').evaluate((el) => parseFloat(getComputedStyle(el).animationDuration))).toBeGreaterThan(0.1);
    await normal.ctx.close();
  });
});

describe('header dropdown', () => {
  const panel = (page: Page) => page.locator('#solutions-menu');
  const button = (page: Page) => page.getByRole('button', { name: 'Solutions' });

  it('opens on hover and closes 150 ms after the pointer leaves', async () => {
    const { page, ctx } = await open('/faqs/', { clock: true });
    await hydrated(page, 'SiteNav');
    await page.clock.pauseAt(Date.now() + 60_000);
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('false');
    await button(page).hover();
    await expect(panel(page).isVisible()).resolves.toBe(true);
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('true');
    await page.mouse.move(600, 700);
    await page.clock.runFor(140);
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('true');
    await page.clock.runFor(20);
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('false');
    await page.waitForFunction(() => getComputedStyle(document.querySelector('#solutions-menu')!).visibility === 'hidden');
    await ctx.close();
  });

  it('pointer returning within 150 ms keeps it open', async () => {
    const { page, ctx } = await open('/faqs/', { clock: true });
    await hydrated(page, 'SiteNav');
    await page.clock.pauseAt(Date.now() + 60_000);
    await button(page).hover();
    await page.mouse.move(600, 700);
    await page.clock.runFor(100);
    await button(page).hover();
    await page.clock.runFor(500);
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('true');
    await ctx.close();
  });

  it('works by keyboard: Enter toggles, Escape closes and returns focus, Tab away closes', async () => {
    const { page, ctx } = await open('/faqs/');
    await hydrated(page, 'SiteNav');
    await page.locator('.site-header .brand').focus();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent?.trim())).resolves.toBe('Solutions');
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('false');
    await page.keyboard.press('Enter');
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('true');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('href'))).resolves.toBe('/for-consumers/');
    await page.keyboard.press('Escape');
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.evaluate(() => document.activeElement?.textContent?.trim())).resolves.toBe('Solutions');
    await page.keyboard.press('Enter');
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('true');
    await page.keyboard.press('Enter');
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('false');
    await page.keyboard.press('Enter');
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('true');
    for (let i = 0; i < 7; i++) await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('href'))).resolves.toBe('/manifesto/');
    await expect(button(page).getAttribute('aria-expanded')).resolves.toBe('false');
    await ctx.close();
  });

  it('opens with CSS alone when JavaScript is off', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(base + '/faqs/');
    await expect(panel(page).isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Solutions' }).hover();
    await expect(panel(page).isVisible()).resolves.toBe(true);
    await ctx.close();
  });
});

describe('mobile menu', () => {
  it('toggles with aria-expanded, closes on Escape and on following a link', async () => {
    const { page, ctx } = await open('/', { width: 375 });
    await hydrated(page, 'MobileMenu');
    const toggle = page.locator('.mobile-menu summary');
    const panel = page.locator('#mobile-menu-panel');
    await expect(page.locator('.nav').isVisible()).resolves.toBe(false);
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await expect(panel.getByRole('link', { name: 'Manifesto' }).isVisible()).resolves.toBe(true);
    await expect(panel.getByRole('link').count()).resolves.toBe(10);
    await page.keyboard.press('Escape');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe('SUMMARY');
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await panel.getByRole('link', { name: 'FAQs' }).click();
    await page.waitForURL('**/faqs/');
    await expect(page.locator('h1').count()).resolves.toBe(1);
    await ctx.close();
  });
});

describe('logo marquee', () => {
  it('shows every entry with its self-hosted logo, never a letter in its place', async () => {
    const { page, ctx } = await open('/');
    const stripe = page.locator('.marquee li', { hasText: 'Stripe' }).first();
    await expect(stripe.locator('img').getAttribute('src')).resolves.toBe('/logos/stripe.svg');
    await expect(stripe.locator('img').getAttribute('alt')).resolves.toBe('');
    await expect(stripe.textContent()).resolves.toBe('Stripe');
    // Entries without a logo file are not in logos.yaml (the schema requires one): no text marks.
    await expect(page.locator('.marquee li', { hasText: 'Microsoft' }).count()).resolves.toBe(0);
    await expect(page.locator('.marquee li:not(:has(img))').count()).resolves.toBe(0);
    // The loop's copies are hidden from assistive technology; the first set is not.
    const hiddenCount = await page.locator('.marquee li[aria-hidden="true"]').count();
    expect(hiddenCount).toBe(await page.locator('.marquee li').count() / 2);
    await ctx.close();
  });

  it('pauses on hover and does not move under reduced motion', async () => {
    const { page, ctx } = await open('/');
    const track = page.locator('.marquee__track').first();
    await page.locator('#logos-title').scrollIntoViewIfNeeded();
    await hydrated(page, 'LogoMarquee');
    await track.hover({ force: true }); // it is moving, so never "stable"

    await expect(track.evaluate((el) => getComputedStyle(el).animationPlayState)).resolves.toBe('paused');
    await ctx.close();
    const rm = await open('/', { reducedMotion: true });
    await expect(rm.page.locator('.marquee__track').first().evaluate((el) => getComputedStyle(el).animationName)).resolves.toBe('none');
    await rm.ctx.close();
  });
});
