// Template edits in real Chromium: the open page is rendered first and updated in place (no reload) with
// the state of its React island kept, before the rest of the site has rendered; and a React island's
// package imports (here React, bundled apart from the site's code in dev) still hydrate and refresh.
// An in-process dev server on a throwaway copy of the basic fixture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { watchProblems } from '../helpers/browser.ts';
import { copyFixture, editFile, openEvents, removeCopy } from '../unit/dev-fixture.ts';
import { devInBrowser, type DevInBrowser } from '../helpers/devInBrowser.ts';

let dir: string;
let site: DevInBrowser;
let url: string;
let browser: Browser;

beforeAll(async () => {
  dir = copyFixture('basic');
  site = await devInBrowser(dir);
  ({ url, browser } = site);
});

afterAll(async () => {
  await site?.close();
  if (dir) removeCopy(dir);
});

const TIMEOUT = { timeout: 20_000 };

describe('sitegen dev: template edits reach the open page first', () => {
  it('updates the open page in place, island state kept, announced before the other pages rendered', async () => {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(`${url}/`);
    await page.locator('html[data-sitegen-dev="connected"]').waitFor({ state: 'attached', ...TIMEOUT });
    await page.locator('sitegen-island[data-island="Counter"][data-hydrated]').waitFor({ state: 'attached', ...TIMEOUT });
    await page.evaluate(() => { (window as any).__notReloaded = 'yes'; });
    await page.getByRole('button', { name: 'count is 2' }).click();
    await page.getByRole('button', { name: 'count is 3' }).waitFor(TIMEOUT);
    // What a tool listening beside the page hears: the open route alone first, then the rebuild's end.
    const stream = await openEvents(`${url}/__sitegen/events`);
    try {
      const told = stream.next((e) => e.event === 'reload' || e.event === 'rebuilt', 30_000);
      const rebuilt = stream.next((e) => e.event === 'rebuilt', 30_000);
      editFile(dir, 'templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', '<footer>footer, edited</footer>'));
      expect((await told).data.paths).toEqual(['/']);
      await page.locator('footer', { hasText: 'footer, edited' }).waitFor(TIMEOUT);
      expect(await page.evaluate(() => (window as any).__notReloaded)).toBe('yes');
      // The island was kept: it goes on counting from 3.
      await page.getByRole('button', { name: 'count is 3' }).click();
      await page.getByRole('button', { name: 'count is 4' }).waitFor(TIMEOUT);
      const done = await rebuilt;
      expect(done.data.ok).toBe(true);
      // The last event does not make the open page update a second time.
      const last = stream.events.filter((e) => e.event === 'reload').at(-1)!;
      expect(last.data.except).toEqual(['/']);
      expect(problems.errors).toEqual([]);
      expect(problems.console).toEqual([]);
    } finally {
      stream.close();
      await page.close();
    }
  });
});
