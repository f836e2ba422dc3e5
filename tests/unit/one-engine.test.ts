// One engine instance per process (issue 30): the site module holds only the site's code, and its imports of
// "sitegen-islands", React and zod are the running engine's own modules — in build, check, dev and on the
// worker threads. So a template's hooks run in the React the engine renders with, a schema's zod is the
// engine's, a helper's error is the engine's class, and no value travels through a global.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import * as React from 'react';
import * as publicApi from '../../src/public.ts';
import { loadSiteModule, createSiteCompiler } from '../../src/site/index.ts';
import { PACKAGE_DIR, packageDirOf } from '../../src/site/paths.ts';
import { ENGINE_REACT_DOM_SERVER, VENDORED } from '../../src/site/esbuildPlugins.ts';
import { workerFile } from '../../src/parallel/pool.ts';
import { REPO } from '../helpers/cli.ts';
import { type TestSite } from '../helpers/site.ts';
import { siteFrom } from '../helpers/scratch.ts';

const FILES = {
  'sitegen.config.ts': `
import { z } from 'zod';
import { useState } from 'react';
import { defineConfig, href } from 'sitegen-islands';
import { Layout, Page } from './templates/pages.tsx';

export default defineConfig({
  site: { title: 'One', url: 'https://one.example', base: '/repo/' },
  layout: Layout,
  collections: { pages: { pattern: 'pages/*.yaml', schema: z.strictObject({ title: z.string().min(1) }) } },
  routes: (c) => c.pages.map((p) => ({ path: '/' + p.slug, component: Page, props: { title: p.data.title, next: href('/a') }, title: p.data.title })),
  // What the site module was given for its imports, for the test to compare with the engine's.
  plugins: [{ name: 'probe', href, z, useState }],
});
`,
  'templates/pages.tsx': `
import { useId, useState, type ReactNode } from 'react';
import { href } from 'sitegen-islands';
import Clock from './islands/Clock.tsx';

export function Layout({ children }: { children: ReactNode }) {
  return <main>{children}</main>;
}
export function Page({ title, next }: { title: string; next: string }) {
  const id = useId();
  const [count] = useState(3);
  return (<><h1 id={id}>{title}</h1><p>count {count}</p><a href={href('/b')}>other</a><a href={next}>next</a><Clock start={count} /></>);
}
`,
  'templates/islands/Clock.tsx': `
import { useState } from 'react';
export default function Clock({ start }: { start: number }) {
  const [t] = useState(start + 1);
  return <output>{'tick ' + t}</output>;
}
`,
  'content/pages/a.yaml': 'title: Page A\n',
  'content/pages/b.yaml': 'title: Page B\n',
};

let site: TestSite;
beforeAll(async () => { site = await siteFrom(FILES); });
afterAll(() => site?.remove());

const probeOf = (config: { plugins?: unknown[] }) => config.plugins![0] as { href: unknown; z: unknown; useState: unknown };

/** What a user sees of a page: the heading, the hook's state, both links (under the base) and the island. */
function expectPage(html: string, title: string) {
  expect(html).toMatch(new RegExp(`<h1 id="[^"]+">${title}</h1><p>count 3</p><a href="/repo/b/">other</a><a href="/repo/a/">next</a>`));
  expect(html).toContain('<output>tick 4</output>');
}

