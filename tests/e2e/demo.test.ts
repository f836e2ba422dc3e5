// The demo form routes in real Chromium, on the site built and served by the e2e global setup: errors only
// after a field is touched, all errors (and focus on the first) on a failed submit, the logged values and the
// alert of a valid submit, the disabled button while submitting, noindex, no sitemap entry, and axe.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeOf } from '../helpers/axe.ts';
import { filePage } from '../helpers/filePage.ts';
import { launchBrowser, watchProblems, type PageProblems } from '../helpers/browser.ts';

const baseUrl = inject('baseUrl');
const distDir = inject('distDir');
const SIMPLE = '/demo/form/simple/';
const ADDRESS = '/demo/form/address/';

let browser: Browser;
/** Contexts being closed: awaited before the browser goes, which would fail a close still under way. */
const closing: Promise<void>[] = [];
/**
 * The file's page, reset between tests (tests/helpers/filePage.ts), for a page with JavaScript; without it, a
 * page in its own context (closing the page closes it).
 */
const shared = filePage(() => browser);
async function newPage(opts: { javaScriptEnabled?: boolean; own?: boolean } = {}): Promise<Page> {
  if (opts.javaScriptEnabled !== false && !opts.own) return shared.open();
  const context = await browser.newContext({ javaScriptEnabled: opts.javaScriptEnabled });
  const page = await context.newPage();
  page.on('close', () => { closing.push(context.close()); });
  return page;
}
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => {
  await Promise.all(closing);
  await shared.close();
  await browser?.close();
});

interface Opened { page: Page; problems: PageProblems; logs: Promise<unknown>[]; alerts: string[] }

/** Opens a demo page and waits for its form island to hydrate; records console.log values and alerts.
 *  `clock`: in a page of its own whose timers Playwright's clock drives (submitValid). */
async function open(route: string, island: string, opts: { clock?: boolean } = {}): Promise<Opened> {
  const page = await newPage({ own: opts.clock });
  if (opts.clock) {
    onTestFinished(() => page.close()); // (and its context: newPage)
    await page.clock.install();
  }
  const problems = watchProblems(page);
  const logs: Promise<unknown>[] = [];
  const alerts: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'log') return;
    const value = m.args()[0]!.jsonValue();
    value.catch(() => {}); // a log still in flight when the page closes is not a test failure
    logs.push(value);
  });
  page.on('dialog', (d) => { alerts.push(d.message()); void d.accept(); });
  const res = await page.goto(baseUrl + route);
  expect(res?.status()).toBe(200);
  await page.locator(`sitegen-island[data-island="${island}"][data-hydrated]`).waitFor({ state: 'attached' });
  return { page, problems, logs, alerts };
}

/** The visible error texts of the form, in page order. */
const errorsOf = (page: Page) => page.locator('.field__error:not(:empty)').allTextContents();
const submit = (page: Page) => page.getByRole('button', { name: 'Submit' });

/** The error is shown, linked to its control and the control marked invalid. */
async function expectLinkedError(page: Page, label: string, message: string) {
  const control = page.getByLabel(label, { exact: true });
  await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
  const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ');
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  expect(texts).toContain(message);
}

/** Submits a valid form (a page opened with `clock`); checks the button is disabled while the submit runs,
 *  then the alert. The demo's stand-in for server time is a timer (content/demo/forms.yaml submitDelayMs):
 *  the page's clock is paused, so the button is looked at while the submit waits, however slowly this
 *  machine answers, and then run on past the longest delay the schema allows. */
async function submitValid(o: Opened) {
  const button = submit(o.page);
  await o.page.clock.pauseAt(await o.page.evaluate(() => Date.now() + 1000));
  await button.click();
  await expect.poll(() => button.isDisabled()).toBe(true);
  expect(o.alerts).toEqual([]);
  await o.page.clock.runFor(5000);
  await expect.poll(() => o.alerts).toEqual(['Form submitted successfully!']);
  await expect.poll(() => button.isEnabled()).toBe(true);
  return Promise.all(o.logs);
}

