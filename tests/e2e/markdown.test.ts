// A page written with every Markdown feature (markdown({...}) in a copy of the basic fixture), built and
// served by `sitegen preview`, read in real Chromium: the heading anchor and the footnote links move to
// their targets, highlighted code and sanitized raw HTML render, no script ships, the strict CSP holds, and
// axe finds nothing serious.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeOf } from '../helpers/axe.ts';
import { sitegen } from '../helpers/cli.ts';
import { watchProblems } from '../helpers/browser.ts';
import { openFixtureSite, type FixtureSite } from '../helpers/fixtureSite.ts';
import { editFile } from '../unit/dev-fixture.ts';

const BODY = `# Hello

## Getting started

Some "prose" with a note.[^1] Jump to [the code](#the-code).

| Name | Qty |
|:-----|----:|
| a    | 1   |

- [x] done
- [ ] to do

<details><summary>More</summary>

Hidden *detail*. <img src="/favicon.svg" alt="Logo" onerror="alert(1)">

</details>

## The code

\`\`\`ts
const answer: number = 42;
\`\`\`

[^1]: The note.
`;

let site: FixtureSite;
let server: FixtureSite['server'];
let browser: Browser;

beforeAll(async () => {
  site = await openFixtureSite('basic', {
    prepare: (d) => {
      editFile(d, 'sitegen.config.ts', (t) => t
        .replace("import { defineConfig, href } from 'sitegen-islands';", "import { defineConfig, href, markdown } from 'sitegen-islands';")
        .replace('validate:', "plugins: [markdown({ headingIds: true, footnotes: true, smartQuotes: true, highlight: true, html: 'sanitize' })],\n  validate:"));
      editFile(d, 'content/pages/about.md', (t) => t.replace(/# Hello[\s\S]*/, BODY));
      const b = sitegen(['build', '--root', d, '--quiet']);
      if (b.code !== 0) throw new Error(b.stderr);
    },
    command: (d) => ['preview', '--root', d, '--port', '0', '--no-backend'],
  });
  ({ server, browser } = site);
});
afterAll(() => site?.close());

describe('Markdown features in the browser', () => {
  it('links, footnotes, highlighted code and sanitized HTML work, with no script and no serious axe issue', async () => {
    const context = await browser.newContext(); // axe needs a page of its own context
    const page = await context.newPage();
    const problems = watchProblems(page);
    const scripts: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(r.url()); });
    await page.goto(server.url + '/about/');

    await expect(page.locator('h2#getting-started').textContent()).resolves.toBe('Getting started #');
    await page.getByRole('link', { name: 'the code' }).click();
    await expect(page.evaluate(() => location.hash)).resolves.toBe('#the-code');
    await page.locator('sup a[data-footnote-ref]').click();
    await expect(page.evaluate(() => location.hash)).resolves.toBe('#footnote-1');
    await expect(page.locator('#footnote-1').isVisible()).resolves.toBe(true);
    await page.getByRole('link', { name: 'Back to reference 1' }).click();
    await expect(page.evaluate(() => location.hash)).resolves.toBe('#footnote-ref-1');

    await expect(page.locator('pre.language-ts .token.keyword').first().textContent()).resolves.toBe('const');
    await expect(page.getByText('Some “prose” with a note.')).toBeDefined();
    await page.getByText('More').click();
    await expect(page.getByRole('img', { name: 'Logo' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('[onerror]').count()).resolves.toBe(0);

    const axe = await axeOf(page).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(scripts).toEqual([]);
    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await context.close();
  });
});
