// Dev for island authors (issue 14), in real Chromium against `sitegen dev` on a copy of the basic fixture
// with an island that throws: the error shows in the page's overlay and in the terminal at file:line:col of
// the island's source (mapped through the dev bundle's source maps), dev serves React's development build,
// and fixing the island clears the overlay. (The suite's global setup serves the real site; unused here.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { watchProblems } from '../helpers/browser.ts';
import { openFixtureSite, type FixtureSite } from '../helpers/fixtureSite.ts';
import { editFile, until } from '../unit/dev-fixture.ts';
import fs from 'node:fs';
import path from 'node:path';

const BOOM = `import { useEffect, useState } from 'react';

export default function Boom({ label }: { label: string }) {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    if (armed) throw new Error('Boom went off after a click');
  }, [armed]);
  return <button type="button" onClick={() => setArmed(true)}>{label}</button>;
}
`;
const CLICK = `import { useState } from 'react';

export default function Boom({ label }: { label: string }) {
  const [n, setN] = useState(0);
  function explode() {
    setN(n + 1);
    throw new TypeError('Boom handler failed');
  }
  return <button type="button" onClick={explode}>{label}</button>;
}
`;

const BROKEN = `// Renders on the server; its module throws as soon as a browser loads it.
const inBrowser = typeof window !== 'undefined';
if (inBrowser) throw new RangeError('Broken cannot start in a browser');

export default function Broken() {
  return <p>broken</p>;
}
`;

let site: FixtureSite;
let dir: string;
let server: FixtureSite['server'];
let browser: Browser;

beforeAll(async () => {
  site = await openFixtureSite('basic', {
    prepare: (d) => {
      fs.writeFileSync(path.join(d, 'templates/islands/Boom.tsx'), BOOM);
      editFile(d, 'templates/pages.tsx', (t) => t
        .replace("import Counter from './islands/Counter.tsx';", "import Counter from './islands/Counter.tsx';\nimport Boom from './islands/Boom.tsx';")
        .replace('<Counter start={2} label="Clicks" />', '<Counter start={2} label="Clicks" /><Boom label="Arm" />'));
    },
    command: (d) => ['dev', '--root', d, '--port', '0', '--no-backend'],
  });
  ({ dir, server, browser } = site);
});
afterAll(() => site?.close());

async function open(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(server.url + '/');
  await page.locator('html[data-sitegen-dev="connected"]').waitFor({ state: 'attached', timeout: 15_000 });
  await page.locator('sitegen-island[data-island="Boom"][data-hydrated]').waitFor({ state: 'attached', timeout: 15_000 });
  return page;
}

/** 1-based line and column of `needle` in the island's source. */
function at(source: string, needle: string): string {
  const lines = source.split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  return `templates/islands/Boom.tsx:${i + 1}:${lines[i]!.indexOf(needle) + 1}`;
}

const TIMEOUT = { timeout: 20_000 };

