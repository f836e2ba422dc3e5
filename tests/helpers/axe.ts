// axe-core on a page as it is now: axe is injected once into the page and each of its frames, configured as
// @axe-core/playwright configures it, and runs there once with axe's full rule set. Every violation is reported
// with all its nodes; passes and incomplete results keep one example node each (axe's `resultTypes`), which no
// test reads and which cost about half of a run to collect and send back (measured on the site's pages).
// @axe-core/playwright injected the 580 KB script twice a page and, outside its legacy mode, opened a blank
// page to merge results: that mode exists for cross-origin frames, which no page we check has.
import axe from 'axe-core';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

const INJECT = `${axe.source}
;axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } });`;
const OPTIONS: RunOptions = { resultTypes: ['violations'] };

export function axeOf(page: Page): { analyze(): Promise<AxeResults> } {
  return {
    async analyze() {
      for (const frame of page.frames()) {
        // A frame that cannot take the script (detached, or a document that refuses it) is left out, as
        // @axe-core/playwright leaves it; the page itself must take it.
        try { await frame.evaluate(INJECT); } catch (e) { if (frame === page.mainFrame()) throw e; }
      }
      return page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), OPTIONS);
    },
  };
}
