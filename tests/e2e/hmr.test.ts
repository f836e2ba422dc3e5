// Hot updates of `sitegen dev` in real Chromium, against an in-process dev server on a throwaway copy of the
// basic fixture (plus an enhancement island and a long page). Every test marks the window first: a marker
// still there after the edit shows the page was updated in place, not reloaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { watchProblems, type PageProblems } from '../helpers/browser.ts';
import { copyFixture, editFile, removeCopy } from '../unit/dev-fixture.ts';
import { devInBrowser, type DevInBrowser } from '../helpers/devInBrowser.ts';

let dir: string;
let site: DevInBrowser;
let url: string;
let browser: Browser;

const TOGGLE = `export default function Toggle({ label }: { label: string }) {
  return (<p className="toggle"><button type="button" data-clicks="0">{label}</button></p>);
}
`;
const TOGGLE_CLIENT = `export function enhance(el: HTMLElement) {
  const b = el.querySelector('button')!;
  b.textContent = 'enhanced v1';
  b.addEventListener('click', () => { b.dataset.clicks = String(Number(b.dataset.clicks) + 1); });
}
`;

beforeAll(async () => {
  dir = copyFixture('basic');
  fs.writeFileSync(path.join(dir, 'templates/islands/Toggle.tsx'), TOGGLE);
  fs.writeFileSync(path.join(dir, 'templates/islands/Toggle.client.ts'), TOGGLE_CLIENT);
  editFile(dir, 'templates/pages.tsx', (t) => t
    .replace("import Counter from './islands/Counter.tsx';", "import Counter from './islands/Counter.tsx';\nimport Toggle from './islands/Toggle.tsx';")
    .replace('<Counter start={2} label="Clicks" /></>', '<Counter start={2} label="Clicks" /><Toggle label="plain" /></>'));
  // A page long enough to scroll, with its last paragraph far below the fold.
  const filler = Array.from({ length: 80 }, (_, i) => `Paragraph ${i} of the long page, to make it scroll.`).join('\n\n');
  fs.writeFileSync(path.join(dir, 'content/pages/long.md'), `---\ntitle: Long\n---\n${filler}\n\nThe last paragraph.\n`);
  site = await devInBrowser(dir);
  ({ url, browser } = site);
});

afterAll(async () => {
  await site?.close();
  if (dir) removeCopy(dir);
});

const TIMEOUT = { timeout: 20_000 };

/** Opens a page once its dev client listens and its islands hydrated, and marks its window. */
async function open(route: string): Promise<{ page: Page; problems: PageProblems }> {
  const page = await browser.newPage();
  const problems = watchProblems(page);
  await page.goto(url + route);
  await page.locator('html[data-sitegen-dev="connected"]').waitFor({ state: 'attached', ...TIMEOUT });
  const islands = await page.locator('sitegen-island').count();
  if (islands) await page.locator('sitegen-island:not([data-hydrated])').first().waitFor({ state: 'detached', ...TIMEOUT });
  await page.evaluate(() => { (window as any).__notReloaded = 'yes'; });
  return { page, problems };
}

const notReloaded = (page: Page) => page.evaluate(() => (window as any).__notReloaded);
const updates = (page: Page) => page.evaluate(() => Number(document.documentElement.dataset.sitegenUpdates ?? 0));

