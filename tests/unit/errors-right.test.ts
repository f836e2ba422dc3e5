// Errors that say the right thing (issue 31), in build, check and dev alike: one template bug on many
// pages is one message; a syntax error in a template is a template error at its line; hints speak of what
// is printed; an unknown front matter field gets a did-you-mean; island errors map under site.base.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type TestSite } from '../helpers/site.ts';
import { copyOf, siteFrom } from '../helpers/scratch.ts';
import { codeFrame, message, fileLocation } from '../../src/core/errors.ts';

const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });
async function site(make: Promise<TestSite>): Promise<TestSite> {
  const s = await make;
  sites.push(s);
  return s;
}

describe('an unknown front matter field gets a did-you-mean', () => {
  it('names the closest field of the schema, located at the key, in build, check and dev', async () => {
    const s = await site(copyOf('basic', { 'content/pages/about.md': '---\ntitle: About\ndescripton: About the fixture.\n---\n# Hello\n' }));
    for (const command of ['build', 'check']) {
      const r = await s.run(command);
      expect(r.code, command).toBe(1);
      const m = r.errors.find((e) => e.field === 'descripton')!;
      expect(m, command).toMatchObject({ id: 'ContentSchemaError', text: 'Unknown field "descripton"', location: { file: 'content/pages/about.md', line: 3, column: 1 } });
      expect(m.hint).toBe('Did you mean "description"? Fields here: title, description.');
      expect(r.stderr).toContain('hint: Did you mean "description"?');
    }
    const dev = await s.dev();
    try {
      expect(dev.output()).toContain('hint: Did you mean "description"?');
    } finally { await dev.close(); }
  });

  it('in a nested object, and without a guess when nothing is close', async () => {
    const s = await site(siteFrom({
      'sitegen.config.ts': `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
const Person = z.strictObject({ name: z.string(), author: z.strictObject({ handle: z.string(), email: z.string().optional() }) });
export default defineConfig({
  site: { title: 'T', url: 'https://t.example' },
  layout: ({ children }) => children,
  collections: { people: { pattern: 'people/*.yaml', schema: Person } },
  routes: (c) => c.people.map((p) => ({ path: '/' + p.slug, component: () => null, props: {}, title: p.data.name })),
});
`,
      'content/people/ann.yaml': 'name: Ann\nauthor:\n  handle: ann\n  emial: a@b.example\n  zzzzzzzz: 1\n  qqqqqqqq: true\n  wwwwwwww: [a, b]\n  vvvvvvvv: 2026-01-02\n  xxxxxxxx: some text\n  hhhhhhhh: ./hero.jpg\n  pppppppp: Jul 08 2022\n  layout: post.njk\n  eleventyExcludeFromCollections: true\n',
    }));
    const r = await s.check();
    const typo = r.errors.find((e) => e.field === 'author.emial')!;
    expect(typo).toMatchObject({ location: { file: 'content/people/ann.yaml', line: 4, column: 3 }, hint: 'Did you mean "email"? Fields here: handle, email.' });
    // The type the hint suggests is the one of the value written.
    const keep = (key: string, type: string) => `Fields here: handle, email. To keep "${key}", add it to the schema in sitegen.config.ts, with its type (${key}: ${type}).`;
    expect(r.errors.find((e) => e.field === 'author.zzzzzzzz')!.hint).toBe(keep('zzzzzzzz', 'z.number().optional() for a number'));
    expect(r.errors.find((e) => e.field === 'author.qqqqqqqq')!.hint).toBe(keep('qqqqqqqq', 'z.boolean().optional() for true or false'));
    expect(r.errors.find((e) => e.field === 'author.wwwwwwww')!.hint).toBe(keep('wwwwwwww', 'z.array(z.string()).optional() for a list of texts'));
    expect(r.errors.find((e) => e.field === 'author.vvvvvvvv')!.hint).toBe(keep('vvvvvvvv', "date().optional() (from 'sitegen-islands') for a date"));
    expect(r.errors.find((e) => e.field === 'author.xxxxxxxx')!.hint).toBe(keep('xxxxxxxx', 'z.string().optional() for a text'));
    // (what an Astro post holds: an image beside it, a day with its month's name)
    expect(r.errors.find((e) => e.field === 'author.hhhhhhhh')!.hint).toBe(keep('hhhhhhhh', "imageFile().optional() (from 'sitegen-islands') for an image file"));
    expect(r.errors.find((e) => e.field === 'author.pppppppp')!.hint).toBe(keep('pppppppp', "date().optional() (from 'sitegen-islands') for a date"));
    // Keys only another generator read: what takes their place here, not a schema to keep them in.
    expect(r.errors.find((e) => e.field === 'author.layout')!.hint).toBe('"layout" chose a template in Eleventy, Jekyll and Hugo: here the route\'s component does, in routes(). Delete the line. Fields here: handle, email.');
    expect(r.errors.find((e) => e.field === 'author.eleventyExcludeFromCollections')!.hint).toMatch(/^This kept a file out of Eleventy's lists: here routes\(\) makes the lists\./);
  });
});

describe('an unknown field named as an object\'s own member', () => {
  it('gets the usual hint (constructor, toString are no keys of another generator)', async () => {
    const s = await site(copyOf('basic', { 'content/pages/about.md': '---\ntitle: About\nconstructor: Ada\n---\n# Hello\n' }));
    const r = await s.check();
    expect(r.errors[0]).toMatchObject({ field: 'constructor', hint: expect.stringContaining('To keep "constructor", add it to the schema') });
    expect(r.errors[0].hint).not.toContain('native code');
  });
});

describe("Eleventy's permalink: false", () => {
  it('is told that a page is a route here, not to quote false into a path', async () => {
    const s = await site(copyOf('basic', { 'content/pages/about.md': '---\ntitle: About\npermalink: false\n---\n# Hello\n' }));
    s.edit('sitegen.config.ts', (t) => t.replace('description: z.string().optional() });', 'description: z.string().optional(), permalink: z.string().optional() });'));
    const r = await s.check();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ field: 'permalink', location: { file: 'content/pages/about.md', line: 3 } });
    expect(r.errors[0].hint).toMatch(/^permalink: false wrote no page in Eleventy: here a page is a route\./);
  });
});

