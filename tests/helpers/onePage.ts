// One context and one page for a test that loads several pages or widths in turn. A new context and page cost
// several times a page load in Chromium (a renderer process starts, Playwright sets the page up): measured,
// about 1 s of CPU against 0.2 s for a load. `at` scrolls the current page to the top, sets the viewport,
// then loads: each load is a new document laid out at that width from its start, as in a context of its own.
// Cache, cookies and storage are shared between the loads of one test, so tests that depend on a first visit
// or on storage keep their own contexts.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

export interface OnePage {
  ctx: BrowserContext;
  page: Page;
  /** Loads `url` at `width` × `height` (default: the width and height the context was opened with). */
  at(url: string, width?: number, height?: number): Promise<Page>;
  close(): Promise<void>;
}

export async function onePage(browser: Browser, options: BrowserContextOptions = {}): Promise<OnePage> {
  const viewport = options.viewport ?? { width: 1280, height: 900 };
  const ctx = await browser.newContext({ ...options, viewport });
  const page = await ctx.newPage();
  return {
    ctx, page,
    async at(url, width = viewport.width, height = viewport.height) {
      // A load of the same address would restore the previous load's scroll position.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.setViewportSize({ width, height });
      await page.goto(url);
      return page;
    },
    close: () => ctx.close(),
  };
}