async function seriousViolations(page: Page) {
  const r = await axeOf(page).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('/demo/form/simple', () => {
  it('shows no error before a field is touched, then the message of a blurred empty field', async () => {
    const { page, problems } = await open(SIMPLE, 'DemoSimpleForm');
    expect(await errorsOf(page)).toEqual([]);
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.getByLabel('Title').focus();
    await page.keyboard.press('Tab');
    expect(await errorsOf(page)).toEqual(['Title is required']);
    await expectLinkedError(page, 'Title', 'Title is required');
    // Fixing the title clears its message; leaving Description (focused by Tab) empty shows its own.
    await page.getByLabel('Title').fill('Hello');
    await expect.poll(() => errorsOf(page)).toEqual(['Description is required']);
    expect(problems).toEqual({ console: [], errors: [] });
  });

  it('shows every message on an empty submit and focuses the first invalid field', async () => {
    const { page } = await open(SIMPLE, 'DemoSimpleForm');
    await submit(page).click();
    await expect.poll(() => errorsOf(page)).toEqual(['Title is required', 'Description is required']);
    await expectLinkedError(page, 'Description', 'Description is required');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title');
  });

  it('logs the values and alerts on a valid submit, with the button disabled meanwhile', async () => {
    const o = await open(SIMPLE, 'DemoSimpleForm', { clock: true });
    await o.page.getByLabel('Title').fill('A title');
    await o.page.getByLabel('Description').fill('Some words\non two lines');
    expect(await submitValid(o)).toEqual([{ title: 'A title', description: 'Some words\non two lines' }]);
    expect(await errorsOf(o.page)).toEqual([]);
  });
});

describe('/demo/form/address', () => {
  const ALL = ['Full name is required', 'Email is required', 'Street address is required', 'City is required', 'State is required',
    'Zip code is required', 'Country is required', 'Phone number is required'];

  it('checks each field on blur, only once touched', async () => {
    const { page, problems } = await open(ADDRESS, 'DemoAddressForm');
    expect(await errorsOf(page)).toEqual([]);
    await page.getByLabel('Full Name').fill('   ');
    expect(await errorsOf(page)).toEqual([]); // typing is not touching: the field was not left yet
    await page.getByLabel('Email').fill('ada@example.c'); // moving on leaves Full Name
    await expect.poll(() => errorsOf(page)).toEqual(['Full name is required']);
    await page.getByLabel('Email').blur();
    await expect.poll(() => errorsOf(page)).toEqual(['Full name is required', 'Invalid email address']);
    await expectLinkedError(page, 'Email', 'Invalid email address');
    await page.getByLabel('Email').fill('ada@example.com');
    await expect.poll(() => errorsOf(page)).toEqual(['Full name is required']);
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBeNull();
    expect(problems).toEqual({ console: [], errors: [] });
  });

  it('shows all eight messages on an empty submit and focuses Full Name', async () => {
    const { page } = await open(ADDRESS, 'DemoAddressForm');
    await submit(page).click();
    await expect.poll(() => errorsOf(page)).toEqual(ALL);
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(8);
    await expectLinkedError(page, 'Country', 'Country is required');
    await expectLinkedError(page, 'Zip Code', 'Zip code is required');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('fullName');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the format messages and focuses the first invalid field', async () => {
    const o = await open(ADDRESS, 'DemoAddressForm');
    const p = o.page;
    await p.getByLabel('Full Name').fill('Ada Lovelace');
    await p.getByLabel('Email').fill('ada@example.com');
    await p.getByLabel('Street Address').fill('1 Main St');
    await p.getByLabel('City').fill('Springfield');
    await p.getByLabel('State').fill('IL');
    await p.getByLabel('Zip Code').fill('1234');
    await p.getByLabel('Country').selectOption('CA');
    await p.getByLabel('Phone').fill('12-34');
    await submit(p).click();
    await expect.poll(() => errorsOf(p)).toEqual(['Invalid zip code format', 'Invalid phone number format']);
    expect(await p.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('address.zipCode');
    expect(o.alerts).toEqual([]);
  });

  it('logs the nested values and alerts on a valid submit, with the button disabled meanwhile', async () => {
    const o = await open(ADDRESS, 'DemoAddressForm', { clock: true });
    const p = o.page;
    expect(await p.getByLabel('Phone').getAttribute('placeholder')).toBe('123-456-7890');
    expect(await p.getByLabel('Country').locator('option').allTextContents()).toEqual(
      ['Select a country', 'United States', 'Canada', 'United Kingdom', 'Australia', 'Germany', 'France', 'Japan']);
    await p.getByLabel('Full Name').fill('Ada Lovelace');
    await p.getByLabel('Email').fill('Ada@Example.COM');
    await p.getByLabel('Street Address').fill('1 Main St');
    await p.getByLabel('City').fill('Springfield');
    await p.getByLabel('State').fill('IL');
    await p.getByLabel('Zip Code').fill('12345-6789');
    await p.getByLabel('Country').selectOption('UK');
    await p.getByLabel('Phone').fill('+44 123 456 7890');
    expect(await submitValid(o)).toEqual([{
      fullName: 'Ada Lovelace', email: 'Ada@Example.COM', phone: '+44 123 456 7890',
      address: { street: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '12345-6789', country: 'UK' },
    }]);
    expect(o.problems).toEqual({ console: [], errors: [] });
  });
});

describe('both demo pages', () => {
  it.each([SIMPLE, ADDRESS])('%s is noindex, left out of the sitemap and has no serious axe violation', async (route) => {
    const page = await newPage();
    await page.goto(baseUrl + route);
    expect(await page.evaluate(() => document.querySelector('meta[name="robots"]')?.getAttribute('content'))).toBe('noindex');
    expect(await seriousViolations(page)).toEqual([]);
    const sitemap = fs.readFileSync(path.join(distDir, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('<loc>');
    expect(sitemap).not.toContain('/demo/');
  });

  it('renders a usable form without JavaScript: labelled, required fields and native validation', async () => {
    const page = await newPage({ javaScriptEnabled: false });
    await page.goto(baseUrl + ADDRESS);
    const form = page.locator('form.demo-form');
    expect(await form.getAttribute('novalidate')).toBeNull();
    for (const label of ['Full Name', 'Email', 'Street Address', 'City', 'State', 'Zip Code', 'Country', 'Phone']) {
      expect(await page.getByLabel(label, { exact: true }).getAttribute('required'), label).not.toBeNull();
    }
    expect(await errorsOf(page)).toEqual([]);
    await page.close();
  });
});
