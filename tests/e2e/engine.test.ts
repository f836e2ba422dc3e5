// The engine end to end: a copy of the fixture site, built and served by the engine's preview (in this
// process, as `sitegen build` and `sitegen preview` run them), seen in real Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { PreviewServer } from '../../src/server/preview.ts';
import { copyOf, type TestSite } from '../helpers/site.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';

let site: TestSite;
let server: PreviewServer;
let browser: Browser;

beforeAll(async () => {
  site = await copyOf('basic');
  const b = await site.build({ quiet: true });
  if (b.code !== 0) throw new Error(b.stderr);
  server = await site.preview();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  site?.remove();
});

describe('sitegen preview of the fixture site', () => {
  it('renders the page and hydrates its island without React warnings', async () => {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    const res = await page.goto(server.url + '/');
    expect(res?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Fixture');
    await page.locator('sitegen-island[data-island="Counter"][data-hydrated]').waitFor({ state: 'attached' });
    const button = page.getByRole('button', { name: 'count is 2' });
    await button.click();
    await page.getByRole('button', { name: 'count is 3' }).waitFor();
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('ships no script on a page without islands', async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(r.url()); });
    await page.goto(server.url + '/items/alpha/');
    await expect(page.locator('h1').textContent()).resolves.toBe('Alpha');
    expect(scripts).toEqual([]);
    await page.close();
  });

  it('answers an unknown path with the 404 page and status 404', async () => {
    const page = await browser.newPage();
    const res = await page.goto(server.url + '/no/such/page');
    expect(res?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Page Not Found');
    await page.close();
  });

  it('redirects an alias with 301 and sends the CSP of _headers', async () => {
    const res = await fetch(server.url + '/old/alpha', { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/items/alpha/');
    const home = await fetch(server.url + '/');
    expect(home.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});

describe('one URL per page', () => {
  it('redirects a page URL without its trailing slash, keeping the query', async () => {
    const res = await fetch(server.url + '/about?x=1', { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/about/?x=1');
    expect((await fetch(server.url + '/about/', { redirect: 'manual' })).status).toBe(200);
    expect((await fetch(server.url + '/favicon.svg', { redirect: 'manual' })).status).toBe(200);
  });
});
