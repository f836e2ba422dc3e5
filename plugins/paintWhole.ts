// Paint each page whole. Chromium paints a page it has only partly parsed whenever its parser yields (a slow
// phone, a busy CPU); what is painted then moves as the rest arrives: the hero's illustration, centred
// beside the copy, grew and slid up once its last rows were parsed, and the header's actions slid left
// once the Menu button was (measured with the CPU throttled 4×: CLS up to 0.047 on / at 1280 px, 0.0019
// at 375 px, on 13 of 30 loads). A render-blocking `<link rel="expect">` holds the first paint until the
// parser reaches the element it names, the last row of the footer (Footer.tsx), so everything above it
// is laid out once. Browsers without `rel=expect` ignore it and paint as before.
import type { SitegenPlugin } from 'sitegen-islands';

/** The id of the element the first paint waits for: the footer's bottom row, the last one on every page. */
export const PAINT_AFTER_ID = 'site-end';

export function paintWhole(): SitegenPlugin {
  return {
    name: 'paint-whole',
    head: () => [{ tag: 'link', attrs: { rel: 'expect', href: `#${PAINT_AFTER_ID}`, blocking: 'render' } }],
  };
}
