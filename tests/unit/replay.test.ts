// A build after an edit of Markdown bodies alone renders the pages that show them without running routes() or
// loading the rest of the content (pipeline/replay.ts), when the last build recorded what routes() read of the
// bodies; anything else (a front matter field, a field routes() read, a new link or heading id, a new file, a
// problem in the file) is built as always. After every step the output is a clean build's, byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildRun, TestSite } from '../helpers/site.ts';
import { copyOf, siteFrom } from '../helpers/scratch.ts';
import { cleanBuilder } from '../helpers/cleanBuild.ts';
import { prng } from '../helpers/prng.ts';

// Bodies on disk from the first file (the setting a site of 2,000 content files has by default), and the output
// stamped on another thread from the first file (a big output's way: outputProbe.ts).
const ENV = { SITEGEN_DISK_BODIES_MIN: '0', SITEGEN_PROBE_MIN: '1' };
const POSTS = ['one', 'two', 'three', 'four'];
const post = (title: string, body: string) => `---\ntitle: ${title}\n---\n${body}\n`;

let site: TestSite;
let clean: () => Promise<BuildRun>;
beforeAll(async () => {
  site = await copyOf('basic', Object.fromEntries(POSTS.map((p, i) => [`content/pages/${p}.md`, post(`Post ${p}`, `# Post ${p}\n\nText ${i}.\n\n## Part ${i}\n\nMore text, see [home](/).`)])));
  // The pages' routes hand over the entry (read as the page renders), its reading time and how many links its
  // body writes (routes() reads `readingMinutes` and `links`); the home page is given every page's entry and
  // shows their titles and reading times as it renders.
  site.edit('sitegen.config.ts', (t) => t
    // (heading ids: a new heading is a new id other pages may link to)
    .replace("import { defineConfig, href } from 'sitegen-islands';", "import { defineConfig, href, markdown } from 'sitegen-islands';")
    .replace('  css:', '  plugins: [markdown({ headingIds: true })],\n  css:')
    .replace("props: { title: p.data.title, html: p.html }", 'props: { title: p.data.title, entry: p, minutes: p.readingMinutes, links: (p.links ?? []).length }')
    .replace("props: { items: c.items.map((i) => ({ slug: i.slug, title: i.data.title })) }", 'props: { items: c.items.map((i) => ({ slug: i.slug, title: i.data.title })), pages: c.pages }'));
  site.edit('templates/pages.tsx', (t) => t
    .replace(
      'export function Doc({ title, html }: { title: string; html: string }): ReactNode {\n  return (<><h1>{title}</h1><div dangerouslySetInnerHTML={{ __html: html }} /></>);',
      'export function Doc({ title, entry, minutes, links }: { title: string; entry: { html?: string }; minutes: number; links: number }): ReactNode {\n  return (<><h1>{title}</h1><p>{minutes} min, {links} links</p><div dangerouslySetInnerHTML={{ __html: entry.html ?? \'\' }} /></>);')
    .replace('export function Home({ items }: { items: { slug: string; title: string }[] }) {\n  return (<><h1>Fixture home</h1>',
      'export function Home({ items, pages = [] }: { items: { slug: string; title: string }[]; pages?: { data: { title: string }; words?: number }[] }) {\n  return (<><h1>Fixture home</h1><p>{pages.map((p) => `${p.data.title}: ${p.words} words`).join(\', \')}</p>'));
  clean = cleanBuilder(site);
});
afterAll(() => site?.remove());

/** A build, then a clean one: the same files, byte for byte; whether the build replayed, and what it rendered. */
async function step(name: string): Promise<{ replayed: boolean; rendered?: number; run: BuildRun }> {
  const run = await site.build({ env: ENV, json: true });
  const json = JSON.parse(run.stdout) as { cached: string[]; rendered?: number; errors: unknown[] };
  const c = await clean();
  expect(run.code, `${name}: ${run.stderr}`).toBe(c.code);
  expect(run.errors.map((e) => e.text), name).toEqual(c.errors.map((e) => e.text));
  if (!c.errors.length) {
    const a = run.output(), b = c.output();
    expect(Object.keys(a).sort(), name).toEqual(Object.keys(b).sort());
    for (const f of Object.keys(b)) expect(a[f], `${name}: ${f}`).toBe(b[f]);
  }
  return { replayed: json.cached.includes('replay'), rendered: json.rendered, run };
}

const edit = (file: string, fn: (t: string) => string) => site.edit(`content/pages/${file}.md`, fn);

