// Template edits in real Chromium: the open page is rendered first and updated in place (no reload) with
// the state of its React island kept, before the rest of the site has rendered; and a React island's
// package imports (here React, bundled apart from the site's code in dev) still hydrate and refresh.
// An in-process dev server on a throwaway copy of the basic fixture.
import fs from 'node:fs';
import path from 'node:path';
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
const read = (rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');
const write = (rel: string, text: string) => fs.writeFileSync(path.join(dir, rel), text);

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

describe('sitegen dev: island edits that break, and edits undone', () => {
  it('an edit that makes a React island throw: the overlay locates it in the island; the fix reloads the page and brings the island back', async () => {
    const page = await browser.newPage();
    const original = read('templates/islands/Counter.tsx');
    try {
      await page.goto(`${url}/`);
      await page.locator('html[data-sitegen-dev="connected"]').waitFor({ state: 'attached', ...TIMEOUT });
      await page.locator('sitegen-island[data-island="Counter"][data-hydrated]').waitFor({ state: 'attached', ...TIMEOUT });
      await page.getByRole('button', { name: 'count is 2' }).click();
      await page.getByRole('button', { name: 'count is 3' }).waitFor(TIMEOUT);
      await page.evaluate(() => { (window as any).__notReloaded = 'yes'; });
      // (it throws once its count is past 2: at once, in the refresh, with its state kept)
      editFile(dir, 'templates/islands/Counter.tsx', (t) => t.replace('const [n, setN] = useState(start);', "const [n, setN] = useState(start);\n  if (n > 2) throw new Error('Boom in a hot update');"));
      await expect.poll(() => page.locator('sitegen-dev-overlay .where').first().textContent().catch(() => null), TIMEOUT).toMatch(/^templates\/islands\/Counter\.tsx:5:\d+$/);
      // The overlay stays while the page takes the rebuild's HTML (it is the dev client's, not the page's).
      await page.waitForTimeout(500);
      expect(await page.locator('sitegen-dev-overlay').count()).toBe(1);
      // (the fix says something new: the page reloads onto the rebuild's code, not the last build's)
      write('templates/islands/Counter.tsx', original.replace('count is {n}', 'counted {n}'));
      await page.getByRole('button', { name: 'counted 2' }).waitFor(TIMEOUT);
      expect(await page.evaluate(() => (window as any).__notReloaded)).toBeUndefined();
      expect(await page.locator('sitegen-dev-overlay').count()).toBe(0);
    } finally {
      write('templates/islands/Counter.tsx', original);
      await page.close();
    }
  });

  it('an island edit undone shows its code as it was; with the island\'s props changed in the same save, no hydration error', async () => {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    const island = read('templates/islands/Counter.tsx');
    const pages = read('templates/pages.tsx');
    try {
      await page.goto(`${url}/`);
      await page.locator('html[data-sitegen-dev="connected"]').waitFor({ state: 'attached', ...TIMEOUT });
      await page.locator('sitegen-island[data-island="Counter"][data-hydrated]').waitFor({ state: 'attached', ...TIMEOUT });
      for (const [code, start, button] of [["'clicked '", '7', 'clicked 7'], ['null', '2', 'count is 2']] as const) {
        // (both files in one save, as a checkout or a search and replace writes them; the second round undoes the first)
        write('templates/islands/Counter.tsx', code === 'null' ? island : island.replace('count is {n}', 'clicked {n}'));
        write('templates/pages.tsx', pages.replace('<Counter start={2}', `<Counter start={${start}}`));
        await page.getByRole('button', { name: button, exact: true }).waitFor(TIMEOUT);
      }
      await page.waitForTimeout(500);
      expect(problems.console.filter((m) => /hydrat/i.test(m))).toEqual([]);
      expect(await page.locator('sitegen-dev-overlay').count()).toBe(0);
    } finally {
      write('templates/islands/Counter.tsx', island);
      write('templates/pages.tsx', pages);
      await page.close();
    }
  });
});