describe('an island error under site.base', () => {
  it('maps the browser\'s /blog/assets/… frame to the island source', async () => {
    const s = await site(copyOf('base-blog'));
    const dev = await s.dev();
    try {
      const html = await (await fetch(`${dev.url}/blog/`)).text();
      const chunks = [...new Set(html.match(/\/blog\/assets\/[\w.-]+\.js/g) ?? [])];
      let frame = '';
      for (const chunk of chunks) {
        const lines = (await (await fetch(dev.url + chunk)).text()).split('\n');
        const i = lines.findIndex((l) => l.includes('count is'));
        if (i >= 0) frame = `${dev.url}${chunk}:${i + 1}:${lines[i]!.indexOf('count is') + 1}`;
      }
      expect(frame).toContain('/blog/assets/');
      const printed: string[] = [];
      const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => { printed.push(String(chunk)); return true; });
      const res = await fetch(`${dev.url}/__sitegen/error`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', Origin: dev.url },
        body: JSON.stringify({ message: 'TypeError: boom', stack: `TypeError: boom\n    at Counter (${frame})`, page: '/blog/' }),
      }).finally(() => write.mockRestore());
      expect(res.status).toBe(200);
      const [entry] = await res.json() as { file: string; line: number }[];
      expect(entry).toMatchObject({ file: 'templates/islands/Counter.tsx', line: 7 });
      expect(printed.join('')).toContain('✗ templates/islands/Counter.tsx:7:');
    } finally { await dev.close(); }
  });
});