describe('a build after an edit of Markdown bodies alone', () => {
  it('renders the pages that show them from the record; any other change is built as always', async () => {
    expect((await step('first')).replayed).toBe(false);
    edit('one', (t) => t.replace('Text 0.', 'Text 0, edited.'));
    const body = await step('one body');
    expect(body.replayed).toBe(true);
    // (its page, and the home page, whose props hold every page's entry: it shows the word counts)
    expect(body.rendered).toBe(2);
    expect(body.run.read('one/index.html')).toContain('Text 0, edited.');
    // Two files at once, again in the same file.
    edit('two', (t) => t.replace('Text 1.', 'Text 1, edited.'));
    edit('three', (t) => t.replace('Text 2.', 'Text 2, edited.'));
    expect(await step('two bodies')).toMatchObject({ replayed: true, rendered: 3 });
    // Saved as some editors save: a new file renamed over the old one (its folder's mtime moves, its files stay).
    const file = path.join(site.root, 'content/pages/two.md');
    fs.writeFileSync(`${file}.swp`, fs.readFileSync(file, 'utf8').replace('Text 1, edited.', 'Text 1, saved by rename.'));
    fs.renameSync(`${file}.swp`, file);
    expect(await step('a rename over it')).toMatchObject({ replayed: true, rendered: 2 });
    // What routes() read changed (the links of a body: the home page lists their count), or the data did.
    for (const [name, change] of [
      ['a new link', (t: string) => t.replace('Text 0, edited.', 'Text 0, see [an item](/items/beta/).')], // (routes() counts them)
      ['a field', (t: string) => t.replace('title: Post one', 'title: Post one, renamed')],
      ['the reading time', (t: string) => t.replace('More text', `${'word '.repeat(400)}More text`)],
      ['a new heading id', (t: string) => t.replace('## Part 0', '## Part zero')],
      ['a broken link', (t: string) => t.replace('see [home](/)', 'see [nowhere](/nowhere/)')],
      ['a template tag', (t: string) => t.replace('see [nowhere](/nowhere/)', 'see {{ site.title }}')],
    ] as const) {
      edit('one', change);
      expect((await step(name)).replayed, name).toBe(false);
    }
    edit('one', (t) => t.replace('see {{ site.title }}', 'see [home](/)'));
    expect((await step('fixed')).replayed).toBe(false); // (a failed build leaves no record)
    // A new file, and one removed: the folders changed.
    site.write('content/pages/five.md', post('Post five', 'Five.'));
    expect((await step('a new file')).replayed).toBe(false);
    fs.rmSync(path.join(site.root, 'content/pages/five.md'));
    expect((await step('a file removed')).replayed).toBe(false);
    edit('four', (t) => t.replace('Text 3.', 'Text 3, edited.'));
    expect(await step('after them')).toMatchObject({ replayed: true, rendered: 2 });
    // A page of dist/ changed by hand: the output is not the one recorded, so the whole build puts it back.
    fs.appendFileSync(path.join(site.root, 'dist/items/alpha/index.html'), '<!-- by hand -->');
    edit('four', (t) => t.replace('Text 3, edited.', 'Text 3, edited twice.'));
    expect((await step('a page changed by hand')).replayed).toBe(false);
  }, 120_000);

  it('a seeded run of edits, most of bodies: after each the output is a clean build\'s, and bodies alone are replayed', async () => {
    const random = prng(28);
    const steps = Number(process.env.SITEGEN_REPLAY_STEPS ?? 24);
    let replays = 0;
    for (let i = 0; i < steps; i++) {
      const file = POSTS[Math.floor(random() * POSTS.length)]!;
      const kind = Math.floor(random() * 6);
      const edits = [
        (t: string) => `${t}\nA sentence added in step ${i}.\n`, // a body
        (t: string) => `${t}\nA sentence added in step ${i}.\n`,
        (t: string) => t.replace(/\n\n[^\n]*\n$/, '\n'), // a body, shorter (or the same text, rewritten)
        (t: string) => `${t}\nSee [item ${i}](/items/${random() < 0.5 ? 'alpha' : 'beta'}/).\n`, // a link routes() reads
        (t: string) => t.replace(/^title: .*$/m, `title: Post ${file} ${i}`), // a field
        (t: string) => `${t}\n## Heading ${i}\n`, // a heading: an id
      ];
      edit(file, edits[kind]!);
      const r = await step(`step ${i}: ${file}, edit ${kind}`);
      if (r.replayed) replays++;
    }
    expect(replays).toBeGreaterThan(steps / 4);
  }, 300_000);
});

