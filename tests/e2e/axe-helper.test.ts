// The axe check every page of the e2e suite goes through (tests/helpers/axe.ts) finds what it must: on a page
// with known faults it reports each serious and critical violation with its element.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeOf } from '../helpers/axe.ts';
import { launchBrowser } from '../helpers/browser.ts';

let browser: Browser;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

describe('the axe check', () => {
  it('reports an image without text, grey-on-grey text and an unnamed button, with their elements', async () => {
    const page = await browser.newPage();
    await page.setContent(`<!doctype html><html lang="en"><head><title>Faults</title></head><body><main><h1>Faults</h1>
      <img id="pic" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <p id="faint" style="color:#777;background:#888">hard to read</p>
      <button id="bare"></button></main></body></html>`);
    const r = await axeOf(page).analyze();
    const serious = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(',')}`).sort();
    expect(serious).toEqual(['button-name #bare', 'color-contrast #faint', 'image-alt #pic']);
    await page.close();
  });
});
