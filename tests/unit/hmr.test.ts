// The server side of hot updates: what the event stream tells open pages after each kind of change
// (a stylesheet, a React island, an enhancement island, content), on an in-process dev server over a copy
// of the basic fixture with an enhancement island added; and the component registration the dev bundle
// appends to a site's .tsx modules for Fast Refresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { listen } from '../../src/server/serve.ts';
import { startDevServer, type DevServer } from '../../src/dev/index.ts';
import { componentNames, hookSignature, registration } from '../../src/dev/hmrTransform.ts';
import { copyFixture, editFile, openEvents, removeCopy, type SseEvent } from './dev-fixture.ts';

let dir: string;
let dev: DevServer;
let server: http.Server;
let url: string;
let stream: Awaited<ReturnType<typeof openEvents>>;

beforeAll(async () => {
  dir = copyFixture('basic');
  fs.writeFileSync(path.join(dir, 'templates/islands/Toggle.tsx'), 'export default function Toggle() { return <p className="toggle"><button type="button">plain</button></p>; }\n');
  fs.writeFileSync(path.join(dir, 'templates/islands/Toggle.client.ts'), "export function enhance(el: HTMLElement) { el.querySelector('button')!.textContent = 'v1'; }\n");
  editFile(dir, 'templates/pages.tsx', (t) => t
    .replace("import Counter from './islands/Counter.tsx';", "import Counter from './islands/Counter.tsx';\nimport Toggle from './islands/Toggle.tsx';")
    .replace('<Counter start={2} label="Clicks" /></>', '<Counter start={2} label="Clicks" /><Toggle /></>'));
  dev = await startDevServer({ root: dir });
  server = http.createServer(dev.handler);
  url = await listen(server, 0, '127.0.0.1');
  stream = await openEvents(`${url}/__sitegen/events`);
});

afterAll(async () => {
  stream?.close();
  await dev?.close();
  server?.closeAllConnections();
  server?.close();
  if (dir) removeCopy(dir);
});

/** The (first) reload event the next edit causes, or the first that `pred` accepts. */
async function reloadAfter(edit: () => void, pred: (data: any) => boolean = () => true): Promise<SseEvent['data']> {
  const next = stream.next((e) => e.event === 'reload' && pred(e.data));
  edit();
  return (await next).data;
}

const assetUrl = /^\/assets\/[\w-]+\.(css|js)$/;

describe('sitegen dev: hot update messages', () => {
  it('names the changed stylesheet for a CSS edit, which re-renders no page', async () => {
    await dev.idle();
    const before = await (await fetch(`${url}/`)).text();
    const data = await reloadAfter(() => editFile(dir, 'templates/site.css', (t) => t.replace('--fg: #111;', '--fg: #222;')));
    // Its URL carries no hash in dev, so no page's HTML changed; the page loads it again under a new query.
    expect(data.paths).toEqual([]);
    expect(data.hot.css).toHaveLength(1);
    const [from, to] = data.hot.css[0];
    expect(from).toBe('/assets/site.css');
    expect(to).toMatch(/^\/assets\/site\.css\?v=\w+$/);
    expect(before).toContain(`href="${from}"`);
    const unversioned = (html: string) => html.replace(/ data-version="\d+"/, '');
    expect(unversioned(await (await fetch(`${url}/`)).text())).toBe(unversioned(before));
    const css = await fetch(url + to);
    expect(css.headers.get('cache-control')).toBe('no-cache');
    expect(await css.text()).toContain('#222');
    expect(data.hot.islands).toEqual({});
    expect(data.hot.reactMoved).toBe(false);
  });

  it('names a React island with its new module as soon as it is bundled, then the pages that changed', async () => {
    const rendered = stream.next((e) => e.event === 'reload' && e.data.paths.length > 0);
    const data = await reloadAfter(() => editFile(dir, 'templates/islands/Counter.tsx', (t) => t.replace('count is {n}', 'clicked {n}')));
    // First, before the site module compiles and pages render: only the new module.
    expect(data.paths).toEqual([]);
    expect(Object.keys(data.hot.islands)).toEqual(['Counter']);
    expect(data.hot.islands.Counter.react).toBe(true);
    expect(data.hot.islands.Counter.url).toMatch(assetUrl);
    const module = await (await fetch(url + data.hot.islands.Counter.url)).text();
    expect(module).toContain('clicked ');
    // The module registers the component for Fast Refresh under its file and name.
    expect(module).toContain('templates/islands/Counter.tsx ');
    expect(data.hot.reactMoved).toBe(false);
    expect(data.hot.css).toEqual([]);
    // Then the rebuild: the page whose server HTML changed, with nothing left to hot-apply.
    const after = (await rendered).data;
    expect(after.paths).toEqual(['/']);
    expect(after.hot.islands).toEqual({});
  });

  it('names an enhancement island as one to re-run, not to refresh', async () => {
    await dev.idle();
    const data = await reloadAfter(() => editFile(dir, 'templates/islands/Toggle.client.ts', (t) => t.replace("'v1'", "'v2'")));
    expect(Object.keys(data.hot.islands)).toEqual(['Toggle']);
    expect(data.hot.islands.Toggle.react).toBe(false);
    expect(await (await fetch(url + data.hot.islands.Toggle.url)).text()).toMatch(/["']v2["']/);
  });

  it('lists only the routes for a content edit, with nothing in the bundle to apply', async () => {
    await dev.idle();
    const data = await reloadAfter(() => editFile(dir, 'content/pages/about.md', (t) => t.replace('# Hello', '# Hello again')), (d) => d.paths.includes('/about/'));
    expect(data.paths).toEqual(['/about/']);
    expect(data.hot).toEqual({ css: [], islands: {}, reactMoved: false });
  });
});

describe('Fast Refresh registration of a module', () => {
  const source = [
    "import { memo, useState } from 'react';",
    'export default function Counter() { const [n] = useState(0); return n; }',
    'function helper() { return 1; }',
    'const Label = memo(() => null);',
    'export const Row: React.FC = () => null;',
    'const limit = 3;',
    '  function Nested() {}',
  ].join('\n');

  it('registers the capitalised top-level functions and bindings, not helpers or nested ones', () => {
    expect(componentNames(source)).toEqual(['Counter', 'Label', 'Row']);
    const code = registration(source, 'templates/islands/Counter.tsx');
    expect(code.startsWith('\n')).toBe(true); // appended: the module's own lines keep their numbers
    expect(code).toContain('"templates/islands/Counter.tsx "');
    expect(registration('export const a = 1;\n', 'x.tsx')).toBe('');
  });

  it('signs components with the hooks the module calls, so a change of hooks remounts', () => {
    expect(hookSignature(source)).toBe('useState,useState');
    expect(hookSignature(source.replace('useState(0)', 'useState(0); useRef(null)'))).not.toBe(hookSignature(source));
  });
});
