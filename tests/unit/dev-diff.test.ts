// The pieces dev mode's incremental rebuild rests on: structural comparison of route props, the reuse of
// a route table when no path changed, and the content store agreeing with a full load after edits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { RouteDef, SiteConfig } from '../../src/core/types.ts';
import { deepEqual, equalMemo, routeContent } from '../../src/pipeline/routes.ts';
import { createContentStore } from '../../src/content/liveContent.ts';
import { loadContent } from '../../src/content/load.ts';
import { copyFixture, editFile, removeCopy } from './dev-fixture.ts';
import { cpuMs } from '../helpers/cpuTime.ts';

describe('deepEqual', () => {
  it('compares plain data by value and functions by identity', () => {
    const f = () => null;
    expect(deepEqual({ a: [1, { b: 'x' }], f }, { a: [1, { b: 'x' }], f })).toBe(true);
    expect(deepEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual({ f: () => 1 }, { f: () => 1 })).toBe(false);
    expect(deepEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(deepEqual(new Date(5), new Date(5))).toBe(true);
    expect(deepEqual(new Map([[1, 'a']]), new Map([[1, 'b']]))).toBe(false);
    expect(deepEqual(NaN, NaN)).toBe(true);
  });

  it('terminates on cycles', () => {
    const a: any = { x: { y: { z: { w: {} } } } }; a.x.y.z.w.back = a;
    const b: any = { x: { y: { z: { w: {} } } } }; b.x.y.z.w.back = b;
    expect(deepEqual(a, b)).toBe(true);
  });

  it('one memo over many comparisons (a pass over every route): a shared object that changed is unequal for every route', () => {
    // Every page's props hold the same nav list; a page added changes it. The pair was once remembered
    // as "seen" before its answer was known, so every route after the first compared equal and kept its old nav.
    const oldNav = { sections: [{ links: [{ href: '/a/' }] }] };
    const newNav = { sections: [{ links: [{ href: '/a/' }, { href: '/b/' }] }] };
    const memo = equalMemo();
    for (const page of ['/a/', '/b/', '/c/']) expect(deepEqual({ page, nav: oldNav }, { page, nav: newNav }, memo), page).toBe(false);
    const same = { sections: [{ links: [{ href: '/a/' }] }] };
    for (const page of ['/a/', '/b/']) expect(deepEqual({ page, nav: oldNav }, { page, nav: same }, memo), page).toBe(true);
  });

  it('entries that reference each other (cycles through many paths) compare in linear time, equal or not', () => {
    // Each post references two others, as reference() resolves them: every post reaches every other, by many
    // paths. Dropping every pair found equal on a cycle's assumption made this exponential (26 posts: 11 s).
    const posts = (n: number, title: (i: number) => string) => {
      const list: any[] = Array.from({ length: n }, (_, i) => ({ id: `p${i}`, data: { title: title(i) } }));
      list.forEach((p, i) => { p.data.related = [list[(i + 1) % n], list[(i + 7) % n]]; });
      return list;
    };
    const n = 400;
    const before = posts(n, (i) => `Post ${i}`);
    const same = posts(n, (i) => `Post ${i}`);
    const memo = equalMemo();
    const ms = cpuMs(() => { for (let i = 0; i < n; i++) expect(deepEqual({ post: { entry: before[i] } }, { post: { entry: same[i] } }, memo)).toBe(true); });
    expect(ms).toBeLessThan(2_000);
    // One title changed: every post reaches it, so every page differs; and the answers stay right after it.
    const edited = posts(n, (i) => (i === 123 ? 'Edited' : `Post ${i}`));
    const memo2 = equalMemo();
    const ms2 = cpuMs(() => { for (let i = 0; i < n; i++) expect(deepEqual({ post: { entry: before[i] } }, { post: { entry: edited[i] } }, memo2), `post ${i}`).toBe(false); });
    expect(ms2).toBeLessThan(2_000);
  });

  it('a pair taken as equal inside a cycle that turned out unequal is not remembered as equal', () => {
    // a and b differ only below the cycle's way back; the inner pair (a.x, b.x) was compared assuming (a, b).
    const mk = (v: number) => { const o: any = { x: { y: { z: { w: {} } } }, v }; o.x.y.z.w.back = o; return o; };
    const a = mk(1), b = mk(2);
    const memo = equalMemo();
    expect(deepEqual({ p: { q: { r: a } } }, { p: { q: { r: b } } }, memo)).toBe(false);
    expect(deepEqual({ p: { q: { r: a.x } } }, { p: { q: { r: b.x } } }, memo)).toBe(false);
  });
});

describe('routeContent', () => {
  const Page = () => null;
  const defs = (title: string, alias = '/old'): RouteDef[] => [
    { path: '/a', component: Page, props: { title }, title, aliases: [alias], source: 'content/a.yaml' },
    { path: '/b', component: Page, props: {}, title: 'B' },
  ];
  const config = (d: RouteDef[]) => ({ routes: () => d }) as unknown as SiteConfig;

  it('reuses the validated table when only props and texts change', () => {
    const first = routeContent({}, config(defs('A')), '', null);
    expect(first.table.routes.map((r) => r.path)).toEqual(['/a/', '/b/']);
    const second = routeContent({}, config(defs('A2')), '', first);
    expect(second.table.aliases).toBe(first.table.aliases);
    expect(second.table.routes[0]).toMatchObject({ path: '/a/', output: 'a/index.html', title: 'A2', props: { title: 'A2' }, source: 'content/a.yaml' });
  });

  it('runs routeTable again when a path or alias changes, and reports its errors', () => {
    const first = routeContent({}, config(defs('A')), '', null);
    const moved = routeContent({}, config(defs('A', '/older')), '', first);
    expect(moved.table.aliases).not.toBe(first.table.aliases);
    expect(moved.table.aliases[0].from).toBe('/older/');
    const clash = routeContent({}, config(defs('A', '/b')), '', moved);
    expect(clash.table.errors[0].id).toBe('DuplicateRoute');
  });

  it('turns a throwing routes() into a located error', () => {
    const r = routeContent({}, { routes: () => { throw new Error('boom'); } } as unknown as SiteConfig, '', null);
    expect(r.table.errors[0].text).toContain('routes() threw: boom');
  });
});

describe('createContentStore', () => {
  let dir: string;
  const config = {
    collections: {
      items: { pattern: 'items/*.yaml', schema: z.strictObject({ title: z.string().min(1), tags: z.array(z.string()).length(2), price: z.number() }) },
      pages: { pattern: 'pages/*.md', schema: z.strictObject({ title: z.string().min(1), description: z.string().optional() }) },
    },
  } as unknown as SiteConfig;
  beforeAll(() => { dir = copyFixture('basic'); });
  afterAll(() => removeCopy(dir));

  it('matches a full load, and after edits updates only the changed collection', async () => {
    const store = await createContentStore(dir);
    await store.configure(config);
    expect(store.content).toEqual((await loadContent(dir, config)).content);
    const items = store.content.items, pagesVersion = store.version('pages'), itemsVersion = store.version('items');
    editFile(dir, 'content/pages/about.md', (t) => t.replace('# Hello', '# Hello again'));
    expect(await store.update(new Map([['pages/about.md', 'change']]))).toEqual(['pages']);
    expect(store.content.items).toBe(items);
    expect(store.version('items')).toBe(itemsVersion);
    expect(store.version('pages')).toBeGreaterThan(pagesVersion);
    expect(store.content).toEqual((await loadContent(dir, config)).content);
  });

  it('keeps unchanged entries as the same objects, and tracks added and removed files', async () => {
    const store = await createContentStore(dir);
    await store.configure(config);
    const beta = store.content.items[1];
    fs.writeFileSync(path.join(dir, 'content/items/aaa.yaml'), 'title: A\ntags: [x, y]\nprice: 1\n');
    await store.update(new Map([['items/aaa.yaml', 'add']]));
    expect(store.content.items.map((e: any) => e.slug)).toEqual(['aaa', 'alpha', 'beta']);
    expect(store.content.items[2]).toBe(beta);
    fs.rmSync(path.join(dir, 'content/items/aaa.yaml'));
    await store.update(new Map([['items/aaa.yaml', 'unlink']]));
    expect(store.content).toEqual((await loadContent(dir, config)).content);
  });

  it('reports a broken file with its location and drops it until fixed', async () => {
    const store = await createContentStore(dir);
    await store.configure(config);
    editFile(dir, 'content/items/beta.yaml', (t) => t.replace('price: 5', 'price: 5\ncolour: red'));
    await store.update(new Map([['items/beta.yaml', 'change']]));
    expect(store.errors().map((m) => [m.location?.file, m.location?.line, m.text])).toEqual([['content/items/beta.yaml', 6, 'Unknown field "colour"']]);
    editFile(dir, 'content/items/beta.yaml', (t) => t.replace('\ncolour: red', ''));
    await store.update(new Map([['items/beta.yaml', 'change']]));
    expect(store.errors()).toEqual([]);
    expect(store.content.items).toHaveLength(2);
  });
});