describe('sitegen dev hot updates in the browser', () => {
  it('swaps an edited stylesheet in the open page without a reload', async () => {
    const { page, problems } = await open('/');
    const color = () => page.evaluate(() => getComputedStyle(document.body).color);
    await expect(color()).resolves.toBe('rgb(17, 17, 17)');
    editFile(dir, 'templates/site.css', (t) => t.replace('--fg: #111;', '--fg: rgb(1, 2, 3);'));
    await page.waitForFunction(() => getComputedStyle(document.body).color === 'rgb(1, 2, 3)', null, TIMEOUT);
    expect(await notReloaded(page)).toBe('yes');
    // The new stylesheet replaced the old one; it was not added beside it.
    await expect(page.locator('link[rel="stylesheet"]').count()).resolves.toBe(1);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('updates an edited React island in place and keeps its state (Fast Refresh)', async () => {
    const { page, problems } = await open('/');
    await page.getByRole('button', { name: 'count is 2' }).click();
    await page.getByRole('button', { name: 'count is 3' }).waitFor(TIMEOUT);
    editFile(dir, 'templates/islands/Counter.tsx', (t) => t.replace('count is {n}', 'clicked {n} times'));
    await page.getByRole('button', { name: 'clicked 3 times' }).waitFor(TIMEOUT);
    expect(await notReloaded(page)).toBe('yes');
    // Still the same live component: it goes on counting from 3.
    await page.getByRole('button', { name: 'clicked 3 times' }).click();
    await page.getByRole('button', { name: 'clicked 4 times' }).waitFor(TIMEOUT);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('re-runs an edited enhancement island on a fresh copy of its element', async () => {
    const { page, problems } = await open('/');
    const button = page.locator('.toggle button');
    await expect(button.textContent()).resolves.toBe('enhanced v1');
    editFile(dir, 'templates/islands/Toggle.client.ts', (t) => t.replace("'enhanced v1'", "'enhanced v2'"));
    await page.locator('.toggle button', { hasText: 'enhanced v2' }).waitFor(TIMEOUT);
    expect(await notReloaded(page)).toBe('yes');
    // The old run's listener went with the old element: one click counts once.
    await button.click();
    await expect(button.getAttribute('data-clicks')).resolves.toBe('1');
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('morphs a content edit into the open page, keeping scroll, focus and running islands', async () => {
    const home = await open('/');
    await home.page.getByRole('button', { name: /3 times|count is 3/ }).or(home.page.getByRole('button', { name: /is 2|2 times/ })).first().click();
    const counter = await home.page.locator('sitegen-island[data-island="Counter"] button').textContent();
    const { page, problems } = await open('/long/');
    await page.locator('header a[href="/"]').focus();
    await page.evaluate(() => window.scrollTo(0, 1500));
    const before = await updates(page);
    editFile(dir, 'content/pages/long.md', (t) => t.replace('The last paragraph.', 'The last paragraph, edited.'));
    await page.getByText('The last paragraph, edited.').waitFor(TIMEOUT);
    expect(await notReloaded(page)).toBe('yes');
    expect(await updates(page)).toBe(before + 1);
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(1500);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('href'))).resolves.toBe('/');
    // A content edit elsewhere leaves the open home page's island as it was.
    editFile(dir, 'content/items/alpha.yaml', (t) => t.replace('title: Alpha', 'title: Alpha Morphed'));
    await home.page.getByRole('link', { name: 'Alpha Morphed' }).waitFor(TIMEOUT);
    await expect(home.page.locator('sitegen-island[data-island="Counter"] button').textContent()).resolves.toBe(counter);
    expect(await notReloaded(home.page)).toBe('yes');
    expect([...problems.errors, ...home.problems.errors]).toEqual([]);
    expect([...problems.console, ...home.problems.console]).toEqual([]);
    await Promise.all([page.close(), home.page.close()]);
  });

  it('reloads only the page a change cannot be applied to in place', async () => {
    const { page, problems } = await open('/');
    const other = await open('/about/');
    // A kind of island the open page's runtime has never loaded: that page reloads; the other morphs.
    fs.writeFileSync(path.join(dir, 'templates/islands/Badge.tsx'), 'export default function Badge() { return <b className="badge">new badge</b>; }\n');
    editFile(dir, 'templates/pages.tsx', (t) => t
      .replace("import Toggle from './islands/Toggle.tsx';", "import Toggle from './islands/Toggle.tsx';\nimport Badge from './islands/Badge.tsx';")
      .replace('<Toggle label="plain" /></>', '<Toggle label="plain" /><Badge /></>')
      .replace('<footer>footer</footer>', '<footer>footer after the badge</footer>'));
    await page.locator('.badge', { hasText: 'new badge' }).waitFor(TIMEOUT);
    await other.page.locator('footer', { hasText: 'footer after the badge' }).waitFor(TIMEOUT);
    expect(await notReloaded(page)).toBeUndefined();
    expect(await notReloaded(other.page)).toBe('yes');
    expect([...problems.errors, ...other.problems.errors]).toEqual([]);
    expect([...problems.console, ...other.problems.console]).toEqual([]);
    await Promise.all([page.close(), other.page.close()]);
  });
});
