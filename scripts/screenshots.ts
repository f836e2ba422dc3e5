// Screenshots of pages at phone and desktop widths, for looking at the design:
//   npx tsx scripts/screenshots.ts [--out DIR] /path /other/path ...   (serves dist/ with `sitegen preview`)
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../tests/helpers/browser.ts';
import { startServer } from '../tests/helpers/cli.ts';

const args = process.argv.slice(2);
const outIdx = args.indexOf('--out');
const out = outIdx >= 0 ? args.splice(outIdx, 2)[1] : '/tmp/shots';
const routes = args.length ? args : ['/'];
fs.mkdirSync(out, { recursive: true });
const server = await startServer(['preview', '--port', '0', '--no-backend']);
const browser = await launchBrowser();
try {
  for (const width of [375, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: width === 375 ? 812 : 900 } });
    for (const r of routes) {
      await page.goto(server.url + r);
      await page.waitForTimeout(300);
      const file = path.join(out, `${r.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      if (width === 375) {
        const top = file.replace(/\.png$/, '-top.png');
        await page.screenshot({ path: top });
        console.log(top);
      }
    }
    await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