/** A site of `n` items whose Item template throws on every page (line 3), and once more elsewhere (line 6). */
function throwingSite(n: number): Promise<TestSite> {
  const files: Record<string, string> = {
    'sitegen.config.ts': `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Item, Odd } from './templates/item.tsx';
export default defineConfig({
  site: { title: 'T', url: 'https://t.example' },
  layout: ({ children }) => children,
  collections: { items: { pattern: 'items/*.yaml', schema: z.strictObject({ title: z.string() }) } },
  routes: (c) => [
    ...c.items.map((i) => ({ path: '/items/' + i.slug + '/', component: Item, props: { title: i.data.title }, title: i.data.title, source: i.file })),
    { path: '/odd/', component: Odd, props: {}, title: 'Odd' },
  ],
});
`,
    'templates/item.tsx': `export function Item({ title }: { title: string }) {
  const price = (undefined as unknown as { amount: number } | undefined);
  if (!price) throw new Error('price is missing');
  return <h1>{title}</h1>;
}
export function Odd(): never { throw new Error('odd one'); }
`,
  };
  for (let i = 1; i <= n; i++) files[`content/items/i${String(i).padStart(2, '0')}.yaml`] = `title: Item ${i}\n`;
  return site(siteFrom(files));
}

describe('one template bug on many pages is one error', () => {
  it('groups the same error at the same place: the first page, "and N more pages", a few named', async () => {
    const s = await throwingSite(29);
    for (const command of ['build', 'check']) {
      const r = await s.run(command);
      expect(r.code, command).toBe(1);
      expect(r.errors.map((e) => e.text), command).toEqual([
        'rendering /items/i01/ failed: price is missing (and 28 more pages)',
        'rendering /odd/ failed: odd one',
      ]);
      expect(r.errors[0]).toMatchObject({ id: 'RenderError', location: { file: 'templates/item.tsx', line: 3 } });
      expect(r.errors[0]!.notes[0]!.text).toBe('also on /items/i02/, /items/i03/, /items/i04/ and 25 more');
      expect(r.errors[1]).toMatchObject({ location: { file: 'templates/item.tsx', line: 6 } });
      expect(r.stderr.match(/failed: price is missing/g), command).toHaveLength(1);
    }
    const json = JSON.parse((await s.check({ json: true })).stdout) as { errors: { text: string }[] };
    expect(json.errors.map((e) => e.text)).toEqual(['rendering /items/i01/ failed: price is missing (and 28 more pages)', 'rendering /odd/ failed: odd one']);
    const dev = await s.dev();
    try {
      expect(dev.output().match(/failed: price is missing/g)).toHaveLength(1);
      expect(dev.output()).toContain('rendering /items/i01/ failed: price is missing (and 28 more pages)');
      expect(dev.output()).toContain('→ 2 errors');
    } finally { await dev.close(); }
  });

  it('groups one lookup that fails with each page\'s own key (the same error but for what it quotes)', async () => {
    const s = await throwingSite(3);
    s.edit('templates/item.tsx', (t) => t.replace("if (!price) throw new Error('price is missing');", "if (!price) throw new TypeError(`Cannot read properties of undefined (reading '${title.slice(5)}')`);"));
    const r = await s.check();
    expect(r.errors.map((e) => e.text)).toEqual(["rendering /items/i01/ failed: Cannot read properties of undefined (reading '1') (and 2 more pages)", 'rendering /odd/ failed: odd one']);
    expect(r.errors[0]!.notes[0]!.text).toBe('also on /items/i02/, /items/i03/, where it quotes other values');
  });

  it('says "1 more page" for two pages', async () => {
    const r = await (await throwingSite(2)).check();
    expect(r.errors[0]!.text).toBe('rendering /items/i01/ failed: price is missing (and 1 more page)');
    expect(r.errors[0]!.notes[0]!.text).toBe('also on /items/i02/');
  });
});