describe('the site module is given the running engine', () => {
  it('its sitegen-islands, zod and React are the engine\'s own modules (build and dev compiles)', async () => {
    const built = await loadSiteModule(site.root);
    expect(built.errors).toEqual([]);
    const probe = probeOf(built.site!.config);
    expect(probe.href).toBe(publicApi.href);
    expect(probe.z).toBe(z);
    expect(probe.useState).toBe(React.useState);
    const compiler = await createSiteCompiler(site.root);
    onTestFinished(() => compiler.dispose());
    const dev = await compiler.compile();
    expect(dev.errors).toEqual([]);
    expect(probeOf(dev.site!.config).href).toBe(publicApi.href);
    expect(probeOf(dev.site!.config).z).toBe(z);
    expect(probeOf(dev.site!.config).useState).toBe(React.useState);
  });

  it('templates use React hooks and the engine\'s URL policy in build, check and dev', async () => {
    const b = await site.build({ env: { SITEGEN_WORKERS: '0' } });
    expect(b.errors).toEqual([]);
    expectPage(b.read('a/index.html'), 'Page A');
    expectPage(b.read('b/index.html'), 'Page B');
    const c = await site.check({ typecheck: false });
    expect(c.errors).toEqual([]);
    expect(c.code).toBe(0);
    const dev = await site.dev();
    onTestFinished(() => dev.close());
    expect(dev.code).toBe(0);
    const res = await fetch(`${dev.url}/repo/a/`);
    expect(res.status).toBe(200);
    expectPage(await res.text(), 'Page A');
  });

  it('worker threads render the same bytes as one thread', async () => {
    const one = await site.build({ out: 'dist-one', env: { SITEGEN_WORKERS: '0' } });
    expect(one.errors).toEqual([]);
    const pooled = await site.build({ out: 'dist-pool', json: true, env: { SITEGEN_WORKERS: '2', SITEGEN_PARALLEL_MIN: '0', SITEGEN_POOL_MAIN: '0', SITEGEN_POOL_RENDER: '1', SITEGEN_NO_CACHE: '1' } });
    expect(pooled.errors).toEqual([]);
    // Every page was parsed and rendered on a worker (the main thread took no task).
    expect(pooled.result.workers?.tasks.pages).toEqual({ total: 1, onMain: 0 });
    expect(pooled.output()).toEqual(one.output());
    expectPage(pooled.read('a/index.html'), 'Page A');
  });
});

describe('the CLI bundle and lib/', () => {
  it('take from the vendor bundle exactly the packages it holds', async () => {
    const plugin: { VENDORED: string[] } = await import(path.join(REPO, 'bin', 'vendor-imports.js'));
    expect(plugin.VENDORED).toEqual(VENDORED);
  });

  it('and so does the worker program bundled from the sources, which imports none of those packages itself', () => {
    const program = fs.readFileSync(workerFile(), 'utf8');
    const imported = [...program.matchAll(/\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)|\brequire\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter((spec) => /^(react|react-dom|zod|yaml|js-yaml|marked)(\/|$)/.test(spec))).toEqual([]);
    for (const name of [...VENDORED, ENGINE_REACT_DOM_SERVER]) expect(program).toContain(`.vendored(${JSON.stringify(name)})`);
  });
});

describe('the package folder', () => {
  it('is found from where the engine\'s code is: the sources, the CLI bundle in the cache, lib/', () => {
    expect(PACKAGE_DIR).toBe(REPO);
    expect(packageDirOf(path.join(REPO, 'src', 'site'))).toBe(REPO);
    expect(packageDirOf(path.join(REPO, 'node_modules', '.cache', 'sitegen', 'cli', '0123456789abcdef'))).toBe(REPO);
    expect(packageDirOf(path.join(REPO, 'lib'))).toBe(REPO);
  });
});

describe('no engine channel', () => {
  it('src/, cli/ and bin/ hold no globalThis channel, no import.meta.url rewrite, no eval, no class matched by name', () => {
    const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? files(p) : /\.(ts|tsx|js|cjs|mjs)$/.test(e.name) ? [p] : [];
    });
    const all = ['src', 'cli', 'bin'].flatMap((d) => files(path.join(REPO, d))).map((f) => [path.relative(REPO, f), fs.readFileSync(f, 'utf8')] as const);
    // The engine's own error classes: recognised with instanceof, never by their name.
    const ours = all.flatMap(([, text]) => [...text.matchAll(/class (\w+) extends \w*Error\b/g)].map((m) => m[1]!));
    expect(ours).toContain('IslandPropsError');
    const found: string[] = [];
    for (const [file, text] of all) {
      text.split('\n').forEach((line, i) => {
        const byName = /\.name\b|constructor/.test(line) && ours.some((n) => line.includes(`'${n}'`) && !line.includes(`message('${n}'`));
        if (byName || /globalThis|import\.meta' *\+|\beval\(|replaceAll\('import\.meta\.url'/.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
