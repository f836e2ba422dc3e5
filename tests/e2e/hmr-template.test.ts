// A template edit in real Chromium against an in-process dev server on a copy of the basic fixture: the open
// page takes its new HTML from the update's event (it does not ask the server again, which is busy rendering
// the rest of the site), in place, with its island's state kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchProblems } from '../helpers/browser.ts';
import { copyFixture, editFile, removeCopy } from '../unit/dev-fixture.ts';
import { devInBrowser, type DevInBrowser } from '../helpers/devInBrowser.ts';

let dir: string;
let site: DevInBrowser;

beforeAll(async () => {
  dir = copyFixture('basic');
  site = await devInBrowser(dir);
});

afterAll(async () => {
  await site?.close();
  if (dir) removeCopy(dir);
});

const TIMEOUT = { timeout: 20_000 };

describe('a template edit in the browser', () => {
  it('applies the open page\'s new HTML from the event, in place, without asking for the page again', async () => {
    const page = await site.browser.newPage();
    const problems = watchProblems(page);
    await page.goto(`${site.url}/`);
    await page.locator('html[data-sitegen-dev="connected"]').waitFor({ state: 'attached', ...TIMEOUT });
    await page.locator('sitegen-island[data-hydrated]').first().waitFor({ state: 'attached', ...TIMEOUT });
    await page.getByRole('button', { name: 'count is 2' }).click();
    await page.getByRole('button', { name: 'count is 3' }).waitFor(TIMEOUT);
    await page.evaluate(() => { (window as any).__notReloaded = 'yes'; });
    const asked: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'document' || r.resourceType() === 'fetch') asked.push(new URL(r.url()).pathname); });

    editFile(dir, 'templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', '<footer>footer, edited</footer>'));
    await page.locator('footer', { hasText: 'footer, edited' }).waitFor(TIMEOUT);

    expect(await page.evaluate(() => (window as any).__notReloaded)).toBe('yes');
    expect(asked).toEqual([]);
    await expect(page.getByRole('button', { name: 'count is 3' }).count()).resolves.toBe(1);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });
});
