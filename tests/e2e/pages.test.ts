// Pages as a visitor sees them, in Chromium on the site the e2e global setup built and serves: the five
// policies readable as our own pages with every third party cut off, the strict CSP on home, card lists
// without stray markers, card grids without lopsided rows, and the smaller layout promises (stats 2×2
// on phones, the footer at the bottom of short pages, a form where the manifesto says the waitlist is open).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchEnd } from '../../plugins/launchDate.ts';
import { launchBrowser, watchProblems } from '../helpers/browser.ts';
import { filePage } from '../helpers/filePage.ts';

const base = inject('baseUrl');
const POLICIES = ['/privacy/', '/terms/', '/cookies/', '/app-privacy/', '/acceptable-use/'];
let browser: Browser;
// The tests that only load and read pages take turns on one page (tests/helpers/filePage.ts).
const shared = filePage(() => browser);
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await shared.close(); await browser?.close(); });

/** A page whose every request to another origin is aborted, as with a strict blocker or no network. */
async function sameOriginOnly(width = 1280, height = 900): Promise<{ page: Page; blocked: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const origin = new URL(base).origin;
  const blocked: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || new URL(url).origin === origin) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  return { page, blocked };
}

describe('policies', () => {
  it('each policy page shows its own text, an h1 and numbered sections, with every third-party request blocked', async () => {
    const { page, blocked } = await sameOriginOnly();
    const problems = watchProblems(page);
    for (const route of POLICIES) {
      expect((await page.goto(base + route))?.status(), route).toBe(200);
      await expect(page.locator('h1').count(), route).resolves.toBe(1);
      const sections = page.locator('main .legal-section h2');
      expect(await sections.count(), route).toBeGreaterThanOrEqual(5);
      const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
      expect(text.length, `${route} text length`).toBeGreaterThan(1200);
      expect(await page.getByRole('alert').count(), route).toBe(0);
      // Every contents link leads to a section on the page.
      const targets = await page.locator('.legal-toc a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).hash));
      expect(targets.length, route).toBe(await sections.count());
      for (const t of targets) expect(await page.locator(t).count(), `${route} ${t}`).toBe(1);
    }
    expect(blocked).toEqual([]);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('the privacy policy states the facts of the spec and what the waitlist really stores', async () => {
    const text = await (await fetch(base + '/privacy/')).text();
    for (const fact of ['AES-256', 'TLS 1.3', '72 hours', '30 calendar days', 'utm_source', 'user-agent', 'referring page', 'Supabase', 'privacy@greatnessgathered.com']) {
      expect(text, fact).toContain(fact);
    }
    const cookies = await (await fetch(base + '/cookies/')).text();
    for (const fact of ['sets no cookies', 'Session storage', 'policy-storage']) expect(cookies, fact).toContain(fact);
    const terms = await (await fetch(base + '/terms/')).text();
    for (const fact of ['Delaware', '2-3 business days', '7-14 business days']) expect(terms, fact).toContain(fact);
  });
});

describe('content security policy', () => {
  it("home's script, frame, style, font and connect sources name no third-party origin", async () => {
    const csp = (await fetch(base + '/')).headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    // img-src belongs to the logo strip's own issue; every other directive must be self-only.
    for (const name of ['script-src', 'frame-src', 'style-src', 'font-src', 'connect-src', 'default-src']) {
      const thirdParty = (directives[name] ?? []).filter((s: string) => /^https?:/.test(s));
      expect(thirdParty, name).toEqual([]);
    }
  });
});

/** Cards of every card list on the page: their list-marker style and how many sit in each row. */
async function cardLists(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((lists) => lists.map((list) => {
    const items = [...list.children].filter((c) => (c as HTMLElement).offsetParent !== null) as HTMLElement[];
    const rows = new Map<number, number>();
    for (const li of items) { const top = Math.round(li.getBoundingClientRect().top + scrollY); rows.set(top, (rows.get(top) ?? 0) + 1); }
    const markers = items.map((li) => {
      const s = getComputedStyle(li);
      const marker = getComputedStyle(li, '::marker').content;
      return s.display === 'list-item' && s.listStyleType !== 'none' && marker !== 'none' && marker !== '""' ? s.listStyleType : 'none';
    });
    const heading = list.closest('section')?.querySelector('h2')?.textContent ?? '';
    // How much of the list's width its cards cover: three cards in a four-column grid leave a quarter empty.
    const box = list.getBoundingClientRect(), cs = getComputedStyle(list);
    const inner = box.width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const rects = items.map((li) => li.getBoundingClientRect());
    const fill = rects.length ? (Math.max(...rects.map((r) => r.right)) - Math.min(...rects.map((r) => r.left))) / inner : 1;
    return { heading, rows: [...rows.values()], markers, fill };
  }));
}

const CARD_PAGES = ['/', '/for-consumers/', '/for-consumers/online/', '/for-consumers/hybrid/', '/for-consumers/brick-and-mortar/', '/for-consumers/online/ecommerce/', '/for-consumers/online/saas/', '/careers/'];
const CARD_LISTS = 'main ul.cards, main ol.cards, main ul.grid, main ul.category-grid, main ul.stats';

describe('card lists and grids', () => {
  for (const width of [1280, 375]) {
    it(`show no list markers and hold the same number of cards in every row at ${width} px`, async () => {
      const page = await shared.open({ width, height: 900 });
      for (const route of CARD_PAGES) {
        await page.goto(base + route);
        const lists = await cardLists(page, CARD_LISTS);
        expect(lists.length, route).toBeGreaterThan(0);
        for (const l of lists) {
          expect(l.markers.filter((m) => m !== 'none'), `${route} "${l.heading}" markers`).toEqual([]);
          expect(new Set(l.rows).size, `${route} "${l.heading}" rows ${JSON.stringify(l.rows)}`).toBe(1);
          expect(l.fill, `${route} "${l.heading}": cards cover the width of their grid`).toBeGreaterThan(0.97);
        }
      }
    });
  }

  it('stats sit 2×2 on a phone', async () => {
    const page = await shared.open({ width: 375, height: 812 });
    await page.goto(base + '/');
    const [stats] = await cardLists(page, 'main ul.stats');
    expect(stats.rows).toEqual([2, 2]);
  });
});

describe('layout', () => {
  it('the footer sits at the bottom of the window on a short page', async () => {
    const page = await shared.open({ width: 1280, height: 2000 });
    for (const route of ['/for-venture-studios/', '/404.html', '/support/']) {
      await page.goto(base + route);
      const bottom = await page.locator('footer.site-footer').evaluate((f) => Math.round(f.getBoundingClientRect().bottom));
      expect(bottom, route).toBeGreaterThanOrEqual(2000);
    }
  });

  it('the manifesto, which ends by saying the waitlist is open, is followed by the waitlist form', async () => {
    const page = await shared.open({ width: 1280, height: 900 });
    await page.goto(base + '/manifesto/');
    const lastParagraph = page.locator('main .manifesto p').last();
    expect(await lastParagraph.textContent()).toMatch(/waitlist is open/i);
    const form = page.locator('main form.waitlist');
    expect(await form.count()).toBe(1);
    const [pTop, fTop] = await Promise.all([lastParagraph.evaluate((e) => e.getBoundingClientRect().top), form.evaluate((e) => e.getBoundingClientRect().top)]);
    expect(fTop).toBeGreaterThan(pTop);
    expect(await form.getByRole('button', { name: 'JOIN WAITLIST' }).count()).toBe(1);
  });

  it('area and sector pages have a waitlist form in the first screen, and keep the closing one', async () => {
    const page = await shared.open({ width: 375, height: 812 });
    for (const route of ['/for-consumers/online/', '/for-consumers/brick-and-mortar/', '/for-consumers/online/saas/', '/for-consumers/hybrid/real-estate/']) {
      await page.goto(base + route);
      const forms = page.locator('main form.waitlist');
      expect(await forms.count(), route).toBe(2);
      const top = await forms.first().locator('button[type=submit]').evaluate((b) => b.getBoundingClientRect().bottom);
      expect(top, route).toBeLessThanOrEqual(812);
      expect(await forms.first().locator('input[type=email]').getAttribute('placeholder'), route).toBe('Enter your email');
    }
  });
});

describe('dates', () => {
  it('the launch date is one constant: pages state its month only while it is ahead, and © is the build year', async () => {
    const yaml = (await import('yaml')).parse((await import('node:fs')).readFileSync(new URL('../../content/site.yaml', import.meta.url), 'utf8'));
    const passed = new Date() >= launchEnd(yaml.launch)!;
    const page = await shared.open();
    for (const route of ['/', '/faqs/', '/for-consumers/online/saas/']) {
      await page.goto(base + route);
      const text = await page.locator('body').innerText();
      const stated = [...text.matchAll(/(January|February|March|April|May|June|July|August|September|October|November|December|Sept) (\d{4})/g)].map((m) => m[0]);
      expect(new Set(stated), route).toEqual(new Set(passed ? [] : [yaml.launch]));
      expect(text, route).toContain(`© ${new Date().getUTCFullYear()} `);
      expect(text, route).not.toMatch(/100% Verified/);
    }
  });
});

describe('typeface', () => {
  it('is served from the site, and a late font moves nothing (CLS 0)', async () => {
    for (const width of [1280, 375]) {
      for (const route of ['/', '/legal/', '/faqs/', '/for-consumers/online/saas/']) {
        const page = await browser.newPage({ viewport: { width, height: width === 375 ? 812 : 900 } });
        const fonts: string[] = [];
        // The font is held until the page has painted its content with the fallback face: it arrives late
        // by construction, not after a guessed number of milliseconds.
        let release!: () => void;
        const painted = new Promise<void>((r) => { release = r; });
        await page.route('**/*.woff2', async (r) => { fonts.push(r.request().url()); await painted; await r.continue().catch(() => {}); });
        const font = page.waitForResponse((r) => r.url().endsWith('.woff2'));
        await page.addInitScript(() => {
          (window as any).__cls = 0;
          new PerformanceObserver((l) => { for (const e of l.getEntries() as any[]) if (!e.hadRecentInput) (window as any).__cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(base + route, { waitUntil: 'domcontentloaded' });
        await page.evaluate(() => new Promise<void>((resolve) => {
          new PerformanceObserver((l, o) => { if (l.getEntriesByName('first-contentful-paint').length) { o.disconnect(); resolve(); } }).observe({ type: 'paint', buffered: true });
        }));
        release();
        await (await font).finished();
        // Every face loaded (or given up), then two frames: any shift the font caused is recorded by then.
        await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
        expect(fonts.every((u) => u.startsWith(new URL(base).origin + '/assets/')), `${route} ${fonts}`).toBe(true);
        expect(await page.evaluate(() => (window as any).__cls), `${route} at ${width}`).toBe(0);
        expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Inter Variable"/);
        await page.close();
      }
    }
  });
});

describe('capitalisation', () => {
  const words = (t: string) => t.match(/[A-Za-z][A-Za-z'’-]{3,}/g) ?? [];
  const PROPER = /^(Greatness|Gathered|Co-Founder|Founder|SaaS)$/;
  it('labels (chips, stats, steps) are names in Title Case; section headings are sentences', async () => {
    const page = await shared.open();
    for (const route of ['/', '/for-consumers/', '/for-consumers/online/', '/faqs/', '/careers/']) {
      await page.goto(base + route);
      const labels = await page.locator('main .chip, main .stat__label, main .steps h3').allInnerTexts();
      for (const l of labels) expect(words(l).filter((w) => w[0] !== w[0].toUpperCase()), `${route} label "${l}"`).toEqual([]);
      const headings = await page.locator('main h2').allInnerTexts();
      for (const h of headings) expect(words(h).slice(1).filter((w) => w[0] === w[0].toUpperCase() && !PROPER.test(w)), `${route} heading "${h}"`).toEqual([]);
    }
  });
});

describe('design', () => {
  it('the home hero shows its match preview beside the form on desktop and under it on a phone, inside the screen, with no image request', async () => {
    for (const [width, beside] of [[1280, true], [375, false]] as const) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const images: string[] = [];
      page.on('request', (r) => { if (r.resourceType() === 'image') images.push(r.url()); });
      await page.goto(base + '/');
      const figure = page.locator('.hero figure.match');
      await expect(figure.isVisible(), `${width}`).resolves.toBe(true);
      const box = (await figure.boundingBox())!;
      const form = (await page.locator('.hero form').first().boundingBox())!;
      expect(box.x, `${width}`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${width}`).toBeLessThanOrEqual(width);
      expect(box.height, `${width}`).toBeGreaterThan(150);
      if (beside) expect(box.y, 'desktop: in the first screen').toBeLessThan(900);
      else expect(box.y, 'phone: after the form').toBeGreaterThanOrEqual(form.y + form.height);
      // Two sample people, a score, the reasons, and a caption saying it is an illustration.
      await expect(figure.locator('.match__card').count()).resolves.toBe(2);
      await expect(figure.locator('.match__caption').innerText()).resolves.not.toBe('');
      expect(images.filter((u) => !u.includes('/logos/')), `${width}: the preview draws no image`).toEqual([]);
      await page.close();
    }
  });

  it('call-to-action cards have even padding: as much room above their content as below, left as right', async () => {
    for (const width of [375, 1280]) {
      const page = await shared.open({ width, height: 900 });
      for (const route of ['/', '/for-consumers/online/saas/', '/for-consumers/', '/manifesto/', '/faqs/']) {
        await page.goto(base + route);
        const cards = await page.locator('.cta-card').evaluateAll((els) => els.map((el) => {
          // What a visitor sees as the card's content: text, controls and images (wrappers such as an island's
          // inline custom element, and an empty status line, draw nothing).
          const card = el.getBoundingClientRect();
          let top = Infinity, bottom = -Infinity;
          for (const node of el.querySelectorAll('*')) {
            const drawn = node.matches('input:not([type=hidden]):not([tabindex="-1"]), button, img, svg') ||
              [...node.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.textContent!.trim());
            const r = node.getBoundingClientRect();
            if (!drawn || r.height === 0 || getComputedStyle(node).visibility === 'hidden' || node.closest('[aria-hidden="true"], .visually-hidden, noscript')) continue;
            top = Math.min(top, r.top); bottom = Math.max(bottom, r.bottom);
          }
          const cs = getComputedStyle(el);
          return { top: Math.round(top - card.top), bottom: Math.round(card.bottom - bottom), left: parseFloat(cs.paddingLeft), right: parseFloat(cs.paddingRight) };
        }));
        expect(cards.length, route).toBeGreaterThan(0);
        for (const c of cards) {
          expect(Math.abs(c.top - c.bottom), `${route} at ${width}: ${JSON.stringify(c)}`).toBeLessThanOrEqual(4);
          expect(c.left, `${route} at ${width}`).toBe(c.right);
        }
      }
    }
  });

  it('sections alternate their surface, so a long page reads in bands, not one flat column', async () => {
    const page = await shared.open({ width: 1280, height: 900 });
    for (const route of ['/', '/for-consumers/online/saas/', '/for-consumers/online/', '/manifesto/']) {
      await page.goto(base + route);
      const backgrounds = await page.locator('main > section, main > div > section').evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundImage !== 'none' ? getComputedStyle(el).backgroundImage : getComputedStyle(el).backgroundColor));
      expect(backgrounds.length, route).toBeGreaterThanOrEqual(3);
      // No two neighbouring sections share a surface unless one of them is the hero.
      const same = backgrounds.slice(1).filter((b, i) => i > 0 && b === backgrounds[i]);
      expect(same, `${route}: ${backgrounds.join(' | ')}`).toEqual([]);
    }
  });
});
