// The online sector pages in Chromium: the route checks and the spec's facts of tests/e2e/siteRoutes.ts, and
// the ecommerce page's extra sections.
import { describe, expect, it, inject } from 'vitest';
import { checkRoutes } from './siteRoutes.ts';

const base = inject('baseUrl');
const routes = checkRoutes('site-online');

describe('sector pages', () => {
  it('the ecommerce page has its three extra sections', async () => {
    const page = routes.page();
    await page.goto(`${base}/for-consumers/online/ecommerce/`);
    const h2 = await page.locator('main h2').allTextContents();
    for (const t of ['Tech Stack Essentials', 'Growth Channels', 'Common Challenges & Solutions']) expect(h2).toContain(t);
  });
});