describe('island errors in sitegen dev', () => {
  it('serves React\'s development build with source maps', async () => {
    const page = await open();
    const scripts = await page.evaluate(() => [...document.querySelectorAll('script[src], link[rel="modulepreload"]')].map((e) => e.getAttribute('src') ?? e.getAttribute('href')));
    const bodies = await Promise.all(scripts.filter((s) => s?.startsWith('/assets/')).map(async (s) => [s, await (await fetch(server.url + s)).text()] as const));
    expect(bodies.length).toBeGreaterThan(0);
    for (const [src, body] of bodies) {
      const map = body.match(/\/\/# sourceMappingURL=(\S+)\s*$/)?.[1];
      expect(map, src!).toBeTruthy();
      expect((await fetch(new URL(map!, server.url + src!))).status, `${src} → ${map}`).toBe(200);
    }
    // React's development build says so in its file names, which esbuild keeps as comments when not minifying.
    const all = bodies.map(([, b]) => b).join('\n');
    expect(all).toContain('react-dom-client.development.js');
    expect(all).not.toContain('react-dom-client.production.js');
    await page.close();
  });

  it('shows an error thrown in an effect in the overlay and the terminal, at the island\'s line', async () => {
    const page = await open();
    const before = server.output().length;
    await page.getByRole('button', { name: 'Arm' }).click();
    await page.locator('sitegen-dev-overlay .where').waitFor(TIMEOUT);
    const where = at(BOOM, "throw new Error('Boom went off");
    // Chromium reports a throw at `new Error`, the engine maps it to the line either way; the column is one of the two.
    const alt = at(BOOM, "new Error('Boom went off");
    await expect(page.locator('sitegen-dev-overlay .where').textContent()).resolves.toMatch(new RegExp(`^(${where}|${alt})$`));
    await expect(page.locator('sitegen-dev-overlay .title').textContent()).resolves.toBe('An island threw in the browser');
    await expect(page.locator('sitegen-dev-overlay .frame').textContent()).resolves.toContain("if (armed) throw new Error('Boom went off after a click');");
    await expect(page.locator('sitegen-dev-overlay .count').textContent()).resolves.toBe('1 island error');
    const terminal = await until(() => {
      const out = server.output().slice(before);
      return out.includes('Boom went off after a click') && out.includes('[An island threw in the browser]') ? out : '';
    }, 10_000, 'the error in the terminal');
    expect(terminal).toMatch(new RegExp(`(${where}|${alt}) Boom went off after a click \\(on /\\)`));
    expect(terminal).toContain("| if (armed) throw new Error('Boom went off after a click');".replace('| ', '|     '));
    await page.close();
  });

  it('shows an error thrown in an event handler, and clears it when the island is fixed', async () => {
    const before = server.output().length;
    fs.writeFileSync(path.join(dir, 'templates/islands/Boom.tsx'), CLICK);
    await until(() => server.output().slice(before).includes('✓'), 15_000, 'the rebuild');
    const page = await open();
    await page.getByRole('button', { name: 'Arm' }).click();
    await page.locator('sitegen-dev-overlay .where').waitFor(TIMEOUT);
    await expect(page.locator('sitegen-dev-overlay .where').textContent()).resolves.toMatch(new RegExp(`^(${at(CLICK, 'throw new TypeError')}|${at(CLICK, 'new TypeError')})$`));
    await expect(page.locator('sitegen-dev-overlay .frame').textContent()).resolves.toContain('TypeError: Boom handler failed');
    const problems = watchProblems(page);
    fs.writeFileSync(path.join(dir, 'templates/islands/Boom.tsx'), BOOM.replace("if (armed) throw new Error('Boom went off after a click');", 'void armed;'));
    await page.locator('sitegen-dev-overlay').waitFor({ state: 'detached', ...TIMEOUT });
    await page.locator('sitegen-island[data-island="Boom"][data-hydrated]').waitFor({ state: 'attached', ...TIMEOUT });
    await page.getByRole('button', { name: 'Arm' }).click();
    await expect(page.locator('sitegen-dev-overlay').count()).resolves.toBe(0);
    expect(problems.errors).toEqual([]);
    await page.close();
  });

  it('shows an island whose module throws as it loads (the runtime catches that one)', async () => {
    const before = server.output().length;
    fs.writeFileSync(path.join(dir, 'templates/islands/Broken.tsx'), BROKEN);
    editFile(dir, 'templates/pages.tsx', (t) => t
      .replace("import Boom from './islands/Boom.tsx';", "import Boom from './islands/Boom.tsx';\nimport Broken from './islands/Broken.tsx';")
      .replace('<Boom label="Arm" />', '<Boom label="Arm" /><Broken />'));
    // The two saves may rebuild twice (the new island, then the page using it): wait for the page that has it.
    await until(async () => (await (await fetch(server.url + '/')).text()).includes('data-island="Broken"'), 15_000, 'the rebuild with the new island');
    const page = await open();
    await page.locator('sitegen-dev-overlay .where').waitFor(TIMEOUT);
    await expect(page.locator('sitegen-dev-overlay .where').textContent()).resolves.toMatch(/^templates\/islands\/Broken\.tsx:3:\d+$/);
    await expect(page.locator('sitegen-dev-overlay .frame').textContent()).resolves.toContain('RangeError: Broken cannot start in a browser');
    await until(() => server.output().slice(before).includes('templates/islands/Broken.tsx:3:'), 10_000, 'the error in the terminal');
    await page.close();
    // Also when the dev client arrives after the island's chunk (a busy machine): it runs first all the same.
    const slow = await browser.newPage();
    // client.js is held until the page's module script has fully arrived, so it is the last script in.
    let release!: () => void;
    const islandsIn = new Promise<void>((r) => { release = r; });
    await slow.route('**/__sitegen/client.js', async (route) => { await islandsIn; await route.continue(); });
    const island = slow.waitForResponse((r) => r.request().resourceType() === 'script' && !r.url().includes('/__sitegen/client.js'));
    const loaded = slow.goto(server.url + '/');
    await (await island).finished();
    release();
    await loaded;
    await slow.locator('sitegen-dev-overlay .where').waitFor(TIMEOUT);
    await expect(slow.locator('sitegen-dev-overlay .frame').textContent()).resolves.toContain('RangeError: Broken cannot start in a browser');
    await slow.close();
  });
});