describe('a syntax error in a template is a template error at its line', () => {
  const broken = (text: string) => text.replace('return (<><h1>{title}</h1>', 'return (<><h1>{title}</div>');

  it('in build, check and dev: TemplateSyntaxError at templates/pages.tsx:line:col with the code frame', async () => {
    const s = await site(copyOf('basic'));
    s.edit('templates/pages.tsx', broken);
    const line = s.file('templates/pages.tsx').split('\n').findIndex((l) => l.includes('{title}</div>')) + 1;
    for (const command of ['build', 'check']) {
      const r = await s.run(command);
      expect(r.code, command).toBe(1);
      expect(r.errors[0], command).toMatchObject({ id: 'TemplateSyntaxError', location: { file: 'templates/pages.tsx', line } });
      expect(r.errors[0]!.text).toMatch(/closing "div" tag does not match opening "h1" tag/);
      expect(r.stderr).toContain(`✗ templates/pages.tsx:${line}:`);
      expect(r.stderr).toContain(`  ${line} |   return (<><h1>{title}</div>`);
      expect(r.stderr).toContain('[A template does not compile]');
      expect(r.stderr).not.toContain('Site configuration error');
      expect(r.stderr).not.toContain('sitegen.config.ts');
    }
    const dev = await s.dev();
    try {
      expect(dev.output()).toContain(`✗ templates/pages.tsx:${line}:`);
      expect(dev.output()).toContain('[A template does not compile]');
      expect(dev.output()).not.toContain('Site configuration error');
    } finally { await dev.close(); }
  });

  it('a syntax error in sitegen.config.ts stays a located ConfigError', async () => {
    const s = await site(copyOf('basic'));
    s.edit('sitegen.config.ts', (t) => t.replace("css: ['templates/site.css'],", "css: ['templates/site.css'],,"));
    const r = await s.check();
    expect(r.errors[0]).toMatchObject({ id: 'ConfigError', location: { file: 'sitegen.config.ts', line: 10 } });
    expect(r.stderr).toContain('✗ sitegen.config.ts:10:');
  });
});

describe('hints speak of what is printed', () => {
  it('a render error\'s hint names the location shown, not a stack', async () => {
    const r = await (await throwingSite(1)).check();
    expect(r.stderr).not.toMatch(/stack/i);
    expect(r.errors[0]!.hint).toMatch(/^The location is the line of the template/);
  });

  it('a config function that throws in a template module is not sent to sitegen.config.ts', async () => {
    const s = await site(copyOf('basic', { 'templates/routes.ts': 'export function routes(): never {\n  throw new Error(\'no routes today\');\n}\n' }));
    s.edit('sitegen.config.ts', (t) => t.replace("import { Layout,", "import { routes as broken } from './templates/routes.ts';\nimport { Layout,").replace('routes: (c) => [', 'routes: (c) => broken() ?? ['));
    const r = await s.check();
    expect(r.errors[0]).toMatchObject({ id: 'ConfigError', location: { file: 'templates/routes.ts', line: 2 } });
    expect(r.stderr).not.toContain('See sitegen.config.ts');
    expect(r.errors[0]!.hint).toBe('Fix it at the location shown; without one, in sitegen.config.ts.');
  });
});

describe('the code frame', () => {
  it('puts the caret under the column on a line indented with tabs, as a terminal shows both', () => {
    const m = message('YamlSyntaxError', 'The list that starts with this [ never ends with a ]', fileLocation('content/a.yaml', 12, 8, '\t\ttags: [a, b'));
    expect(codeFrame(m)).toEqual(['12 | \t\ttags: [a, b', '   | \t\t     ^']);
  });
});

describe('a cycle of imports', () => {
  it('names the modules that import each other when loading the config throws', async () => {
    const s = await site(copyOf('basic', {
      'templates/a.ts': "import { b } from './b.ts';\nexport const a = ['x'];\nexport const count = b.length;\n",
      'templates/b.ts': "import { a } from './a.ts';\nexport const b = a.map((x) => x);\n",
    }));
    s.edit('sitegen.config.ts', (t) => t.replace("import { Layout,", "import { count } from './templates/a.ts';\nvoid count;\nimport { Layout,"));
    for (const command of ['build', 'check']) {
      const r = await s.run(command);
      expect(r.code, command).toBe(1);
      expect(r.errors[0], command).toMatchObject({ location: { file: 'templates/b.ts', line: 2 } });
      // (from whichever of the two the compile lists first)
      expect(r.errors[0]!.notes.map((n) => n.text).join('\n'), command).toMatch(/^these modules import each other, so one runs before what it imports from the other is ready: templates\/(a|b)\.ts → templates\/(?!\1)[ab]\.ts → templates\/\1\.ts$/m);
      expect(r.stderr, command).toContain('these modules import each other');
    }
  });
});
