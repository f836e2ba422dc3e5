// Builds the real site once, into a temporary folder (the repository's dist/ is never touched), and serves it
// from there with `sitegen preview` (static files + local waitlist backend on a fresh temporary database) for
// every e2e test file. Tests read the URL with inject('baseUrl') and the built folder with inject('distDir');
// the folder is read-only for them.
// The build's JSON report (`build --json`: page weights, islands) is kept beside it: inject('buildReport').
// SITEGEN_E2E_DIST names a folder the same build already wrote, and SITEGEN_E2E_BUILD_REPORT its report
// (scripts/test.mjs builds once for these tests and for Lighthouse): served as they are and left in place.
// One Chromium serves every file: launched here as a Playwright browser server, its address handed to the
// workers in SITEGEN_TEST_BROWSER_WS, where launchBrowser() (tests/helpers/browser.ts) connects to it. Its
// switches: tests/e2e/chromiumArgs.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { sitegen, startServer } from '../helpers/cli.ts';
import { launchSuiteBrowser } from './chromiumArgs.ts';
import { newServiceKey, serviceKeyFile } from '../../plugins/waitlist/serviceKey.ts';

export default async function setup(project: TestProject) {
  const t = Date.now();
  const given = process.env.SITEGEN_E2E_DIST;
  const givenReport = process.env.SITEGEN_E2E_BUILD_REPORT;
  if (given && !fs.existsSync(path.join(given, 'index.html'))) throw new Error(`SITEGEN_E2E_DIST=${given} holds no built site`);
  if (given && !(givenReport && fs.existsSync(givenReport))) throw new Error(`SITEGEN_E2E_DIST=${given} needs SITEGEN_E2E_BUILD_REPORT, the report of the build that made it`);
  const outDir = given ? null : fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-e2e-site-')));
  const distDir = given ? fs.realpathSync(given) : path.join(outDir!, 'dist');
  const buildReport = givenReport ? path.resolve(givenReport) : path.join(outDir!, 'build-report.json');
  const browser = launchSuiteBrowser();
  if (outDir) {
    const b = sitegen(['build', '--json', '--quiet', '--out', distDir]);
    if (b.code !== 0) {
      fs.rmSync(outDir, { recursive: true, force: true });
      await (await browser).close();
      throw new Error(`sitegen build failed:\n${b.stderr}`);
    }
    fs.writeFileSync(buildReport, b.stdout);
  }
  const dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-e2e-db-')));
  // The local service key is random per database; written first, so the tests know it (the server keeps it).
  const serviceKey = newServiceKey();
  fs.writeFileSync(serviceKeyFile(dataDir), serviceKey, { mode: 0o600 });
  const server = await startServer(['preview', '--port', '0', '--out', distDir], { env: { SITEGEN_WAITLIST_DIR: dataDir } });
  // The waitlist's database starts in the background (seconds of CPU): waited for here, so the first pages the
  // tests open do not compete with it, and a database that cannot start stops the run with its reason
  // instead of failing every sign-up test with a 503.
  const ready = await fetch(`${server.url}/rest/v1/waitlist?select=id&limit=1`, { headers: { apikey: serviceKey, Authorization: `Bearer ${serviceKey}` } });
  if (ready.status !== 200) {
    await server.stop();
    await (await browser).close();
    for (const dir of [dataDir, outDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(serviceKeyFile(dataDir), { force: true });
    throw new Error(`the preview's waitlist database did not start (${ready.status} ${await ready.text()}):\n${server.output()}`);
  }
  const chromium = await browser;
  process.env.SITEGEN_TEST_BROWSER_WS = chromium.wsEndpoint();
  project.provide('baseUrl', server.url);
  project.provide('distDir', distDir);
  project.provide('buildReport', buildReport);
  project.provide('serviceKey', serviceKey);
  console.log(`e2e: site ${given ? 'given' : 'built'} and served at ${server.url} in ${Date.now() - t} ms`);
  return async () => {
    await chromium.close();
    await server.stop();
    // The backend's own account of a failed request (a database error, a refusal to start) goes to the
    // server's log, which no test sees: shown here, so a 503 in a test can be traced.
    const logged = server.output().split('\n').filter((l) => l.includes('waitlist:') && !l.includes('database ready'));
    if (logged.length) console.log(`e2e: the preview server logged:\n${logged.join('\n')}`);
    for (const dir of [dataDir, outDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(serviceKeyFile(dataDir), { force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    distDir: string;
    /** The file holding what `sitegen build --json` printed for distDir. */
    buildReport: string;
    /** The local waitlist database's service-role key. */
    serviceKey: string;
  }
}
