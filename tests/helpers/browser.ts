// Launches Debian's Chromium through playwright-core (never a downloaded browser) and records what a
// page reports: console errors, React warnings, page errors and CSP violations.
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../e2e/chromiumArgs.ts';

/**
 * A Chromium for a test file or a script. Under the e2e suite one browser serves every file (its global setup
 * starts it and names it in SITEGEN_TEST_BROWSER_WS): this connects to it, which takes milliseconds where a
 * launch takes a second or more. Each file still gets its own pages and contexts; close() drops those and
 * disconnects, leaving the browser to the other files. Outside the suite (a script) it launches one, with the
 * suite's switches (tests/e2e/chromiumArgs.ts).
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env.SITEGEN_TEST_BROWSER_WS;
  return shared ? chromium.connect(shared) : chromium.launch(await chromiumLaunchOptions());
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
