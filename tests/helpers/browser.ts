// Launches Debian's Chromium through playwright-core (never a downloaded browser) and records what a
// page reports: console errors, React warnings, page errors and CSP violations.
import { chromium, type Browser, type BrowserServer, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const launchOptions = () => ({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });

/**
 * A Chromium for a test file or a script. Under the e2e suite one browser serves every file (its global setup
 * starts it and names it in SITEGEN_TEST_BROWSER_WS): this connects to it, which takes milliseconds where a
 * launch takes a second or more. Each file still gets its own pages and contexts; close() drops those and
 * disconnects, leaving the browser to the other files.
 */
export function launchBrowser(): Promise<Browser> {
  const shared = process.env.SITEGEN_TEST_BROWSER_WS;
  return shared ? chromium.connect(shared) : chromium.launch(launchOptions());
}

/** The browser the e2e global setup shares with every test file. */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions());
}

export interface PageProblems {
  console: string[];
  errors: string[];
}

/** Collects console errors/warnings and uncaught page errors, for asserting a clean page. */
export function watchProblems(page: Page): PageProblems {
  const p: PageProblems = { console: [], errors: [] };
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') p.console.push(m.text()); });
  page.on('pageerror', (e) => p.errors.push(String(e)));
  return p;
}
