// The page a test file lends to its tests in turn (tests/helpers/filePage.ts) reaches the next test as a new
// page would: nothing the previous test stored, set or listened for is left, at the size and motion asked.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { filePage } from '../helpers/filePage.ts';

const base = inject('baseUrl');
let browser: Browser;
const shared = filePage(() => browser);
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await shared.close(); await browser?.close(); });

describe('the file page', () => {
  it('is the same page for the next test, with no storage, cookie or listener of the previous one, at the size and motion asked', async () => {
    const first = await shared.open({ width: 375, height: 700 }, { reducedMotion: true });
    await first.goto(base + '/faqs/');
    expect(await first.evaluate(() => [innerWidth, matchMedia('(prefers-reduced-motion: reduce)').matches])).toEqual([375, true]);
    await first.evaluate(() => {
      localStorage.setItem('left', 'behind');
      sessionStorage.setItem('left', 'behind');
      document.cookie = 'left=behind; path=/';
    });
    const heard: string[] = [];
    first.on('console', (m) => heard.push(m.text()));

    const next = await shared.open();
    expect(next).toBe(first);
    await next.evaluate(() => console.log('after the reset'));
    await next.goto(base + '/');
    const state = await next.evaluate(() => ({
      local: localStorage.length, session: sessionStorage.length, cookie: document.cookie,
      width: innerWidth, height: innerHeight, reduced: matchMedia('(prefers-reduced-motion: reduce)').matches,
    }));
    expect(state).toEqual({ local: 0, session: 0, cookie: '', width: 1280, height: 900, reduced: false });
    expect(heard).toEqual([]);
  });
});
