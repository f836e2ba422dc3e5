// JSON content files (an Eleventy site's _data/*.json, Astro's data collections): read as data like YAML
// files, validated with the same located messages, a syntax error at its line and column, and watched by dev.
// They were skipped without a word: a collection of them "matched no file".
import { describe, expect, it } from 'vitest';
import { siteFrom } from '../helpers/scratch.ts';
import { until } from './dev-fixture.ts';

const files = {
  'sitegen.config.ts': `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Person } from './templates/Person.tsx';
export default defineConfig({
  site: { title: 'J', url: 'https://j.example' },
  collections: {
    site: { pattern: 'site.json', single: true, schema: z.strictObject({ name: z.string() }) },
    people: { pattern: 'people/*.json', schema: z.strictObject({ name: z.string(), age: z.number() }) },
  },
  routes: (c) => c.people.map((p) => ({ path: '/people/' + p.slug, component: Person, props: { name: p.data.name, site: c.site.name }, title: p.data.name, source: p.file })),
});
`,
  'templates/Person.tsx': 'export function Person({ name, site }: { name: string; site: string }) { return <main><h1>{name}</h1><p>{site}</p></main>; }\n',
  'content/site.json': '\ufeff{\n  "name": "My site"\n}\n',
  'content/people/ada.json': '{ "name": "Ada", "age": 36 }\n',
};

describe('JSON content files', () => {
  it('are data: a single file and a collection, their slugs without .json', async () => {
    const site = await siteFrom(files);
    try {
      const r = await site.build();
      expect(r.errors).toEqual([]);
      expect(r.read('people/ada/index.html')).toContain('<h1>Ada</h1><p>My site</p>');
    } finally { site.remove(); }
  });

  it('a schema error and a syntax error are located at their line and column', async () => {
    const site = await siteFrom({ ...files, 'content/people/bob.json': '{\n  "name": "Bob",\n  "age": "old"\n}\n', 'content/people/cy.json': '{\n  "name": "Cy",\n  "age": 3,\n}\n' });
    try {
      const r = await site.build();
      expect(r.errors.map((e) => [e.id, `${e.location?.file}:${e.location?.line}:${e.location?.column}`, e.text])).toEqual([
        ['ContentSchemaError', 'content/people/bob.json:3:10', 'Expected number, received string "old"'],
        ['JsonSyntaxError', 'content/people/cy.json:4:1', 'Not valid JSON: Expected double-quoted property name'],
      ]);
    } finally { site.remove(); }
  });

  it('dev rebuilds on an edit to one', async () => {
    const site = await siteFrom(files);
    const dev = await site.dev();
    try {
      await until(() => dev.stdout().includes('watching content/'), 30_000, 'the first build');
      expect(await (await fetch(`${dev.url}/people/ada/`)).text()).toContain('<h1>Ada</h1>');
      site.write('content/people/ada.json', '{ "name": "Ada Lovelace", "age": 36 }\n');
      await until(() => /✓ content\/people\/ada\.json → /.test(dev.stdout()), 30_000, 'the rebuild');
      expect(await (await fetch(`${dev.url}/people/ada/`)).text()).toContain('<h1>Ada Lovelace</h1>');
    } finally { await dev.close(); site.remove(); }
  });
});
