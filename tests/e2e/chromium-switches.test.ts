// The suite's Chromium (tests/e2e/chromiumArgs.ts) makes no address-bar popup for the pages the tests open,
// runs no GPU process,
// and still has the features Playwright turns off turned off: adding our --disable-features did not replace
// Playwright's (HttpsUpgrades, one of its list, would send http://www.example.com to https://).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';

let browser: Browser;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

describe("the suite's Chromium", () => {
  it('opens a page without the address bar popup WebUI, and keeps Playwright\'s features off', async () => {
    const context = await browser.newContext();
    const asked: string[] = [];
    await context.route('**/*', (route) => { asked.push(route.request().url()); return route.fulfill({ contentType: 'text/html', body: '<title>t</title><p>page</p>' }); });
    const page = await context.newPage();
    await page.goto('http://www.example.com/');
    expect(asked).toEqual(['http://www.example.com/']);
    expect(page.url()).toBe('http://www.example.com/');
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
    expect(targetInfos.filter((t) => t.url.startsWith('chrome://')).map((t) => t.url)).toEqual([]);
    await cdp.detach();
    await context.close();
  });

  it('composites in the browser process: no GPU process of its own (--in-process-gpu)', async () => {
    const page = await browser.newPage();
    await page.setContent('<p>page</p>');
    const cdp = await browser.newBrowserCDPSession();
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    const types = processInfo.map((p) => p.type);
    expect(types).toContain('renderer');
    expect(types).not.toContain('GPU');
    await cdp.detach();
    await page.close();
  });
});
