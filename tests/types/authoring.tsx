// Type-level test of the authoring helpers (tests/unit/authoring-types.test.ts runs tsc on this folder):
// correct usage compiles, and every `@ts-expect-error` line must be an error.
import { z } from 'zod';
import type { ReactNode } from 'react';
import { component, date, defineCollection, defineConfig, paginate, reference, taxonomy, type Content, type LayoutProps, type Page } from 'sitegen-islands';

// Collections declared on their own, with no `as const`: literal types kept.
const site = defineCollection({ pattern: 'site.yaml', schema: z.strictObject({ name: z.string(), year: z.number() }), single: true });
const authors = defineCollection({ pattern: 'authors/*.yaml', schema: z.strictObject({ name: z.string() }) });
const posts = defineCollection({
  pattern: ['posts/*.md', 'notes/*.md'],
  draft: 'draft',
  schema: z.strictObject({ title: z.string(), date: date(), tags: z.array(z.string()), author: reference('authors', authors), editor: reference('authors').optional(), draft: z.boolean().optional() }),
});
const pages = defineCollection({ pattern: 'pages/*.md', schema: z.strictObject({ title: z.string() }) });
const collections = { site, authors, posts, pages };

// Without defineCollection the same declaration widens `single` to boolean: the collection is typed as a list.
const widened = { pattern: 'site.yaml', schema: z.strictObject({ name: z.string() }), single: true };
export function widenedIsAList(content: Content<{ site: typeof widened }>) {
  // @ts-expect-error a widened `single` makes the collection a list of entries
  const name: string = content.site.name;
  return name;
}

function Home({ name, titles }: { name: string; titles: string[] }) {
  return <h1>{name}: {titles.join(', ')}</h1>;
}

export function typed(content: Content<typeof collections>) {
  const year: number = content.site.year;
  const html: string = content.pages[0].html;
  const when: Date = content.posts[0].data.date;
  const author: string = content.posts[0].data.author.data.name;
  const id: string = content.posts[0].data.author.id;
  const editor: unknown = content.posts[0].data.editor?.data;
  const draft: boolean | undefined = content.posts[0].draft;
  // @ts-expect-error a referenced entry's data is typed from the collection given to reference()
  const wrong: number = content.posts[0].data.author.data.name;
  // @ts-expect-error a single collection is its data, not a list
  content.site[0];
  const listed: Page<(typeof content.posts)[number]>[] = paginate(content.posts, { size: 10, path: '/blog' });
  const first: string = listed[0].items[0].data.title;
  const tags = taxonomy(content.posts, { field: 'tags', path: '/tags' });
  const tagged: string = tags.terms[0].entries[0].data.title;
  // @ts-expect-error paginate() needs its options
  paginate(content.posts);
  void [year, html, when, author, id, editor, draft, wrong, first, tagged];
}

// The layout's content typed from the schemas: site.name is a string; a field the schema lacks is an error.
function Layout({ content, children }: LayoutProps<Content<typeof collections>>) {
  // @ts-expect-error no such field in the site collection's schema
  const missing: string = content.site.title;
  return <>{content.site.name}{content.posts.map((p) => p.data.title).join()}{missing}{children}</>;
}

export default defineConfig({
  site: { title: 'Types', url: 'https://types.example' },
  layout: Layout,
  collections,
  routes: (content) => [
    { path: '/', component: Home, props: { name: content.site.name, titles: content.posts.map((p) => `${p.data.title} by ${p.data.author.data.name}`) }, title: content.site.name },
  ],
});

// A Markdown component's props are its schema's output (and its children): a prop the schema lacks, or types
// otherwise, is an error; anything that is not a zod schema is refused.
function Callout({ type, children }: { type: 'note' | 'tip'; children: ReactNode }) {
  return <aside data-type={type}>{children}</aside>;
}
export const components = {
  fits: component(Callout, z.object({ type: z.enum(['note', 'tip']).default('note') })),
  // @ts-expect-error the schema's output has no `type`
  missing: component(Callout, z.object({ kind: z.enum(['note', 'tip']) })),
  // @ts-expect-error `type` is any string, the component takes two
  wider: component(Callout, z.object({ type: z.string() })),
  // @ts-expect-error not a zod schema
  notSchema: component(Callout, { type: 'note' }),
};
