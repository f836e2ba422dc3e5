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

  it('an entry whose body waits on disk, on a pool of workers, is read-only too', async () => {
    const s = await site();
    s.edit('sitegen.config.ts', (t) => t.replace('props: { title: p.data.title, html: p.html }', 'props: { title: p.data.title, html: ((p as any).html = \'<p>swapped</p>\') }'));
    const r = await s.build({ env: { SITEGEN_DISK_BODIES_MIN: '1', SITEGEN_PARALLEL_MIN: '1', SITEGEN_WORKERS: '1' } });
    expect(r.code).toBe(1);
    expect(r.errors[0]!.text).toMatch(/Cannot set property html/);
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
