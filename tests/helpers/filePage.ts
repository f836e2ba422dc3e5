// One page a test file lends to its tests in turn, instead of a new page per test. A new page starts a
// renderer process, which costs about 0.8 s of CPU in Chromium here; a load in a page that exists costs about
// 0.25 s (measured on the site's pages). Each test loads what it looks at, so it still sees a new document.
//
// Between two tests the page is put back as a new one would be for what these tests look at: its listeners
// for page events are dropped (no handler of a finished test runs on, nor calls into a closed context), the
// site's cookies, local and session storage are cleared, the viewport is the one asked for and the window is
// scrolled to the top. The HTTP cache is kept: a test that counts requests or times a cold load (fonts,
// images), or that changes what a page cannot undo (routes, init scripts, a fake clock, touch, JavaScript off),
// opens a context of its own.
import type { Browser, BrowserContext, Page } from 'playwright-core';

export interface Viewport { width: number; height: number }
export interface FilePage {
  /**
   * The file's page, reset, at `width` × `height` (1280 × 900 by default), with prefers-reduced-motion as
   * asked (no preference by default).
   */
  open(viewport?: Viewport, opts?: { reducedMotion?: boolean }): Promise<Page>;
  /**
   * The page as open() gives it, and `at(url, width, height)`, which loads `url` at that size (the size
   * asked of open() by default) from the top of the page, as tests/helpers/onePage.ts does in a page of its own.
   */
  widths(viewport?: Viewport, opts?: { reducedMotion?: boolean }): Promise<{ page: Page; at(url: string, width?: number, height?: number): Promise<Page> }>;
  /** Closes the page and its context (afterAll). */
  close(): Promise<void>;
}

const PAGE_EVENTS = ['console', 'pageerror', 'request', 'response', 'requestfailed', 'requestfinished', 'dialog', 'popup', 'load', 'domcontentloaded', 'framenavigated'] as const;

export function filePage(browser: () => Browser): FilePage {
  let ctx: BrowserContext | null = null;
  let page: Page | null = null;
  return {
    async open(viewport = { width: 1280, height: 900 }, opts = {}) {
      if (!page || page.isClosed()) {
        ctx = await browser().newContext({ viewport, reducedMotion: opts.reducedMotion ? 'reduce' : 'no-preference' });
        page = await ctx.newPage();
        return page;
      }
      for (const event of PAGE_EVENTS) page.removeAllListeners(event);
      // Storage belongs to the origin the page is on (the site, from the previous test); a page that
      // is on no origin of its own (about:blank) has none to clear. A cookie the page set itself may still
      // be on its way to the browser's store (Chromium sends document.cookie writes without waiting), so the
      // page first expires what it sees, sent after its own writes, and the store is cleared after that.
      await page.evaluate(() => {
        try { localStorage.clear(); sessionStorage.clear(); } catch { /* no storage here */ }
        try {
          for (const c of document.cookie.split(';')) {
            const name = c.split('=')[0]!.trim();
            if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
          }
        } catch { /* no cookies here */ }
        window.scrollTo(0, 0);
      });
      await ctx!.clearCookies();
      await page.setViewportSize(viewport);
      await page.emulateMedia({ reducedMotion: opts.reducedMotion ? 'reduce' : 'no-preference' });
      return page;
    },
    async widths(viewport = { width: 1280, height: 900 }, opts = {}) {
      const page = await this.open(viewport, opts);
      return {
        page,
        async at(url, width = viewport.width, height = viewport.height) {
          // A load of the same address would restore the previous load's scroll position.
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.setViewportSize({ width, height });
          await page.goto(url);
          return page;
        },
      };
    },
    async close() { await ctx?.close(); },
  };
}
