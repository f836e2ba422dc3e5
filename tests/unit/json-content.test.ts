// JSON content files (an Eleventy site's _data/*.json, Astro's data collections): read as data like YAML
// files, validated with the same located messages, a syntax error at its line and column, and watched by dev.
// They were skipped without a word: a collection of them "matched no file".
import { describe, expect, it } from 'vitest';
import { siteFrom } from '../helpers/scratch.ts';
import { jsonErrorAt } from '../../src/content/jsonError.ts';
import { prng } from '../helpers/prng.ts';
import { cpuMs } from '../helpers/cpuTime.ts';
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
        ['JsonSyntaxError', 'content/people/cy.json:4:1', 'Not valid JSON: A comma before the end of a map (JSON allows no trailing comma)'],
      ]);
    } finally { site.remove(); }
  });

  it('a syntax error is located where it is, also where V8 names no offset', () => {
    const where = (t: string) => { const e = jsonErrorAt(t); const before = t.slice(0, e.at); return `${before.split('\n').length}:${e.at - before.lastIndexOf('\n')} ${e.reason}`; };
    expect(where('{\n  "tags": [1, 2,]\n}')).toBe('2:17 A comma before the end of a list or map (JSON allows no trailing comma)');
    expect(where("{\n  'name': 'x'\n}")).toBe('2:3 Expected a property name in double quotes');
    expect(where('{ "name": \'x\' }')).toBe('1:11 Strings are written in double quotes in JSON');
    expect(where('{ "ok": tru }')).toBe('1:9 Expected a value (a string in double quotes, a number, true, false, null, a list or a map)');
    expect(where('{ "a": 1 } x')).toBe('1:12 Unexpected text after the JSON value');
    expect(where('{ "a": "b\n" }')).toBe('1:10 A string runs to the end of the line: close it with "');
    expect(where('{ "a": 1')).toBe('1:9 Expected "," or "}" after a property value, but the file ends');
    expect(where('{ "a" 1 }')).toBe('1:7 Expected ":" after a property name');
  });

  it('finds an error in every text JSON.parse refuses (5,000 mutated documents), in one pass', () => {
    const rnd = prng(3);
    const base = JSON.stringify({ title: 'A "quoted" \\ title', tags: ['a', 'b'], n: -1.5e3, ok: true, none: null, deep: [[{ x: [] }], {}] }, null, 2);
    let refused = 0;
    for (let k = 0; k < 5_000; k++) {
      const chars = [...base];
      for (let m = 1 + Math.floor(rnd() * 3); m > 0; m--) {
        const at = Math.floor(rnd() * chars.length);
        const r = rnd();
        if (r < 0.4) chars.splice(at, 1); else if (r < 0.8) chars.splice(at, 0, ',"\'{}[]:x0\n'[Math.floor(rnd() * 12)]!); else chars[at] = ' ';
      }
      const text = chars.join('');
      let ok = true;
      try { JSON.parse(text); } catch { ok = false; }
      if (ok) continue;
      refused++;
      const e = jsonErrorAt(text);
      expect(e.at, text).toBeGreaterThanOrEqual(0);
      expect(e.at, text).toBeLessThanOrEqual(text.length);
      expect(e.reason, text).not.toBe('Not valid JSON');
    }
    expect(refused).toBeGreaterThan(3_000);
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n - 1);
    const small = Math.max(2, cpuMs(() => jsonErrorAt(deep(50_000))));
    expect(cpuMs(() => jsonErrorAt(deep(500_000)))).toBeLessThan(small * 30);
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
