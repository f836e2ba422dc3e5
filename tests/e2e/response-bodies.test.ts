// The page-weight tests read response bodies from Playwright's response events. A read still running when
// the test closes its context must not end the run with an unhandled rejection (CI saw one): the recorder
// keeps every read handled, and still reports a failed read to a test that waits for it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { readBodies } from '../helpers/responseBodies.ts';

let browser: Browser;
let server: http.Server;
let url: string;
/** Resolves once the server has sent the head of /slow.txt and the first bytes of its body. */
let slowStarted: Promise<void>;
let startedSlow: () => void;

beforeAll(async () => {
  browser = await launchBrowser();
  server = http.createServer((req, res) => {
    if (req.url === '/slow.txt') {
      // Headers and a first chunk, then nothing: the body never ends while the page is open.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('the rest never comes\n');
      startedSlow();
      return;
    }
    if (req.url === '/fast.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end('window.fast = 1;');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<script src="/fast.js"></script>${req.url === '/both' ? '<script>fetch("/slow.txt")</script>' : ''}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

describe('reading response bodies', () => {
  it('leaves no unhandled rejection when the context closes during a read, and reports it when asked', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      slowStarted = new Promise((r) => { startedSlow = r; });
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      const reads = readBodies(page, (r) => /\/(fast\.js|slow\.txt)$/.test(r.url()), (b) => b.length);
      await page.goto(`${url}/both`, { waitUntil: 'commit' });
      await slowStarted;
      await expect.poll(() => reads.paths()).toEqual(['/fast.js', '/slow.txt']);
      await ctx.close();
      // The cut-short read rejects; had nothing handled it, Node reports it once the current macrotask ends.
      const failed = await reads.settled().then(() => null, (e: Error) => e);
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      expect(failed?.message).toMatch(/closed/i);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('gives each body read to the end', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const reads = readBodies(page, (r) => r.url().endsWith('/fast.js'), (b) => b.toString());
    await page.goto(`${url}/`);
    expect(await reads.settled()).toEqual(new Map([['/fast.js', 'window.fast = 1;']]));
    reads.stop();
    await ctx.close();
  });
});
