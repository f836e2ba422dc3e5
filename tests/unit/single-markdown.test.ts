// A single-file collection (`single: true`) is its file's data. Pointed at a Markdown file with a body, the
// body would be dropped with no word (content.about.html undefined, the page empty): build, check and dev
// refuse it, naming the file and what to change; a Markdown file of front matter only stays fine.
import { describe, expect, it } from 'vitest';
import { siteFrom } from '../helpers/scratch.ts';

const site = (about: string) => siteFrom({
  'sitegen.config.ts': `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { About } from './templates/About.tsx';
export default defineConfig({
  site: { title: 'S', url: 'https://s.example' },
  collections: { about: { pattern: 'pages/about.md', single: true, schema: z.strictObject({ title: z.string() }) } },
  routes: (c) => [{ path: '/about', component: About, props: { title: c.about.title }, title: c.about.title }],
});
`,
  'templates/About.tsx': 'export function About({ title }: { title: string }) { return <main><h1>{title}</h1></main>; }\n',
  'content/pages/about.md': about,
});

describe('a single collection of a Markdown file', () => {
  it('with a body: build, check and dev say the body would be lost, and what to do', async () => {
    const s = await site('---\ntitle: About us\n---\nWe make things.\n');
    try {
      const want = 'This Markdown file has a body, but its collection is single: true, which keeps a file\'s front matter only: the body would not be published';
      const build = await s.build();
      expect(build.code).toBe(1);
      expect(build.errors.map((e) => [e.text, e.location?.file])).toEqual([[want, 'content/pages/about.md']]);
      expect(build.errors[0].hint).toContain('Drop single: true');
      expect((await s.check()).errors.map((e) => e.text)).toEqual([want]);
      const dev = await s.dev();
      try {
        expect(dev.output()).toContain(want);
      } finally { await dev.close(); }
    } finally { s.remove(); }
  });

  it('with a body, after a build that cached it as a list collection: still refused (the cache does not hide it)', async () => {
    const s = await site('---\ntitle: About us\n---\nWe make things.\n');
    try {
      s.edit('sitegen.config.ts', (t) => t.replace(", single: true, schema:", ", schema:").replace('props: { title: c.about.title }, title: c.about.title', 'props: { title: c.about[0]!.data.title }, title: c.about[0]!.data.title'));
      expect((await s.build()).errors).toEqual([]);
      s.edit('sitegen.config.ts', (t) => t.replace("pattern: 'pages/about.md', schema:", "pattern: 'pages/about.md', single: true, schema:").replace('props: { title: c.about[0]!.data.title }, title: c.about[0]!.data.title', 'props: { title: c.about.title }, title: c.about.title'));
      const r = await s.build();
      expect(r.errors.map((e) => e.id)).toEqual(['ConfigError']);
    } finally { s.remove(); }
  });

  it('of front matter only: its data, as a YAML file\'s', async () => {
    const s = await site('---\ntitle: About us\n---\n\n');
    try {
      const build = await s.build();
      expect(build.errors).toEqual([]);
      expect(build.read('about/index.html')).toContain('<h1>About us</h1>');
    } finally { s.remove(); }
  });
});
