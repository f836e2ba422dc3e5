// Errors that say the right thing (issue 31), in build, check and dev alike: one template bug on many
// pages is one message; a syntax error in a template is a template error at its line; hints speak of what
// is printed; an unknown front matter field gets a did-you-mean; island errors map under site.base.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { copyOf, siteFrom, type TestSite } from '../helpers/site.ts';

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
import { defineConfig } from 'sitegen';
const Person = z.strictObject({ name: z.string(), author: z.strictObject({ handle: z.string(), email: z.string().optional() }) });
export default defineConfig({
  site: { title: 'T', url: 'https://t.example' },
  layout: ({ children }) => children,
  collections: { people: { pattern: 'people/*.yaml', schema: Person } },
  routes: (c) => c.people.map((p) => ({ path: '/' + p.slug, component: () => null, props: {}, title: p.data.name })),
});
`,
      'content/people/ann.yaml': 'name: Ann\nauthor:\n  handle: ann\n  emial: a@b.example\n  zzzzzzzz: 1\n',
    }));
    const r = await s.check();
    const typo = r.errors.find((e) => e.field === 'author.emial')!;
    expect(typo).toMatchObject({ location: { file: 'content/people/ann.yaml', line: 4, column: 3 }, hint: 'Did you mean "email"? Fields here: handle, email.' });
    expect(r.errors.find((e) => e.field === 'author.zzzzzzzz')!.hint).toBe('Fields here: handle, email.');
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
