// Launches Debian's Chromium through playwright-core (never a downloaded browser) and records what a
// page reports: console errors, React warnings, page errors and CSP violations.
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
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
