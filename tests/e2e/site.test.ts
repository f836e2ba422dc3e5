// The whole site in Chromium. The route checks (every route renders with a title, one <h1> and landmarks,
// passes axe with no serious or critical violation, logs no errors; sector pages state the spec's facts) run in
// four files, a group of routes each (tests/e2e/siteRoutes.ts): the top-level routes here, each area's sector
// pages in site-<area>.test.ts. Here too: the groups hold every route, html-validate, area pages, aliases and
// 404, the sitemap, the shared navigation.
import { describe, expect, it, inject } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO } from '../helpers/cli.ts';
import { SECTOR_FACTS, SECTOR_SLUGS, TOP_LEVEL_ROUTES } from './specFacts.ts';
import { ROUTE_GROUPS, allSectorRoutes, checkRoutes, slash } from './siteRoutes.ts';

const base = inject('baseUrl');
const dist = inject('distDir');
const routes = checkRoutes('site');
const page = () => routes.page();

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
  const all = [...TOP_LEVEL_ROUTES, ...allSectorRoutes];

  it('covers the 67 routes of the spec plus 404', () => {
    expect(all.length).toBe(67);
    for (const r of all) expect(fs.existsSync(path.join(dist, r.slice(1), 'index.html')), r).toBe(true);
    expect(fs.existsSync(path.join(dist, '404.html'))).toBe(true);
  });

  it('checks each route and the facts of each sector page in one group, and each group in its own file', () => {
    const grouped = Object.values(ROUTE_GROUPS).flat();
    expect([...grouped].sort()).toEqual([...all].sort());
    for (const id of Object.keys(SECTOR_FACTS)) expect(grouped, id).toContain(`/for-consumers/${id}`);
    for (const group of Object.keys(ROUTE_GROUPS)) {
      const file = path.join(REPO, 'tests/e2e', `${group}.test.ts`);
      expect(fs.existsSync(file), file).toBe(true);
      expect(fs.readFileSync(file, 'utf8'), file).toContain(`checkRoutes('${group}')`);
    }
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
  it('every sector page has the closing form with the spec labels', async () => {
    for (const r of allSectorRoutes) {
      const html = await (await fetch(base + slash(r))).text();
      expect(html, r).toContain('placeholder="Enter your email"');
      expect(html, r).toMatch(/<button type="submit" class="btn btn--primary"[^>]*>JOIN WAITLIST<\/button>/);
    }
  });

  it('area pages link their 15 categories in order, from the sector data', async () => {
    for (const [area, slugs] of Object.entries(SECTOR_SLUGS)) {
      await page().goto(`${base}/for-consumers/${area}/`);
      const hrefs = await page().locator('.category-grid a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(slugs.map((s) => `/for-consumers/${area}/${s}/`));
      await expect(page().locator('form.waitlist button[type="submit"]').first().textContent()).resolves.toBe('JOIN WAITLIST');
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
    await page().goto(`${base}/for-consumers/hybrid/professional-services`);
    expect(new URL(page().url()).pathname).toBe('/for-consumers/hybrid/professional/');
    await expect(page().locator('h1').textContent()).resolves.toBe('Scale Expert Services');
  });

  it('an unknown path shows the 404 screen with status 404', async () => {
    const res = await page().goto(`${base}/no-such-page/at/all`);
    expect(res?.status()).toBe(404);
    await expect(page().locator('h1').textContent()).resolves.toBe('Page Not Found');
    await expect(page().getByText("Looks like you've wandered off the trail. Let's get you back to camp.").count()).resolves.toBe(1);
    const back = page().getByRole('link', { name: 'Back to Home' });
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
    await page().goto(base + '/');
    const header = await page().locator('.site-header .nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const h of ['/for-consumers/', '/for-consumers/online/', '/for-consumers/hybrid/', '/for-consumers/brick-and-mortar/', '/for-accelerators/', '/for-venture-studios/', '/manifesto/', '/faqs/', '/support/', '/careers/']) expect(header).toContain(h);
    const mobile = await page().locator('.mobile-menu a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(mobile.sort()).toEqual(header.sort());
    const footer = await page().locator('.site-footer a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const h of ['/manifesto/', '/careers/', '/investors/', '/faqs/', '/support/', '/legal/', '/refund-policy/', '/privacy/', '/terms/', '/cookies/', '/acceptable-use/']) expect(footer).toContain(h);
    expect(footer.some((h) => h?.startsWith('https://www.linkedin.com/'))).toBe(true);
    await expect(page().locator('.site-footer a', { hasText: 'All policies' }).getAttribute('href')).resolves.toBe('/legal/');
  });
});
