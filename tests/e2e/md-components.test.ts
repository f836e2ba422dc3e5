// A component from the islands folder used in Markdown (::::Tabs around :::Tab blocks, in a copy of the
// basic fixture), built and served by `sitegen preview`, in real Chromium: the island hydrates around the
// Markdown it encloses (rendered on the server, left as it is), and its tabs work with the keyboard.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitegen } from '../helpers/cli.ts';
import { watchProblems } from '../helpers/browser.ts';
import { openFixtureSite, type FixtureSite } from '../helpers/fixtureSite.ts';
import { editFile } from '../unit/dev-fixture.ts';

// Tabs: the panels are the Tab components' HTML among its children; once hydrated, it reads their labels
// and shows a tab list (arrow keys, Home and End move between tabs, as the WAI-ARIA tabs pattern says).
const TABS = `import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
export default function Tabs({ children }: { children: ReactNode }) {
  const root = useRef<HTMLDivElement>(null);
  const [labels, setLabels] = useState<string[]>([]);
  const [active, setActive] = useState(0);
  const panels = () => [...root.current!.querySelectorAll<HTMLElement>('[data-tab-label]')];
  useEffect(() => { setLabels(panels().map((p) => p.dataset.tabLabel ?? '')); }, []);
  useEffect(() => {
    panels().forEach((p, i) => { p.hidden = i !== active; p.id = 'panel-' + i; p.setAttribute('role', 'tabpanel'); p.setAttribute('aria-labelledby', 'tab-' + i); });
  }, [active, labels]);
  const go = (i: number) => { const n = (i + labels.length) % labels.length; setActive(n); document.getElementById('tab-' + n)?.focus(); };
  const onKey = (e: KeyboardEvent) => {
    const to = { ArrowRight: active + 1, ArrowLeft: active - 1, Home: 0, End: labels.length - 1 }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  };
  return (<div className="tabs" ref={root}>
    {labels.length ? <div role="tablist" onKeyDown={onKey}>{labels.map((l, i) => (
      <button key={i} type="button" role="tab" id={'tab-' + i} aria-selected={i === active} aria-controls={'panel-' + i} tabIndex={i === active ? 0 : -1} onClick={() => setActive(i)}>{l}</button>
    ))}</div> : null}
    {children}
  </div>);
}
`;

const TAB = `import type { ReactNode } from 'react';
export default function Tab({ label, children }: { label: string; children: ReactNode }) {
  return (<section data-tab-label={label}>{children}</section>);
}
`;

const BODY = `# Install

::::Tabs
:::Tab{label="npm"}
Run \`npm install\` *first*.
:::
:::Tab{label="pnpm"}
Run \`pnpm install\`.
:::
:::Tab{label="yarn"}
Run \`yarn\`.
:::
::::
`;

let site: FixtureSite;

beforeAll(async () => {
  site = await openFixtureSite('basic', {
    prepare: (d) => {
      fs.writeFileSync(path.join(d, 'templates/islands/Tabs.tsx'), TABS);
      fs.mkdirSync(path.join(d, 'templates/components'), { recursive: true });
      fs.writeFileSync(path.join(d, 'templates/components/Tab.tsx'), TAB);
      editFile(d, 'sitegen.config.ts', (t) => t
        .replace("import { defineConfig, href } from 'sitegen-islands';", "import { defineConfig, href, component } from 'sitegen-islands';\nimport Tabs from './templates/islands/Tabs.tsx';\nimport Tab from './templates/components/Tab.tsx';")
        .replace('validate:', "components: { Tabs: component(Tabs, z.object({})), Tab: component(Tab, z.object({ label: z.string() }), { parent: 'Tabs' }) },\n  validate:"));
      editFile(d, 'content/pages/about.md', (t) => t.replace(/# Hello[\s\S]*/, BODY));
      const b = sitegen(['build', '--root', d, '--quiet']);
      if (b.code !== 0) throw new Error(b.stderr);
    },
    command: (d) => ['preview', '--root', d, '--port', '0', '--no-backend'],
  });
});
afterAll(() => site?.close());

describe('an island component in Markdown', () => {
  it('hydrates around its Markdown, and its tabs work with the keyboard', async () => {
    const page = await site.browser.newPage();
    const problems = watchProblems(page);
    await page.goto(site.server.url + '/about/');
    // Before and after hydration, the Markdown the island encloses is the server's.
    await expect(page.locator('section[data-tab-label="npm"] em').textContent()).resolves.toBe('first');
    await page.locator('sitegen-island[data-island="Tabs"][data-hydrated]').waitFor();
    const tabs = page.getByRole('tab');
    await expect(tabs.allTextContents()).resolves.toEqual(['npm', 'pnpm', 'yarn']);
    await expect(page.getByRole('tabpanel').allInnerTexts()).resolves.toEqual(['Run npm install first.']);

    await tabs.first().focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { selected: true }).textContent()).resolves.toBe('pnpm');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('pnpm');
    await expect(page.getByRole('tabpanel').allInnerTexts()).resolves.toEqual(['Run pnpm install.']);
    await page.keyboard.press('End');
    await expect(page.getByRole('tabpanel').allInnerTexts()).resolves.toEqual(['Run yarn.']);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { selected: true }).textContent()).resolves.toBe('npm');
    await expect(page.locator('section[data-tab-label="npm"] code').textContent()).resolves.toBe('npm install');

    expect(problems.errors).toEqual([]);
    expect(problems.console).toEqual([]);
    await page.close();
  });
});
