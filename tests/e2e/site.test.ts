// The whole site in Chromium: every route renders with a title, one <h1> and landmarks, passes axe with no
// serious or critical violation, logs no errors; sector pages state the spec's facts; aliases and 404 work.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { axeOf } from '../helpers/axe.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';
import { REPO } from '../helpers/cli.ts';
import { SECTOR_FACTS, SECTOR_SLUGS, BACK_LABELS, TOP_LEVEL_ROUTES } from './specFacts.ts';

const base = inject('baseUrl');
const dist = inject('distDir');
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
});
afterAll(async () => { await browser?.close(); });

const slash = (p: string) => (p.endsWith('/') ? p : `${p}/`);
const allSectorRoutes = Object.entries(SECTOR_SLUGS).flatMap(([area, slugs]) => slugs.map((s) => `/for-consumers/${area}/${s}`));

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
/** Sector pages as the route tests loaded them, by id ("online/saas"). */
const seen = new Map<string, Awaited<ReturnType<typeof sectorView>>>();

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, f.name);
    if (f.isDirectory()) out.push(...htmlFiles(p));
    else if (f.name.endsWith('.html')) out.push(p);
  }
  return out;
}

describe('every route', () => {
  const routes = [...TOP_LEVEL_ROUTES, ...allSectorRoutes];

  it('covers the 67 routes of the spec plus 404', () => {
    expect(routes.length).toBe(67);
    for (const r of routes) expect(fs.existsSync(path.join(dist, r.slice(1), 'index.html')), r).toBe(true);
    expect(fs.existsSync(path.join(dist, '404.html'))).toBe(true);
  });

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

describe('html-validate', () => {
  it('finds no error in any HTML file of dist/', () => {
    const files = htmlFiles(dist);
    expect(files.length).toBeGreaterThan(100); // pages plus alias pages
    // The repository's rules by name: the build is in a temp folder, where html-validate would find none.
    const r = spawnSync(process.execPath, [path.join(REPO, 'node_modules/html-validate/bin/html-validate.mjs'), '--config', path.join(REPO, '.htmlvalidate.json'), '--formatter', 'text', ...files], { encoding: 'utf8', cwd: REPO });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('sector pages', () => {
  it.each(Object.entries(SECTOR_FACTS))('%s states the spec facts', async (id, facts) => {
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

  it('every sector page has the closing form with the spec labels', async () => {
    for (const r of allSectorRoutes) {
      const html = await (await fetch(base + slash(r))).text();
      expect(html, r).toContain('placeholder="Enter your email"');
      expect(html, r).toMatch(/<button type="submit" class="btn btn--primary"[^>]*>JOIN WAITLIST<\/button>/);
    }
  });

  it('the ecommerce page has its three extra sections', async () => {
    await page.goto(`${base}/for-consumers/online/ecommerce/`);
    const h2 = await page.locator('main h2').allTextContents();
    for (const t of ['Tech Stack Essentials', 'Growth Channels', 'Common Challenges & Solutions']) expect(h2).toContain(t);
  });

  it('area pages link their 15 categories in order, from the sector data', async () => {
    for (const [area, slugs] of Object.entries(SECTOR_SLUGS)) {
      await page.goto(`${base}/for-consumers/${area}/`);
      const hrefs = await page.locator('.category-grid a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(slugs.map((s) => `/for-consumers/${area}/${s}/`));
      await expect(page.locator('form.waitlist button[type="submit"]').first().textContent()).resolves.toBe('JOIN WAITLIST');
    }
  });
});

describe('aliases and 404', () => {
  it.each(allSectorRoutes)('the flat form of %s redirects to it', async (route) => {
    const [, , area, slug] = route.split('/');
    const res = await fetch(`${base}/for-consumers_/${area}_/${slug}`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(slash(route));
    const page = fs.readFileSync(path.join(dist, `for-consumers_/${area}_/${slug}/index.html`), 'utf8');
    expect(page).toContain(`<meta http-equiv="refresh" content="0; url=${slash(route)}">`);
  });

  it('professional-services is the professional page', async () => {
    await page.goto(`${base}/for-consumers/hybrid/professional-services`);
    expect(new URL(page.url()).pathname).toBe('/for-consumers/hybrid/professional/');
    await expect(page.locator('h1').textContent()).resolves.toBe('Scale Expert Services');
  });

  it('an unknown path shows the 404 screen with status 404', async () => {
    const res = await page.goto(`${base}/no-such-page/at/all`);
    expect(res?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Page Not Found');
    await expect(page.getByText("Looks like you've wandered off the trail. Let's get you back to camp.").count()).resolves.toBe(1);
    const back = page.getByRole('link', { name: 'Back to Home' });
    await expect(back.getAttribute('href')).resolves.toBe('/');
  });

  it('the sitemap lists real pages but not 404, demos or aliases', () => {
    const sitemap = fs.readFileSync(path.join(dist, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('<loc>https://greatnessgathered.com/for-consumers/online/saas/</loc>');
    expect(sitemap).not.toMatch(/404|\/demo\/|for-consumers_/);
    expect(sitemap.match(/<loc>/g)).toHaveLength(65);
  });
});

describe('shared navigation', () => {
  it('header and footer carry every link of the spec', async () => {
    await page.goto(base + '/');
    const header = await page.locator('.site-header .nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const h of ['/for-consumers/', '/for-consumers/online/', '/for-consumers/hybrid/', '/for-consumers/brick-and-mortar/', '/for-accelerators/', '/for-venture-studios/', '/manifesto/', '/faqs/', '/support/', '/careers/']) expect(header).toContain(h);
    const mobile = await page.locator('.mobile-menu a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(mobile.sort()).toEqual(header.sort());
    const footer = await page.locator('.site-footer a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const h of ['/manifesto/', '/careers/', '/investors/', '/faqs/', '/support/', '/legal/', '/refund-policy/', '/privacy/', '/terms/', '/cookies/', '/acceptable-use/']) expect(footer).toContain(h);
    expect(footer.some((h) => h?.startsWith('https://www.linkedin.com/'))).toBe(true);
    await expect(page.locator('.site-footer a', { hasText: 'All policies' }).getAttribute('href')).resolves.toBe('/legal/');
  });
});
