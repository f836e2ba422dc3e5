// A content file no collection takes is never published: the build says so, at the file, with the patterns
// there are (a Hugo page bundle under a `posts/*.md` pattern, a misspelt folder), and goes on. A name that
// starts with "_" is kept out on purpose and not named.
import { afterAll, describe, expect, it } from 'vitest';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';

const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });

describe('content files in no collection', () => {
  it('are a warning at each file in build, check and dev; "_" files and other kinds of file are not', async () => {
    const s = await copyOf('basic', {
      'content/pages/a-trip/index.md': '---\ntitle: A trip\n---\nText.\n',
      'content/itmes/gamma.yaml': 'title: Gamma\ntags: [a, b]\nprice: 3\n',
      'content/_notes/todo.md': 'Not a page.\n',
      'content/pages/photo.txt': 'not content',
    });
    sites.push(s);
    const where = (r: { warnings: { id: string; text: string; location: { file: string } | null }[] }) => r.warnings.map((w) => [w.id, w.location?.file, w.text]);
    const want = [
      ['ContentNotInCollection', 'content/itmes/gamma.yaml', 'This file is in no collection, so it is not published'],
      ['ContentNotInCollection', 'content/pages/a-trip/index.md', 'This file is in no collection, so it is not published'],
    ];
    const build = await s.build();
    expect(build.code).toBe(0);
    expect(where(build)).toEqual(want);
    expect(build.warnings[0].hint).toContain('(items: items/*.yaml; pages: pages/*.md)');
    expect(build.warnings[0].hint).toContain('"posts/**/*.md"');
    expect(where(await s.check())).toEqual(want);
    const dev = await s.dev();
    try {
      await expect.poll(() => dev.output(), { timeout: 10_000 }).toContain('content/pages/a-trip/index.md This file is in no collection');
    } finally { await dev.close(); }
  });
});

describe('an Eleventy directory data file', () => {
  it('is told to become the schema\'s defaults; a build or check that fails prints it too, before the errors', async () => {
    const s = await copyOf('basic', {
      'content/pages/pages.json': '{ "layout": "post.njk", "tags": "post" }\n',
      'content/pages/bad.md': '---\ntitle: 5\n---\nText.\n',
    });
    sites.push(s);
    for (const r of [await s.build(), await s.check()]) {
      expect(r.code).toBe(1);
      expect(r.warnings.map((w) => [w.location?.file, w.hint])).toEqual([['content/pages/pages.json', expect.stringMatching(/^This looks like an Eleventy directory data file .* give a field its default in the collection's schema/)]]);
      const warned = r.stderr.indexOf('! content/pages/pages.json This file is in no collection'), failed = r.stderr.indexOf('✗ content/pages/bad.md:2:8 title:');
      expect(warned).toBeGreaterThanOrEqual(0);
      expect(failed).toBeGreaterThan(warned);
    }
  });
});

describe('MDX, from an Astro site', () => {
  it('a .mdx file no pattern takes is a warning that says MDX is not read; one a pattern takes is an error, once', async () => {
    const mdx = "---\ntitle: Using MDX\n---\nimport Callout from '../components/Callout.astro';\n\n<Callout>Hi</Callout>\n";
    const s = await copyOf('basic', { 'content/pages/using-mdx.mdx': mdx });
    sites.push(s);
    const r = await s.build();
    expect(r.code).toBe(0);
    expect(r.warnings.map((w) => [w.id, w.location?.file, w.text])).toEqual([['ContentNotInCollection', 'content/pages/using-mdx.mdx', 'This file is MDX, which sitegen does not read, so it is not published: content is data, and its imports and JSX would never run']]);
    expect(r.warnings[0].hint).toMatch(/^Rename it to \.md and write its components as directives/);
    s.edit('sitegen.config.ts', (t) => t.replace("pattern: 'pages/*.md'", "pattern: ['pages/*.md', 'pages/*.mdx']"));
    const taken = await s.build();
    expect(taken.errors.map((e) => [e.id, e.location?.file])).toEqual([['ContentPolicyError', 'content/pages/using-mdx.mdx']]);
    expect(taken.warnings).toEqual([]);
    // sitegen dev says the same.
    const { createDevSite } = await import('../../src/dev/devSite.ts');
    const dev = await createDevSite({ root: s.root });
    try {
      expect((await dev.start()).errors.map((e) => [e.id, e.location?.file])).toEqual([['ContentPolicyError', 'content/pages/using-mdx.mdx']]);
    } finally { await dev.close(); }
  });

  it('a pattern with braces (Astro\'s glob) is an error at the pattern that lists each one', async () => {
    const s = await copyOf('basic');
    sites.push(s);
    s.edit('sitegen.config.ts', (t) => t.replace("pattern: 'pages/*.md'", "pattern: 'pages/**/*.{md,mdx}'"));
    const r = await s.build();
    expect(r.errors.map((e) => [e.id, e.location?.file, e.text])).toEqual([['ConfigError', 'sitegen.config.ts', expect.stringContaining('"pages/**/*.{md,mdx}" has braces, which a pattern does not read: list each pattern, pattern: [\'pages/**/*.md\', \'pages/**/*.mdx\']')]]);
    // Every group of every pattern spelt out, the other patterns kept; none offered for nested braces.
    s.edit('sitegen.config.ts', (t) => t.replace("pattern: 'pages/**/*.{md,mdx}'", "pattern: ['{pages,notes}/*.{md,mdx}', 'extra/*.md']"));
    expect((await s.build()).errors[0].text).toContain("pattern: ['pages/*.md', 'pages/*.mdx', 'notes/*.md', 'notes/*.mdx', 'extra/*.md']");
    s.edit('sitegen.config.ts', (t) => t.replace("['{pages,notes}/*.{md,mdx}', 'extra/*.md']", "'pages/*.{md,{a,b}}'"));
    expect((await s.build()).errors[0].text).toMatch(/"pages\/\*\.\{md,\{a,b\}\}" has braces, which a pattern does not read: list each pattern$/);
  });
});
