// What the engine's own end-to-end tests open in beforeAll: a throwaway copy of a test fixture, changed as
// the test needs, served by a real `sitegen` command (dev or preview), and a browser. close() undoes all
// three; when a step fails, what was already started is undone before the error is thrown.
import type { Browser } from 'playwright-core';
import { startServer } from './cli.ts';
import { launchBrowser } from './browser.ts';
import { copyFixture, removeCopy } from '../unit/dev-fixture.ts';

export interface FixtureSite {
  dir: string;
  server: Awaited<ReturnType<typeof startServer>>;
  browser: Browser;
  close(): Promise<void>;
}

export async function openFixtureSite(fixture: string, opts: { prepare?: (dir: string) => void; command: (dir: string) => string[] }): Promise<FixtureSite> {
  const dir = copyFixture(fixture);
  let server: FixtureSite['server'] | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.stop();
    removeCopy(dir);
  };
  try {
    opts.prepare?.(dir);
    server = await startServer(opts.command(dir));
    browser = await launchBrowser();
    return { dir, server, browser, close };
  } catch (e) {
    await close();
    throw e;
  }
}
