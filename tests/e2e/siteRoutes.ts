// The route checks of the whole site (every route renders with a title, one <h1> and landmarks, passes axe with
// no serious or critical violation, logs no errors; sector pages state the spec's facts), in groups of routes,
// each group checked by a test file of its own: site.test.ts checks that the groups hold every route of the
// spec once and that each group's file exists and checks it. The groups run at the same time in the suite
// (they were one file, which alone took half of the suite's time).
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeOf } from '../helpers/axe.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';
import { SECTOR_FACTS, SECTOR_SLUGS, BACK_LABELS, TOP_LEVEL_ROUTES } from './specFacts.ts';

export const slash = (p: string) => (p.endsWith('/') ? p : `${p}/`);
export const allSectorRoutes = Object.entries(SECTOR_SLUGS).flatMap(([area, slugs]) => slugs.map((s) => `/for-consumers/${area}/${s}`));

/** Route groups by the test file that checks them (tests/e2e/<group>.test.ts): the top-level routes, and each area's sector pages. */
export const ROUTE_GROUPS: Record<string, readonly string[]> = {
  site: TOP_LEVEL_ROUTES,
  ...Object.fromEntries(Object.keys(SECTOR_SLUGS).map((area) => [`site-${area}`, allSectorRoutes.filter((r) => r.startsWith(`/for-consumers/${area}/`))])),
};

type Facts = (typeof SECTOR_FACTS)[string];
/** What a sector page shows of the spec's facts, read from the page as it is loaded now. */
async function sectorView(page: Page, facts: Facts) {
  const texts = (selector: string) => page.locator(selector).allTextContents();
  const back = page.locator('a.back-link');
  return {
    values: await texts('.metrics-band .stat__value'),
    metricsTitle: await page.locator('.metrics-band h2').textContent(),
    skills: await texts('[aria-labelledby="skills-title"] .item-list strong'),
    models: await texts('[aria-labelledby="models-title"] .item-list strong'),
    badge: facts.badge ? await page.locator('.sector-hero .badge').textContent() : null,
    headline: facts.headline ? await page.locator('h1').textContent() : null,
    theme: await page.locator('main > div').first().getAttribute('data-theme'),
    back: { text: await back.textContent(), href: await back.getAttribute('href') },
  };
}

/**
 * Registers, in the calling test file, the checks of the group's routes and the spec's facts of its sector
 * pages, on one page the file's other tests may use too (`page()`, from the first test on).
 */
export function checkRoutes(group: string): { page: () => Page } {
  const base = inject('baseUrl');
  const routes = ROUTE_GROUPS[group];
  if (!routes) throw new Error(`no route group ${group}`);
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => { await browser?.close(); });

  /** Sector pages as the route tests loaded them, by id ("online/saas"). */
  const seen = new Map<string, Awaited<ReturnType<typeof sectorView>>>();

  describe('every route', () => {
    it.each(routes)('%s renders: 200, title, one h1, landmarks, axe clean, no console errors', async (route) => {
      const problems = watchProblems(page);
      const res = await page.goto(base + slash(route));
      expect(res?.status()).toBe(200);
      expect(await page.title()).toMatch(/\S.*Greatness Gathered\.$/);
      await expect(page.locator('h1').count()).resolves.toBe(1);
      await expect(page.locator('main#main').count()).resolves.toBe(1);
      await expect(page.locator('header.site-header').count()).resolves.toBe(1);
      await expect(page.locator('footer.site-footer').count()).resolves.toBe(1);
      const axe = await axeOf(page).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)).toEqual([]);
      expect(problems.errors).toEqual([]);
      expect(problems.console.filter((m) => !m.includes('net::ERR'))).toEqual([]);
      page.removeAllListeners('console');
      page.removeAllListeners('pageerror');
      // A sector page's facts, read now from this load for the sector tests below (a load and its layout
      // cost more than reading them).
      const sector = route.replace(/^\/for-consumers\//, '');
      if (sector in SECTOR_FACTS) seen.set(sector, await sectorView(page, SECTOR_FACTS[sector]!));
    });
  });

  const facts = Object.entries(SECTOR_FACTS).filter(([id]) => routes.includes(`/for-consumers/${id}`));
  if (facts.length) describe('sector pages', () => {
    it.each(facts)('%s states the spec facts', async (id, facts) => {
      const [area] = id.split('/');
      // The page as the route test above loaded it; loaded here when that test did not run (a filtered run).
      let view = seen.get(id);
      if (!view) {
        await page.goto(`${base}/for-consumers/${id}/`);
        view = await sectorView(page, facts);
      }
      expect(view.values).toHaveLength(4);
      if (facts.metrics) expect(view.values).toEqual(facts.metrics);
      for (const v of facts.metricsInclude ?? []) expect(view.values).toContain(v);
      expect(view.metricsTitle).toBe('Key Metrics');
      expect(view.skills).toHaveLength(4);
      if (facts.skills) expect(view.skills).toEqual(facts.skills);
      expect(view.models).toHaveLength(5);
      if (facts.models) expect(view.models).toEqual(facts.models);
      if (facts.badge) expect(view.badge).toBe(facts.badge);
      if (facts.headline) expect(view.headline).toBe(facts.headline);
      expect(view.theme).toBe(facts.theme ?? null);
      expect(view.back.text).toBe(BACK_LABELS[area]);
      expect(view.back.href).toBe(`/for-consumers/${area}/`);
    });
  });

  return { page: () => page };
}
