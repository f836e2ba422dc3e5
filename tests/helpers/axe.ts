// axe-core on a page as it is now, through @axe-core/playwright in its single-run mode: axe is injected into
// the page and each of its frames and runs there once, with the same rules and options. The library's default
// mode runs axe per frame and then opens a blank page to merge the results, which costs two to four times the
// check itself (measured on the site's pages); it exists for cross-origin frames, which no page we check has.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export function axeOf(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true);
}
