// An in-process `sitegen dev` server on a site folder, listening on a free port, and one Chromium to open
// its pages: what the hot-update tests drive. `close()` stops all three.
import http from 'node:http';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { listen } from '../../src/server/serve.ts';
import { startDevServer, type DevServer } from '../../src/dev/index.ts';

export interface DevInBrowser {
  dev: DevServer;
  /** http://127.0.0.1:<port>, without a trailing slash. */
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function devInBrowser(root: string): Promise<DevInBrowser> {
  const dev = await startDevServer({ root });
  if (dev.initial.errors.length) {
    await dev.close();
    throw new Error(dev.initial.errors.map((e) => e.text).join('\n'));
  }
  const server = http.createServer(dev.handler);
  const url = await listen(server, 0, '127.0.0.1');
  const browser = await launchBrowser();
  return {
    dev, url, browser,
    async close() {
      await browser.close();
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
      await dev.close();
    },
  };
}
