// Sign-ups in real Chromium against `sitegen preview`'s embedded backend: button states and timings (with
// Playwright's clock), spec messages, nothing typed is lost on error, and what each row stores.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { filePage } from '../helpers/filePage.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';
import fs from 'node:fs';
import { parse } from 'yaml';
import { launchTokens } from '../../templates/lib/launch.ts';

const site = parse(fs.readFileSync(new URL('../../content/site.yaml', import.meta.url), 'utf8'));
const LOCAL_SERVICE_ROLE_KEY = inject('serviceKey'); // random per database (tests/e2e/globalSetup.ts)

const base = inject('baseUrl');
let browser: Browser;

beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await shared.close(); await browser?.close(); });

async function rows(): Promise<any[]> {
  const res = await fetch(`${base}/rest/v1/waitlist?select=*&order=id.asc`, { headers: { apikey: LOCAL_SERVICE_ROLE_KEY, Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` } });
  expect(res.status).toBe(200);
  return res.json();
}
const unique = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

// Tests that neither fake the clock nor route requests take turns on one page (tests/helpers/filePage.ts);
// the others (`own`) get a page of their own, which they close.
const shared = filePage(() => browser);
async function open(path: string, opts: { clock?: boolean; referer?: string; own?: boolean } = {}): Promise<Page> {
  const page = opts.clock || opts.own ? await browser.newPage() : await shared.open();
  if (opts.clock) await page.clock.install();
  await page.goto(base + path, opts.referer ? { referer: opts.referer } : {});
  await page.locator('sitegen-island[data-island="WaitlistForm"][data-hydrated]').first().waitFor({ state: 'attached' });
  return page;
}

describe('home page form', () => {
  it('shows the hero content around the form', async () => {
    const page = await open('/');
    await expect(page.locator('.hero .badge').textContent()).resolves.toBe('WAITLIST NOW OPEN');
    await expect(page.locator('.hero .chip').allTextContents()).resolves.toEqual(['Real People', 'Verified IDs', 'Smart Matching']);
    await expect(page.getByText('No spam. Unsubscribe anytime.').count()).resolves.toBe(1);
    await expect(page.locator('.steps h3').allTextContents()).resolves.toEqual(['Create Profile', 'Get Matched', 'Start Building']);
    await expect(page.locator('.stat__label').allTextContents()).resolves.toEqual(['Verified Users', 'Smart Matching', launchTokens(site).launchStatLabel, 'Support 24/7']);
  });

  it('goes idle → JOINING... → ✓ JOINED! for 3 s → cleared and Join, and stores the row', async () => {
    const page = await open('/', { clock: true });
    // From here only runFor moves the page's time, so the 3 s confirmation is measured exactly.
    await page.clock.pauseAt(Date.now() + 60_000);
    const problems = watchProblems(page);
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    await page.route('**/rest/v1/waitlist**', async (route) => { await held; await route.continue(); });
    const form = page.locator('form.waitlist').first();
    const input = form.getByRole('textbox', { name: 'Email address' });
    const button = form.locator('button[type="submit"]');
    await expect(button.textContent()).resolves.toBe('Join');
    const email = unique('Home');
    await input.fill(`  ${email}  `);
    await button.click();
    await expect(button.textContent()).resolves.toBe('JOINING...');
    expect(await button.isDisabled()).toBe(true);
    release();
    await form.getByText("You're on the list! We'll be in touch soon.").waitFor();
    await expect(button.textContent()).resolves.toBe('✓ JOINED!');
    expect(await button.isDisabled()).toBe(true);
    const status = form.locator('[role="status"]');
    expect(await status.getAttribute('class')).toContain('waitlist__status--success');
    expect(await status.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(6, 118, 71)');
    await page.clock.runFor(2900);
    await expect(button.textContent()).resolves.toBe('✓ JOINED!');
    await expect(input.inputValue()).resolves.toBe(email);
    await page.clock.runFor(200);
    await expect(button.textContent()).resolves.toBe('Join');
    await expect(input.inputValue()).resolves.toBe('');
    expect(await button.isDisabled()).toBe(false);
    const row = (await rows()).find((r) => r.email === email);
    expect(row).toBeTruthy();
    expect(row.metadata).toEqual({ page: '/', form: 'home' });
    expect(problems.errors).toEqual([]);
    await page.close();
  });

  it('refuses a duplicate in another letter case and keeps what was typed', async () => {
    const email = unique('dup');
    const first = await open('/');
    await first.locator('form.waitlist input[type="email"]').first().fill(email);
    await first.locator('form.waitlist button[type="submit"]').first().click();
    await first.getByText("You're on the list!").first().waitFor();
    const page = await open('/for-consumers/');
    const form = page.locator('form.waitlist').first();
    await form.locator('input[type="email"]').fill(email.toUpperCase());
    await form.locator('button[type="submit"]').click();
    await form.getByText('This email is already on the waitlist!').waitFor();
    expect(await form.locator('[role="status"]').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(180, 35, 24)');
    await expect(form.locator('input[type="email"]').inputValue()).resolves.toBe(email.toUpperCase());
    await expect(form.locator('button[type="submit"]').textContent()).resolves.toBe('Join');
    expect((await rows()).filter((r) => r.email.toLowerCase() === email.toLowerCase())).toHaveLength(1);
  });

  it('shows the authentication message when the key is wrong', async () => {
    const page = await open('/', { own: true });
    await page.route('**/rest/v1/waitlist**', (route) => {
      const headers = { ...route.request().headers(), apikey: 'wrong-key', authorization: 'Bearer wrong-key' };
      return route.continue({ headers });
    });
    const email = unique('auth');
    const form = page.locator('form.waitlist').first();
    await form.locator('input[type="email"]').fill(email);
    await form.locator('button[type="submit"]').click();
    await form.getByText('Authentication error - please check API key configuration').waitFor();
    await expect(form.locator('input[type="email"]').inputValue()).resolves.toBe(email);
    // A wrong key is not the visitor's mistake: the field is not marked invalid.
    await expect(form.locator('input[type="email"]').getAttribute('aria-invalid')).resolves.toBeNull();
    expect((await rows()).some((r) => r.email === email)).toBe(false);
    await page.close();
  });

  it('shows the generic message on a network failure and keeps the email', async () => {
    const page = await open('/', { own: true });
    await page.route('**/rest/v1/waitlist**', (route) => route.abort('internetdisconnected'));
    const email = unique('offline');
    const form = page.locator('form.waitlist').first();
    await form.locator('input[type="email"]').fill(email);
    await form.locator('button[type="submit"]').click();
    await form.getByText('Something went wrong. Please try again.').waitFor();
    await expect(form.locator('input[type="email"]').inputValue()).resolves.toBe(email);
    await expect(form.locator('input[type="email"]').getAttribute('aria-invalid')).resolves.toBeNull();
    expect(await form.locator('button[type="submit"]').isDisabled()).toBe(false);
    await page.unroute('**/rest/v1/waitlist**');
    await form.locator('button[type="submit"]').click();
    await form.getByText("You're on the list!").waitFor();
    expect((await rows()).filter((r) => r.email === email)).toHaveLength(1);
    await page.close();
  });
});

describe('what a row stores', () => {
  it('takes utm values from the query string, the referrer and the user agent', async () => {
    const page = await open('/?utm_source=news&utm_medium=email&utm_campaign=launch&utm_term=cofounder&utm_content=hero', { referer: 'https://referrer.example/post' });
    const email = unique('utm');
    await page.locator('form.waitlist input[type="email"]').first().fill(email);
    await page.locator('form.waitlist button[type="submit"]').first().click();
    await page.getByText("You're on the list!").first().waitFor();
    const row = (await rows()).find((r) => r.email === email);
    expect(row).toMatchObject({ utm_source: 'news', utm_medium: 'email', utm_campaign: 'launch', utm_term: 'cofounder', utm_content: 'hero', referrer: 'https://referrer.example/post' });
    expect(row.user_agent).toBe(await page.evaluate(() => navigator.userAgent));
  });

  it.each([
    ['/for-consumers/online/saas/', 'sector:online/saas'],
    ['/for-consumers/brick-and-mortar/', 'area:brick-and-mortar'],
  ])('the form on %s stores a row too', async (path, form) => {
    const page = await shared.open();
    await page.goto(base + path);
    const f = page.locator('form.waitlist').last();
    await f.scrollIntoViewIfNeeded();
    await page.locator('sitegen-island[data-island="WaitlistForm"][data-hydrated]').last().waitFor({ state: 'attached' });
    const email = unique('page');
    await f.locator('input[type="email"]').fill(email);
    await f.locator('button[type="submit"]').click();
    await f.getByText("You're on the list!").waitFor();
    await expect(f.locator('button[type="submit"]').textContent()).resolves.toBe('✓ JOINED!');
    const row = (await rows()).find((r) => r.email === email);
    expect(row.metadata).toEqual({ page: path, form });
  });

  it('a filled honeypot looks like success and stores nothing', async () => {
    const page = await open('/');
    const email = unique('bot');
    const form = page.locator('form.waitlist').first();
    await form.locator('input[name="website"]').evaluate((el: HTMLInputElement) => { el.value = 'http://spam.example'; });
    await form.locator('input[type="email"]').fill(email);
    await form.locator('button[type="submit"]').click();
    await form.getByText("You're on the list!").waitFor();
    expect((await rows()).some((r) => r.email === email)).toBe(false);
  });

  it('loads supabase-js only once the visitor reaches for the form', async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(r.url()); });
    await page.goto(base + '/');
    await page.locator('sitegen-island[data-island="WaitlistForm"][data-hydrated]').first().waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    const before = scripts.length;
    await page.locator('form.waitlist input[type="email"]').first().focus();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(before);
    await page.close();
  });
});

describe('what a sign-up carries and what it never leaks', () => {
  const signUp = async (page: Page, email: string) => {
    await page.locator('sitegen-island[data-island="WaitlistForm"][data-hydrated]').first().waitFor({ state: 'attached' });
    const form = page.locator('main form.waitlist').first();
    await form.locator('input[type="email"]').fill(email);
    await form.locator('button[type="submit"]').click();
    return form;
  };

  it('marks the field invalid only when the email itself is refused (a@b passes the browser, not the database)', async () => {
    const page = await open('/');
    const form = await signUp(page, 'a@b');
    await form.getByText('Please enter a valid email address').waitFor();
    await expect(form.locator('input[type="email"]').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(form.locator('input[type="email"]').inputValue()).resolves.toBe('a@b');
  });

  it('keeps the landing page\'s utm values for the session (first touch); a page with its own utm values wins', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(`${base}/?utm_source=x&utm_medium=y`);
    await page.locator('sitegen-island[data-island="SiteNav"][data-hydrated]').waitFor({ state: 'attached' });
    await page.goto(`${base}/faqs/?utm_source=later`); // a later landing does not replace the first touch
    await page.goto(`${base}/for-consumers/`);
    const first = unique('utm-first');
    await (await signUp(page, first)).getByText("You're on the list!").waitFor();
    const row = (await rows()).find((r) => r.email === first);
    expect(row).toMatchObject({ utm_source: 'x', utm_medium: 'y', utm_campaign: null, metadata: { page: '/for-consumers/' } });
    await page.goto(`${base}/?utm_source=z`);
    const own = unique('utm-own');
    await (await signUp(page, own)).getByText("You're on the list!").waitFor();
    expect((await rows()).find((r) => r.email === own)).toMatchObject({ utm_source: 'z', utm_medium: null });
    await ctx.close();
  });

  it('without JavaScript the form cannot send (no email in any URL) and tells the visitor what to do', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await page.goto(base + '/');
    const form = page.locator('main form.waitlist').first();
    // Playwright's text and role engines skip <noscript>, so the line is found by its class.
    const line = form.locator('.waitlist__noscript');
    await expect(line.isVisible()).resolves.toBe(true);
    await expect(line.textContent()).resolves.toMatch(/^To join, turn on JavaScript for this site, or email \S+@greatnessgathered\.com\.$/);
    await expect(line.locator('a').getAttribute('href')).resolves.toMatch(/^mailto:\S+@greatnessgathered\.com$/);
    const email = unique('nojs');
    const input = form.locator('input[type="email"]');
    await input.fill(email);
    await input.press('Enter');
    await form.locator('button[type="submit"]').click({ force: true });
    await page.waitForLoadState('networkidle');
    const leaked = urls.concat(page.url()).filter((u) => u.includes(encodeURIComponent(email)) || u.includes(email) || u.includes('email='));
    expect(leaked).toEqual([]);
    expect((await rows()).some((r) => r.email === email)).toBe(false);
    await ctx.close();
  });
});
