// The switches every test Chromium is launched with: the e2e suite's one Chromium (tests/e2e/globalSetup.ts)
// and one that launchBrowser() (tests/helpers/browser.ts) launches outside the suite (scripts/screenshots.ts):
// CHROMIUM_ARGS (among them the GPU thread in the browser process), and three features off.
//
// Chromium's new headless mode gives each page a browser window, and each window preloads its address bar's
// suggestion popup: two chrome:// WebUI pages in a renderer process of their own. Measured here, about 0.5 s
// of CPU in that renderer and 0.2 s in the browser process for every page a test opens (a page and its first
// load cost about 1.1 s in all), for a popup no test shows or looks at. The features below keep it from being made.
//
// Chromium reads only the last --disable-features switch it is given, and Playwright passes one of its own
// (features whose defaults would change what a test sees, PaintHolding among them), which its API does not
// expose. So the launcher is asked which switches it would pass, by a stand-in executable that writes them
// down and exits, and the one --disable-features given is Playwright's list with these added.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserServer, type LaunchOptions } from 'playwright-core';

// --in-process-gpu: with the GPU off, Chromium still starts a GPU process, which composites every page in
// software and talks to the browser process for each frame; in-process, the same compositing runs on a thread of
// the browser process. Four e2e files (62 tests), runs alternated: 123–138 s of the whole machine's CPU, mean 131,
// against 126–154 s, mean 140, without it (paired ratios 0.87–1.09, three pairs of four below 0.9); what the
// pages show is the same.
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--in-process-gpu'];

export const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];
const DISABLE = '--disable-features=';

/** The switches Playwright adds to a headless launch of `args`, as the launched executable receives them. */
async function launcherSwitches(args: string[]): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-e2e-args-'));
  const stub = path.join(dir, 'chromium');
  const got = path.join(dir, 'args');
  fs.writeFileSync(stub, `#!/bin/sh\nprintf '%s\\n' "$@" > '${got}'\n`, { mode: 0o755 });
  try {
    // The stand-in exits at once, so the launch fails; what it wrote is the answer.
    await chromium.launch({ executablePath: stub, args, headless: true, timeout: 10_000 }).then((b) => b.close(), () => {});
    if (!fs.existsSync(got)) throw new Error('the stand-in for Chromium was not started');
    return fs.readFileSync(got, 'utf8').split('\n').filter(Boolean);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let options: Promise<LaunchOptions> | undefined;
/** Debian's Chromium, headless, with CHROMIUM_ARGS and one --disable-features: Playwright's list and ours (asked once a process). */
export function chromiumLaunchOptions(): Promise<LaunchOptions> {
  options ??= launcherSwitches(CHROMIUM_ARGS).then((switches) => {
    const theirs = switches.filter((a) => a.startsWith(DISABLE)).flatMap((a) => a.slice(DISABLE.length).split(','));
    const args = [...CHROMIUM_ARGS, DISABLE + [...new Set([...theirs, ...OMNIBOX_POPUP_FEATURES])].filter(Boolean).join(',')];
    return { executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args, headless: true };
  });
  return options;
}

/** The suite's Chromium, as a Playwright browser server. */
export async function launchSuiteBrowser(): Promise<BrowserServer> {
  return chromium.launchServer(await chromiumLaunchOptions());
}
