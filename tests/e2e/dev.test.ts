// `sitegen dev` in real Chromium, on a throwaway copy of the basic fixture (the suite's global setup serves
// the real site; this file ignores it and runs its own dev server). An edit shows in the open page; other
// pages stay as they are; a schema error shows an overlay naming file and line in every open page (and in
// pages opened while broken) and clears when fixed; a template edit shows; unknown paths get a 404; and the
// strict CSP of _headers holds throughout (no violation, the overlay's stylesheet applies).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { watchProblems, type PageProblems } from '../helpers/browser.ts';
import { openFixtureSite, type FixtureSite } from '../helpers/fixtureSite.ts';
import { editFile } from '../unit/dev-fixture.ts';

let site: FixtureSite;
let dir: string;
let server: FixtureSite['server'];
let browser: Browser;

beforeAll(async () => {
  site = await openFixtureSite('basic', { command: (d) => ['dev', '--root', d, '--port', '0', '--no-backend'] });
  ({ dir, server, browser } = site);
});
afterAll(() => site?.close());

/** Opens a page and waits until its dev client is listening, so no change can slip by unseen. */
async function open(path: string): Promise<{ page: Page; problems: PageProblems }> {
  const page = await browser.newPage();
  const problems = watchProblems(page);
  await page.goto(server.url + path);
  await page.locator('html[data-sitegen-dev="connected"]').waitFor({ state: 'attached', timeout: 15_000 });
  return { page, problems };
}

const TIMEOUT = { timeout: 20_000 };

describe('sitegen dev in the browser', () => {
  it('shows a content edit in the open page and leaves other pages alone', async () => {
    const { page, problems } = await open('/items/alpha/');
    const other = await open('/about/');
    await other.page.evaluate(() => { (window as any).__notReloaded = true; });
    editFile(dir, 'content/items/alpha.yaml', (t) => t.replace('title: Alpha', 'title: Alpha Edited'));
    await page.locator('h1', { hasText: 'Alpha Edited' }).waitFor(TIMEOUT);
    await expect(other.page.evaluate(() => (window as any).__notReloaded)).resolves.toBe(true);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await Promise.all([page.close(), other.page.close()]);
  });

  it('shows a schema error as an overlay naming file and line in every open page, then recovers', async () => {
    const { page, problems } = await open('/items/alpha/');
    const other = await open('/about/');
    editFile(dir, 'content/items/alpha.yaml', (t) => t.replace('price: 3', 'price: three'));
    for (const p of [page, other.page]) {
      await p.locator('sitegen-dev-overlay .where').waitFor(TIMEOUT);
      await expect(p.locator('sitegen-dev-overlay .where').textContent()).resolves.toBe('content/items/alpha.yaml:3:8');
    }
    await expect(page.locator('sitegen-dev-overlay .frame').textContent()).resolves.toContain('3 | price: three');
    await expect(page.locator('sitegen-dev-overlay .frame').textContent()).resolves.toContain('price: Expected number, received string "three"');
    // The overlay is styled by its stylesheet, which the strict CSP (style-src 'self') lets through.
    await expect(page.locator('sitegen-dev-overlay .panel').evaluate((e) => getComputedStyle(e).position)).resolves.toBe('fixed');
    // The last good page is still what is served; a page opened now shows the overlay too.
    await expect(page.locator('h1').textContent()).resolves.toBe('Alpha Edited');
    const late = await open('/items/beta/');
    await late.page.locator('sitegen-dev-overlay .where').waitFor(TIMEOUT);

    editFile(dir, 'content/items/alpha.yaml', (t) => t.replace('price: three', 'price: 33'));
    await page.getByText('$33').waitFor(TIMEOUT);
    for (const p of [page, other.page, late.page]) await p.locator('sitegen-dev-overlay').waitFor({ state: 'detached', ...TIMEOUT });
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await Promise.all([page.close(), other.page.close(), late.page.close()]);
  });

  it('shows a template edit, and hydrates islands as in a build', async () => {
    const { page, problems } = await open('/');
    await page.locator('sitegen-island[data-island="Counter"][data-hydrated]').waitFor({ state: 'attached', ...TIMEOUT });
    editFile(dir, 'templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', '<footer>footer from dev</footer>'));
    await page.locator('footer', { hasText: 'footer from dev' }).waitFor(TIMEOUT);
    await page.locator('sitegen-island[data-island="Counter"][data-hydrated]').waitFor({ state: 'attached', ...TIMEOUT });
    await page.getByRole('button', { name: 'count is 2' }).click();
    await page.getByRole('button', { name: 'count is 3' }).waitFor(TIMEOUT);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('answers an unknown path with the 404 page and status 404', async () => {
    const page = await browser.newPage();
    const res = await page.goto(server.url + '/no/such/page/');
    expect(res?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Page Not Found');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.close();
  });

  it('turns an open 404 into the page once its content file is added', async () => {
    const { page, problems } = await open('/items/gamma/');
    await expect(page.locator('h1').textContent()).resolves.toBe('Page Not Found');
    fs.writeFileSync(path.join(dir, 'content/items/gamma.yaml'), 'title: Gamma\ntags: [e, f]\nprice: 7\n');
    await page.locator('h1', { hasText: 'Gamma' }).waitFor(TIMEOUT);
    expect(problems.errors).toEqual([]);
    await page.close();
  });
});
