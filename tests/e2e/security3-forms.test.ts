// Security round 3, forms: with JavaScript off no form may put what a visitor typed into a URL (history, server
// logs, Referer). Checked over every page of the build, and in Chromium on the address demo form.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';

const baseUrl = inject('baseUrl');
const distDir = inject('distDir');

let browser: Browser;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

function htmlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.join(e.parentPath, e.name));
}

interface FormFacts { page: string; form: string; method: string; personal: string[]; enabledSubmits: number }

describe('every <form> in the built site', () => {
  it('that asks for personal data posts (method="post") and cannot send without JavaScript', async () => {
    const files = htmlFiles(distDir);
    expect(files.length).toBeGreaterThan(20);
    const page = await browser.newPage();
    const forms: FormFacts[] = [];
    for (const file of files) {
      // Parsed by the browser's own HTML parser, in a page with no scripts of the site.
      forms.push(...await page.evaluate(([html, name]) => {
        const doc = new DOMParser().parseFromString(html, 'text/html');
        const personalName = /(^|[._-])(e-?mail|phone|tel|name|fullname|street|address|city|state|zip|zipcode|postal|country)([._-]|$)/i;
        const personalAutocomplete = /\b(email|tel|name|given-name|family-name|street-address|address-line\d|address-level\d|postal-code|country)\b/;
        return [...doc.querySelectorAll('form')].map((form, i) => {
          const personal = [...form.querySelectorAll<HTMLInputElement>('input, textarea, select')]
            .filter((c) => c.type !== 'hidden')
            .filter((c) => ['email', 'tel', 'password'].includes(c.type) || personalName.test(c.name) || personalAutocomplete.test(c.getAttribute('autocomplete') ?? ''))
            .map((c) => c.name || c.type);
          const enabledSubmits = [...form.querySelectorAll<HTMLButtonElement | HTMLInputElement>('button:not([type]), button[type="submit"], input[type="submit"], input[type="image"]')]
            .filter((b) => !b.disabled).length;
          return { page: name, form: form.className || `#${i}`, method: (form.getAttribute('method') ?? '').toLowerCase(), personal, enabledSubmits };
        });
      }, [fs.readFileSync(file, 'utf8'), path.relative(distDir, file)] as const));
    }
    await page.close();
    const withPersonalData = forms.filter((f) => f.personal.length > 0);
    // The check is not empty: the waitlist forms and both demo forms are among them.
    expect(withPersonalData.some((f) => f.page === 'index.html' && f.form === 'waitlist')).toBe(true);
    expect(withPersonalData.some((f) => f.page.startsWith(path.join('demo', 'form', 'address')) && f.personal.includes('phone'))).toBe(true);
    expect(forms.some((f) => f.page.startsWith(path.join('demo', 'form', 'simple')))).toBe(true);
    const demoForms = forms.filter((f) => f.page.startsWith(path.join('demo', 'form')));
    const unsafe = [...withPersonalData, ...demoForms]
      .filter((f) => f.method !== 'post' || f.enabledSubmits > 0)
      .map((f) => `${f.page} form.${f.form}: method "${f.method}", ${f.enabledSubmits} enabled submit button(s), fields ${f.personal.join(', ')}`);
    expect(unsafe).toEqual([]);
  });
});

describe('/demo/form/address without JavaScript', () => {
  it('puts nothing typed into any URL, and says the demo needs JavaScript', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await page.goto(`${baseUrl}/demo/form/address/`);
    const typed: Record<string, string> = {
      'Full Name': 'Nojs Person', Email: 'nojs.person@example.com', 'Street Address': '42 Secret Lane', City: 'Springfield',
      State: 'IL', 'Zip Code': '12345', Phone: '555-867-5309',
    };
    for (const [label, value] of Object.entries(typed)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByLabel('Country', { exact: true }).selectOption('US');
    await page.getByLabel('Phone', { exact: true }).press('Enter');
    await page.getByRole('button', { name: 'Submit' }).click({ force: true });
    await page.waitForLoadState('networkidle');
    // Only what follows the origin: a port can hold the digits typed (it once was 37867).
    const leaked = urls.concat(page.url()).map((u) => { const url = new URL(u); return url.pathname + url.search + url.hash; })
      .filter((u) => /[?&](fullName|email|phone|address)/.test(u) || u.includes('Secret') || u.includes('867'));
    expect(leaked).toEqual([]);
    expect(page.url()).toBe(`${baseUrl}/demo/form/address/`);
    // Playwright's text and role engines skip <noscript>, so the line is found by its class.
    const line = page.locator('.demo-page__noscript');
    await expect(line.isVisible()).resolves.toBe(true);
    await expect(line.textContent()).resolves.toBe('This demo runs in your browser. Turn on JavaScript to try it.');
    await ctx.close();
  });
});
