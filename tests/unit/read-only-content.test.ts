// The entries a site's code is handed are read-only (src/content/readOnly.ts): a write in routes() or in a
// template is a located error that says why and what to do, the output before it is left as it was, and what
// a site may still do (sort a collection's list, change a copy) builds as before.
import { afterAll, describe, expect, it } from 'vitest';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';

const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });
async function site(files: Record<string, string> = {}): Promise<TestSite> {
  const s = await copyOf('basic', files);
  sites.push(s);
  return s;
}

describe('content handed to the site is read-only', () => {
  it('a write to an entry\'s data in routes() is a located error with the read-only hint, and dist/ stays', async () => {
    const s = await site();
    expect((await s.build()).code).toBe(0);
    const before = (await s.build()).output();
    s.edit('sitegen.config.ts', (t) => t.replace('  routes: (c) => [', '  routes: (c) => [\n    ...c.items.map((i) => { i.data.title = i.data.title.toUpperCase(); return null; }).filter((x) => x !== null),'));
    const r = await s.build();
    expect(r.code).toBe(1);
    expect(r.errors[0]).toMatchObject({ id: 'ConfigError', location: { file: 'sitegen.config.ts', line: 17 } });
    expect(r.errors[0]!.text).toMatch(/read only property 'title'/);
    expect(r.errors[0]!.hint).toMatch(/^Entries of content\/ are read-only/);
    expect(r.stderr).toContain('[...entry.data.tags].sort()');
    expect(r.output()).toEqual(before);
  });

  it('a template that changes a list of an entry\'s data fails on that page, with the hint', async () => {
    const s = await site();
    s.edit('templates/pages.tsx', (t) => t.replace('  return (<><h1>{title}</h1><p>{tags.join', '  tags.push(\'new\');\n  return (<><h1>{title}</h1><p>{tags.join'));
    const r = await s.build();
    expect(r.code).toBe(1);
    expect(r.errors[0]).toMatchObject({ id: 'RenderError', location: { file: 'templates/pages.tsx', line: 12 } });
    expect(r.errors[0]!.hint).toMatch(/read-only/);
  });

  it('a sort of a list of one item is refused as a longer one is, so it fails before a second item comes', async () => {
    const s = await site({ 'content/items/alpha.yaml': 'title: Alpha\ntags: [one]\nprice: 3\n', 'content/items/beta.yaml': 'title: Beta\ntags: [two]\nprice: 5\n' });
    s.edit('sitegen.config.ts', (t) => t
      .replace('tags: z.array(z.string()).length(2)', 'tags: z.array(z.string()).min(1)')
      .replace('props: { ...i.data }', 'props: { ...i.data, tags: i.data.tags.sort() }'));
    const r = await s.build();
    expect(r.code, r.stderr).toBe(1);
    expect(r.errors[0]).toMatchObject({ id: 'ConfigError', location: { file: 'sitegen.config.ts' } });
    expect(r.errors[0]!.text).toMatch(/read only property '0'/);
    expect(r.errors[0]!.hint).toMatch(/\[\.\.\.entry\.data\.tags\]\.sort\(\)/);
  });

  it('adding a field to an entry, or deleting one, is refused the same way', async () => {
    for (const write of ['(i as any).extra = 1', 'delete (i as any).file']) {
      const s = await site();
      s.edit('sitegen.config.ts', (t) => t.replace('  routes: (c) => [', `  routes: (c) => [\n    ...c.items.flatMap((i) => { ${write}; return []; }),`));
      const r = await s.build();
      expect(r.code, write).toBe(1);
      expect(r.errors[0]!.hint, write).toMatch(/read-only/);
    }
  });

  it('an entry whose body waits on disk is read-only, its headings too, when templates render on worker threads', async () => {
    for (const write of ['(p as any).data.title = \'x\'', '(p as any).headings.push({ depth: 2, text: \'x\' })']) {
      const s = await site();
      // The template writes to the entry it is given, on the workers that render it.
      s.edit('sitegen.config.ts', (t) => t.replace('props: { title: p.data.title, html: p.html }', 'props: { title: p.data.title, html: p.html, p }'));
      s.edit('templates/pages.tsx', (t) => t.replace('export function Doc({ title, html }: { title: string; html: string }): ReactNode {', `export function Doc({ title, html, p }: { title: string; html: string; p?: unknown }): ReactNode {\n  ${write};`));
      const r = await s.build({ env: { SITEGEN_DISK_BODIES_MIN: '1', SITEGEN_PARALLEL_MIN: '1', SITEGEN_WORKERS: '2', SITEGEN_POOL_RENDER: '1', SITEGEN_POOL_MAIN: '0' } });
      expect(r.code, write).toBe(1);
      expect(r.result.workers?.tasks.pages?.onMain ?? 0, write).toBe(0);
      expect(r.errors[0], write).toMatchObject({ id: 'RenderError', location: { file: 'templates/pages.tsx', line: 15 } });
      expect(r.errors[0]!.hint, write).toMatch(/read-only/);
    }
  });

  it('an entry\'s headings are read-only in dev, where routes() runs again on the entries an edit leaves alone', async () => {
    const s = await site();
    s.edit('sitegen.config.ts', (t) => t.replace('props: { title: p.data.title, html: p.html }', 'props: { title: p.data.title, html: `${p.html}<p>n=${(p.headings.push({ depth: 2, text: \'x\' } as any), p.headings.length)}</p>` }'));
    const dev = await s.dev();
    try {
      await expect.poll(() => dev.output(), { timeout: 10_000 }).toMatch(/sitegen\.config\.ts:\d+:\d+ routes\(\) threw: Cannot add property 1, object is not extensible/);
      expect(dev.output()).toContain('read-only');
    } finally { await dev.close(); }
  });

  it('a plugin\'s outputs hook that writes to an entry is told so, at its line', async () => {
    const s = await site();
    s.edit('sitegen.config.ts', (t) => t.replace("  layout: Layout,", "  layout: Layout,\n  plugins: [{ name: 'counter', outputs: (ctx) => { ctx.content.items[0].data.price = 0; return []; } }],"));
    const r = await s.build();
    expect(r.code).toBe(1);
    expect(r.errors[0]).toMatchObject({ id: 'ConfigError', location: { file: 'sitegen.config.ts', line: 12 } });
    expect(r.errors[0]!.text).toMatch(/^plugin "counter" failed in its outputs hook: Cannot assign to read only property 'price'/);
    expect(r.errors[0]!.hint).toMatch(/read-only/);
  });

  it('a collection\'s list sorts in place, and a copy of an entry\'s data may change', async () => {
    const s = await site();
    s.edit('sitegen.config.ts', (t) => t
      .replace('  routes: (c) => [', '  routes: (c) => [\n    ...(c.items.sort((a, b) => (a.slug < b.slug ? 1 : -1)), []),')
      .replace('props: { ...i.data }', 'props: { ...i.data, title: i.data.title.toUpperCase(), tags: [...i.data.tags].sort().reverse() }'));
    const r = await s.build();
    expect(r.code, r.stderr).toBe(0);
    const home = r.read('index.html');
    const item = Object.entries(r.output()).find(([f]) => /^items\/[^/]+\/index\.html$/.test(f))![1];
    expect(item).toMatch(/<h1>[^<a-z]+<\/h1>/);
    // Newest slug first on the home page: the list was sorted in place before the home route read it.
    const slugs = [...home.matchAll(/href="\/items\/([^/"]+)\/"/g)].map((m) => m[1]);
    expect(slugs).toEqual([...slugs].sort().reverse());
    expect(slugs.length).toBeGreaterThan(1);
  });
});
