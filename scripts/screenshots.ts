// Screenshots of pages at phone and desktop widths, for looking at the design:
//   npm run screenshots                      (builds, then shoots the pages below into /tmp/shots)
//   npx tsx scripts/screenshots.ts [--out DIR] [--widths 320,375,1280] /path /other/path ...
// It serves dist/ with `sitegen preview`, writes one full-page PNG per page and width (plus the first
// screen at phone widths) and prints the folder it wrote.
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../tests/helpers/browser.ts';
import { startServer } from '../tests/helpers/cli.ts';

const args = process.argv.slice(2);
const outIdx = args.indexOf('--out');
const out = outIdx >= 0 ? args.splice(outIdx, 2)[1] : '/tmp/shots';
const widthsIdx = args.indexOf('--widths');
const widths = widthsIdx >= 0 ? args.splice(widthsIdx, 2)[1].split(',').map(Number) : [375, 1280];
// The pages a design review looks at: home, an area page, a sector page, the FAQs and a policy.
const routes = args.length ? args : ['/', '/for-consumers/online/', '/for-consumers/online/saas/', '/faqs/', '/privacy/'];
fs.mkdirSync(out, { recursive: true });
const server = await startServer(['preview', '--port', '0', '--no-backend']);
const browser = await launchBrowser();
try {
  for (const width of widths) {
    const page = await browser.newPage({ viewport: { width, height: width < 800 ? 812 : 900 } });
    for (const r of routes) {
      await page.goto(server.url + r);
      await page.waitForTimeout(300);
      const file = path.join(out, `${r.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      if (width < 800) {
        const top = file.replace(/\.png$/, '-top.png');
        await page.screenshot({ path: top });
        console.log(top);
      }
    }
    await page.close();
  }
  console.log(`screenshots written to ${out}`);
} finally {
  await browser.close();
  await server.stop();
}
