// One run reports every content problem it can be sure of, so a user fixes them in one go rather than one
// run at a time: each file's own problems, the references of the entries that loaded (but not one into a
// collection holding a file that failed: the entry it names may be that file), and the components each loaded
// Markdown body uses. build, check and dev say the same. The site's validate() still runs only on content
// with no problem (it is handed every entry; a missing one would read as the site's own issue).
import { describe, expect, it } from 'vitest';
import { build, checkSite } from '../../src/pipeline/build.ts';
import { formatMessage } from '../../src/core/errors.ts';
import type { BuildResult } from '../../src/core/types.ts';
import { copyOf } from '../helpers/scratch.ts';
import { until } from './dev-fixture.ts';

const seen = (r: BuildResult) => r.errors.map((m) => `${m.id} ${formatMessage(m)}`);

// The authoring fixture with a component a Markdown body may use (a name not registered is an error).
const withComponent = {
  'templates/Note.tsx': 'export default function Note() { return <aside>note</aside>; }\n',
};
const registerNote = (t: string) => t
  .replace("import { date, defineCollection, defineConfig, paginate, reference, taxonomy } from 'sitegen-islands';",
    "import { component, date, defineCollection, defineConfig, paginate, reference, taxonomy } from 'sitegen-islands';\nimport Note from './templates/Note.tsx';")
  .replace('  collections: { posts, authors },', '  collections: { posts, authors },\n  components: { Note: component(Note, z.object({})) },');

describe('every problem in one run', () => {
  it("a file's own problem, a dangling reference and an unknown component elsewhere: all three, from build, check and dev", async () => {
    const site = await copyOf('authoring', withComponent);
    site.edit('sitegen.config.ts', registerNote);
    site.edit('content/posts/first.md', (t) => t.replace('date: 2025-01-10', 'date: 2025-02-30'));
    site.edit('content/posts/second.md', (t) => t.replace('author: grace-hopper', 'author: bob'));
    site.edit('content/posts/third.md', (t) => `${t}\n:::Nope\nHi\n:::\n`);
    try {
      const built = await build({ root: site.root });
      const checked = await checkSite({ root: site.root });
      expect(seen(built)).toHaveLength(3);
      expect(seen(built)[0]).toMatch(/^ContentSchemaError content\/posts\/first\.md:3:7 date: February 2025 has 28 days/);
      expect(seen(built)[1]).toMatch(/^ContentReferenceError content\/posts\/second\.md:\d+:9 author: no entry "bob" in collection authors/);
      expect(seen(built)[2]).toMatch(/^\w+ content\/posts\/third\.md:\d+:\d+ .*Nope/);
      expect(seen(checked)).toEqual(seen(built));
      const dev = await site.dev();
      try {
        await until(() => dev.stderr().includes('✗ start →'), 30_000, 'the first build');
        expect(dev.stderr()).toContain('✗ start → 3 errors');
        for (const line of seen(built)) expect(dev.stderr()).toContain(line.slice(line.indexOf(' ') + 1).split('\n')[0]);
      } finally { await dev.close(); }
    } finally { site.remove(); }
  });

  it("after a problem not one file's own (a collection with no files), build and dev both leave the references to be checked", async () => {
    const site = await copyOf('authoring', {});
    site.edit('sitegen.config.ts', (t) => t.replace('  collections: { posts, authors },', "  collections: { posts, authors, extras: defineCollection({ pattern: 'extras/*.yaml', schema: z.strictObject({}) }) },"));
    site.edit('content/posts/second.md', (t) => t.replace('author: grace-hopper', 'author: bob'));
    try {
      const built = await build({ root: site.root });
      expect(seen(built).map((l) => l.split(' ')[0])).toEqual(['EmptyCollection']);
      // At the pattern in sitegen.config.ts, on the line that declares the collection.
      const line = site.file('sitegen.config.ts').split('\n').findIndex((l) => l.includes("extras: defineCollection({ pattern: 'extras/*.yaml'")) + 1;
      expect(built.errors[0].location).toMatchObject({ file: 'sitegen.config.ts', line });
      expect(built.errors[0].location!.lineText.slice(built.errors[0].location!.column - 1)).toMatch(/^pattern: 'extras\/\*\.yaml'/);
      const dev = await site.dev();
      try {
        await until(() => dev.stderr().includes('✗ start →'), 30_000, 'the first build');
        expect(dev.stderr()).toContain('✗ start → 1 error');
        expect(dev.stderr()).not.toContain('no entry "bob"');
      } finally { await dev.close(); }
    } finally { site.remove(); }
  });

  it('a broken link gets a did-you-mean through a whole build and check (a page path a typo away)', async () => {
    const site = await copyOf('authoring', {});
    site.edit('content/posts/first.md', (t) => `${t}\nSee [the second post](/posts/secnod/).\n`);
    try {
      const built = await build({ root: site.root });
      expect(built.errors.map((m) => [m.id, m.hint])).toEqual([['BrokenLink', 'Did you mean /posts/second/?']] /* (as the Markdown writes links: without the base) */);
      expect(seen(await checkSite({ root: site.root }))).toEqual(seen(built));
    } finally { site.remove(); }
  });

  it('a reference into a collection whose file failed waits for that file: no dangling reference is reported', async () => {
    const site = await copyOf('authoring', {});
    site.edit('content/authors/grace-hopper.yaml', (t) => t.replace(/^name: .*$/m, 'name: 5'));
    try {
      const built = await build({ root: site.root });
      expect(seen(built)).toEqual([expect.stringMatching(/^ContentSchemaError content\/authors\/grace-hopper\.yaml:1:7 name: /)]);
      site.edit('content/authors/grace-hopper.yaml', (t) => t.replace('name: 5', 'name: Grace Hopper'));
      site.edit('content/posts/second.md', (t) => t.replace('author: grace-hopper', 'author: grace'));
      const again = await build({ root: site.root });
      expect(seen(again)).toEqual([expect.stringMatching(/author: no entry "grace" in collection authors\. Did you mean "grace-hopper"\?/)]);
    } finally { site.remove(); }
  });
});
