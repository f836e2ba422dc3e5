// The starters of `sitegen init --template`, built under a base (/sub/) and served as a static
// host serves them: every page has no serious or critical axe violation and no console error, and the docs'
// Tabs follow the WAI-ARIA tabs pattern in Chromium (a click or the arrow keys, Home, End show a tab), and its
// search box finds pages and headings from the keyboard (Ctrl+K, the arrow keys, Escape) and the mouse.
import fs from 'node:fs';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { runInit } from '../../cli/init.ts';
import { createServer, createStaticHandler, listen } from '../../src/server/serve.ts';
import { axeOf } from '../helpers/axe.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';
import { filePage } from '../helpers/filePage.ts';
import { siteFrom, type TestSite } from '../helpers/site.ts';

interface Served { site: TestSite; server: http.Server; url: string; pages: string[] }
const served: Record<string, Served> = {};
let browser: Browser;
// The tests take turns on one page (tests/helpers/filePage.ts): each loads what it looks at.
const shared = filePage(() => browser);

/** Init the starter, build it under /sub/ in process, serve its dist/ on a free port. */
async function serveStarter(template: string): Promise<Served> {
  const site = await siteFrom();
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try { expect(await runInit(site.root, { template })).toBe(0); } finally { out.mockRestore(); }
  site.edit('sitegen.config.ts', (t) => t.replace("url: 'https://example.com',", "url: 'https://example.com', base: '/sub/',"));
  const r = await site.build({ quiet: true });
  expect(r.errors, r.stderr).toEqual([]);
  const server = createServer(createStaticHandler({ dir: r.outDir, base: '/sub/', listenHost: '127.0.0.1' }));
  const url = `${await listen(server, 0, '127.0.0.1')}/sub/`;
  const pages = fs.readdirSync(r.outDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html') && f !== '404.html')
    .map((f) => f.replace(/index\.html$/, '').split('\\').join('/')).sort();
  return { site, server, url, pages };
}

beforeAll(async () => {
  browser = await launchBrowser();
  served.blog = await serveStarter('blog');
  served.docs = await serveStarter('docs');
  served.minimal = await serveStarter('minimal');
});

afterAll(async () => {
  await shared.close();
  await browser?.close();
  for (const s of Object.values(served)) { s.server.close(); s.site.remove(); }
});

async function seriousViolations(page: Page): Promise<string[]> {
  const axe = await axeOf(page).analyze();
  return axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

describe.each(['blog', 'docs', 'minimal'])('the %s starter in Chromium', (template) => {
  it('has no serious or critical axe violation and no console error on any page, at 375 and 1280 px', async () => {
    const { url, pages } = served[template]!;
    expect(pages.length).toBeGreaterThan(5);
    for (const width of [375, 1280]) {
      const page = await shared.open({ width, height: 800 });
      const problems = watchProblems(page);
      for (const rel of pages) {
        const res = await page.goto(url + rel);
        expect(res?.status(), rel).toBe(200);
        expect(await seriousViolations(page), `${rel} at ${width}px`).toEqual([]);
        // Nothing wider than the window: no page scrolls sideways (a table of long code names once did at 375 px).
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${rel} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
      }
      expect(problems).toEqual({ console: [], errors: [] });
    }
  });
});

describe('the minimal starter in a dark color scheme', () => {
  it('has no serious or critical axe violation on any page (its dates, footer and highlighted code keep their contrast)', async () => {
    const { url, pages } = served.minimal!;
    const page = await shared.open({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      for (const rel of pages) {
        await page.goto(url + rel);
        expect(await seriousViolations(page), `${rel} (dark)`).toEqual([]);
      }
    } finally { await page.emulateMedia({ colorScheme: 'light' }); }
  });

  it('keeps its contrast in the theme a visitor chose against the system\'s (data-theme on <html>, as a theme switch sets it)', async () => {
    const { url, pages } = served.minimal!;
    const page = await shared.open({ width: 375, height: 800 });
    try {
      for (const [system, chosen] of [['light', 'dark'], ['dark', 'light']] as const) {
        await page.emulateMedia({ colorScheme: system });
        for (const rel of pages) {
          await page.goto(url + rel);
          await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, chosen);
          const link = await page.evaluate(() => getComputedStyle(document.querySelector('a')!).color);
          expect(link, `${rel}: a link's colour follows the chosen ${chosen} theme`).toBe(chosen === 'dark' ? 'rgb(147, 197, 253)' : 'rgb(29, 78, 216)');
          expect(await seriousViolations(page), `${rel} (${chosen} chosen on a ${system} system)`).toEqual([]);
        }
      }
    } finally { await page.emulateMedia({ colorScheme: 'light' }); }
  });
});

describe('the docs starter sidebar', () => {
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Documentation' });
  const toggle = (page: Page) => page.getByRole('button', { name: 'Browse the docs' });

  it('on a narrow screen: a button opens the list over the page, keyboard first, and Escape closes it', async () => {
    const page = await shared.open({ width: 375, height: 800 });
    await page.goto(`${served.docs!.url}getting-started/installation/`);
    expect(await nav(page).isVisible()).toBe(false);
    await toggle(page).focus();
    await page.keyboard.press('Enter');
    expect(await nav(page).isVisible()).toBe(true);
    // (the button's expanded state is the browser's, from its popovertarget: read from the accessibility tree)
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const button = nodes.find((n) => n.role?.value === 'button' && n.name?.value === 'Browse the docs');
    expect(button?.properties?.find((p) => p.name === 'expanded')?.value.value).toBe(true);
    expect(await nav(page).locator('[aria-current="page"]').textContent()).toBe('Installation');
    // Tab goes from the button into the list, the list's first link first.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Introduction');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await nav(page).isVisible()).toBe(false);
    // Opened, then the window widens: the page keeps its column beside the list, and a click outside closes it.
    await toggle(page).click();
    await page.setViewportSize({ width: 1280, height: 800 });
    const main = await page.locator('main').boundingBox();
    expect(main!.x).toBeGreaterThan(250);
    expect(main!.width).toBeGreaterThan(600);
    await page.mouse.click(1000, 400);
    expect(await nav(page).isVisible()).toBe(true); // (closed, it is the wide screen's sidebar again)
    expect(await page.locator('main').boundingBox()).toEqual(main);
  });

  it('on a wide screen: the list beside the page, no button', async () => {
    const page = await shared.open({ width: 1280, height: 800 });
    await page.goto(`${served.docs!.url}getting-started/installation/`);
    expect(await nav(page).isVisible()).toBe(true);
    expect(await toggle(page).isVisible()).toBe(false);
    // One list in the page: a big site writes it once a page, not once for each screen width.
    expect(await page.locator('nav a[aria-current="page"]').count()).toBe(1);
  });
});

describe('the docs starter Tabs', () => {
  let page: Page;
  const tabs = () => page.getByRole('tab');
  const selected = async () => (await page.getByRole('tab', { selected: true }).allTextContents());
  const visiblePanel = async () => (await page.locator('[role="tabpanel"]:not([hidden])').allTextContents()).map((t) => t.trim());

  beforeAll(async () => {
    page = await shared.open({ width: 1280, height: 800 });
    await page.goto(served.docs!.url);
    // The island enhances when it scrolls into view (hydrate="visible").
    await page.locator('.tabs').scrollIntoViewIfNeeded();
    await page.getByRole('tablist').waitFor();
  });

  it('are a tablist whose tabs control labelled panels, the first shown', async () => {
    expect(await tabs().allTextContents()).toEqual(['npm', 'pnpm', 'yarn']);
    expect(await selected()).toEqual(['npm']);
    expect(await visiblePanel()).toEqual(['npm install --save-dev example-tool']);
    for (const tab of await tabs().all()) {
      const panel = page.locator(`#${await tab.getAttribute('aria-controls')}`);
      expect(await panel.getAttribute('role')).toBe('tabpanel');
      expect(await panel.getAttribute('aria-labelledby')).toBe(await tab.getAttribute('id'));
    }
    // Only the selected tab is in the Tab order.
    expect(await tabs().evaluateAll((els) => els.map((e) => (e as HTMLElement).tabIndex))).toEqual([0, -1, -1]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('move focus and the shown tab with the arrow keys, Home and End, wrapping at the ends', async () => {
    await tabs().first().focus();
    await page.keyboard.press('ArrowRight');
    expect(await selected()).toEqual(['pnpm']);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('pnpm');
    expect(await visiblePanel()).toEqual(['pnpm add --save-dev example-tool']);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await selected()).toEqual(['npm']);
    await page.keyboard.press('ArrowLeft');
    expect(await selected()).toEqual(['yarn']);
    await page.keyboard.press('Home');
    expect(await selected()).toEqual(['npm']);
    await page.keyboard.press('End');
    expect(await selected()).toEqual(['yarn']);
    expect(await tabs().evaluateAll((els) => els.map((e) => (e as HTMLElement).tabIndex))).toEqual([-1, -1, 0]);
    // Tab leaves the tablist for the shown panel.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tabpanel');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('yarn add --dev example-tool');
  });

  it('show the tab that is clicked', async () => {
    await page.getByRole('tab', { name: 'pnpm' }).click();
    expect(await selected()).toEqual(['pnpm']);
    expect(await visiblePanel()).toEqual(['pnpm add --save-dev example-tool']);
  });
});

describe('the docs starter search box', () => {
  let page: Page;
  const box = () => page.getByRole('searchbox', { name: 'Search the docs' });
  const results = () => page.locator('#search-results').getByRole('link');
  const status = () => page.locator('#search-status');
  const focused = () => page.evaluate(() => document.activeElement?.textContent || document.activeElement?.id);

  beforeAll(async () => {
    page = await shared.open({ width: 1280, height: 800 });
    await page.goto(`${served.docs!.url}guides/components/`);
    await page.locator('.search[data-state="on"]').waitFor(); // shown once its script runs (hydrate="idle")
  });

  it('is hidden in the HTML the server wrote: without a script it could find nothing', async () => {
    const html = await (await fetch(`${served.docs!.url}guides/components/`)).text();
    expect(html).toMatch(/<div class="search" role="search" data-index="\/sub\/search\.json" data-state="off">/);
  });

  it('Ctrl+K focuses it; typing lists the pages that hold every word, a heading linked where the words are in it', async () => {
    await page.locator('main').click();
    await page.keyboard.press('/'); // (no lone character is a shortcut: WCAG 2.1.4)
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('search-box');
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-box');
    expect(await box().inputValue()).toBe(''); // (the key typed nothing)
    await page.keyboard.type('run it');
    await expect.poll(async () => (await results().allTextContents())[0]).toBe('Installation › Run it');
    expect(await results().first().getAttribute('href')).toBe('/sub/getting-started/installation/#run-it');
    const n = await results().count();
    expect(await status().textContent()).toBe(`${n} result${n === 1 ? '' : 's'}`);
    expect(await seriousViolations(page)).toEqual([]);
    // A page whose title holds the words comes before the rest.
    await box().fill('search');
    await expect.poll(async () => (await results().allTextContents())[0]).toBe('Search');
    expect(await results().first().getAttribute('href')).toBe('/sub/guides/search/');
  });

  it('the arrow keys move between the box and the results, Escape empties it, and Enter follows a result', async () => {
    await box().fill('page');
    await expect.poll(() => results().count()).toBeGreaterThan(1);
    const [first, second] = await results().allTextContents();
    await box().focus();
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(first);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(second);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('search-box');
    await page.keyboard.press('Escape');
    expect(await box().inputValue()).toBe('');
    expect(await results().count()).toBe(0);
    expect(await status().textContent()).toBe('');
    await box().fill('run it');
    await expect.poll(() => results().count()).toBeGreaterThan(0);
    await page.keyboard.press('ArrowDown');
    await Promise.all([page.waitForURL('**/getting-started/installation/#run-it'), page.keyboard.press('Enter')]);
    await page.locator('.search[data-state="on"]').waitFor();
  });

  it('says when nothing matches, and its results close when focus leaves them', async () => {
    await box().fill('zzqx');
    await expect.poll(() => status().textContent()).toBe('No page matches “zzqx”');
    await box().fill('install');
    await expect.poll(() => results().count()).toBeGreaterThan(0);
    expect(await page.locator('.search-results').isVisible()).toBe(true);
    await page.locator('main h1').click();
    expect(await page.locator('.search-results').isVisible()).toBe(false);
    await box().focus();
    expect(await page.locator('.search-results').isVisible()).toBe(true);
    // A click on a result follows it (the box keeps the focus until then).
    await Promise.all([page.waitForURL('**/getting-started/installation/'), results().first().click()]);
  });
});