describe('a replayed edit of an entry another one references', () => {
  it('renders the pages of the entries that hold it too (a post shows its author\'s bio)', async () => {
    const s = await siteFrom({
      'sitegen.config.ts': `import { z } from 'zod';
import { defineConfig, reference } from 'sitegen-islands';
import { Post, Author } from './templates/pages.tsx';
export default defineConfig({
  site: { title: 'Refs', url: 'https://refs.example' },
  collections: {
    authors: { pattern: 'authors/*.md', schema: z.strictObject({ name: z.string() }) },
    posts: { pattern: 'posts/*.md', schema: z.strictObject({ title: z.string(), author: reference('authors') }) },
  },
  routes: (c) => [
    ...c.posts.map((p) => ({ path: '/' + p.slug, component: Post, props: { entry: p }, title: p.data.title, source: p.file })),
    ...c.authors.map((a) => ({ path: '/by/' + a.slug, component: Author, props: { entry: a }, title: a.data.name, source: a.file })),
  ],
});
`,
      'templates/pages.tsx': `import type { Entry } from 'sitegen-islands';
export function Post({ entry }: { entry: Entry }) {
  const author = entry.data.author as Entry;
  return (<><h1>{entry.data.title}</h1><div dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} /><aside dangerouslySetInnerHTML={{ __html: author.html ?? '' }} /></>);
}
export function Author({ entry }: { entry: Entry }) {
  return (<><h1>{entry.data.name}</h1><div dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} /></>);
}
`,
      'content/authors/ada.md': '---\nname: Ada\n---\nAda writes.\n',
      'content/authors/sam.md': '---\nname: Sam\n---\nSam writes.\n',
      'content/posts/one.md': '---\ntitle: One\nauthor: ada\n---\nThe first post.\n',
      'content/posts/two.md': '---\ntitle: Two\nauthor: sam\n---\nThe second post.\n',
    });
    const cleanRefs = cleanBuilder(s);
    try {
      expect((await s.build({ env: ENV })).errors).toEqual([]);
      s.edit('content/authors/ada.md', (t) => t.replace('Ada writes.', 'Ada writes books.'));
      const r = await s.build({ env: ENV, json: true });
      expect(JSON.parse(r.stdout)).toMatchObject({ cached: ['replay'], rendered: 2 });
      expect(r.read('one/index.html')).toContain('<aside><p>Ada writes books.</p>');
      const c = await cleanRefs();
      expect(r.output()).toEqual(c.output());
    } finally { s.remove(); }
  });
});

describe('what the record cannot see is built whole, as a clean build would', () => {
  const POST = `import type { Entry } from 'sitegen-islands';
export function Post({ entry }: { entry: Entry }) { return (<><h1>{String(entry.data.title)} {String(entry.data.kind)} {entry.id}</h1><div dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} /></>); }
export function Home({ shout }: { shout: (s: string) => string }) { return <h1>{shout('home')}</h1>; }
export function Layout({ children, content, route }: { children: unknown; content: Record<string, { excerpt?: string }[]>; route: { path: string } }) {
  return (<>{route.path === '/' ? <ul>{content.posts.map((p, i) => <li key={i}>{p.excerpt}</li>)}</ul> : null}{children as never}</>);
}
`;
  const site = (routes: string, collections = "posts: { pattern: 'posts/*.md', schema: z.strictObject({ title: z.string() }) }") => siteFrom({
    'sitegen.config.ts': `import { z } from 'zod';
import { createElement } from 'react';
import { defineConfig } from 'sitegen-islands';
import { Post, Home, Layout } from './templates/pages.tsx';
export default defineConfig({
  site: { title: 'T', url: 'https://t.example' },
  layout: Layout as never,
  collections: { ${collections} },
  routes: (c) => [${routes}],
});
`,
    'templates/pages.tsx': POST,
    'content/posts/one.md': '---\ntitle: One\n---\nFirst paragraph of one.\n',
    'content/posts/two.md': '---\ntitle: Two\n---\nFirst paragraph of two.\n',
  });
  const cases: [string, string, string?][] = [
    ['a component made in routes() that holds the entry', "...c.posts.map((p) => ({ path: '/' + p.slug, component: () => createElement(Post, { entry: p }), props: {}, title: p.data.title }))"],
    ['a layout that reads a collection on a page whose props hold a function', "{ path: '/', component: Home, props: { shout: (s: string) => s.toUpperCase() }, title: 'Home' }, ...c.posts.map((p) => ({ path: '/' + p.slug, component: Post, props: { entry: p }, title: p.data.title }))"],
    ['a file two collections take', "...c.posts.map((p) => ({ path: '/' + p.slug, component: Post, props: { entry: p }, title: p.data.title }))",
      "posts: { pattern: 'posts/*.md', schema: z.strictObject({ title: z.string(), kind: z.string().default('post') }) }, all: { pattern: '**/*.md', schema: z.object({ title: z.string() }) }"],
  ];
  for (const [name, routes, collections] of cases) {
    it(name, async () => {
      const s = await site(routes, collections);
      const cleanOf = cleanBuilder(s);
      try {
        for (const env of [ENV, { ...ENV, SITEGEN_REPLAY: '0' }]) {
          expect((await s.build({ env })).errors).toEqual([]);
          s.edit('content/posts/one.md', (t) => t.replace(/First paragraph of one[^\n]*/, `First paragraph of one, edited with ${(env as Record<string, string>).SITEGEN_REPLAY ?? 'replay on'}.`));
          const r = await s.build({ env });
          expect(r.errors).toEqual([]);
          expect(r.output()).toEqual((await cleanOf()).output());
        }
      } finally { s.remove(); }
    });
  }
});
