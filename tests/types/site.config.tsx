// Type-level test (tests/unit/authoring-types.test.ts runs tsc on this folder): correct usage compiles, and
// every `@ts-expect-error` line must be an error — tsc fails on one that is not ("unused directive").
import { z } from 'zod';
import { defineConfig, type Content } from 'sitegen-islands';

const Post$ = z.strictObject({ title: z.string(), date: z.coerce.date(), tags: z.array(z.string()) });
const Site$ = z.strictObject({ name: z.string(), year: z.number() });
const Author$ = z.strictObject({ name: z.string() });

const collections = {
  posts: { pattern: 'posts/*.md', schema: Post$ },
  authors: { pattern: 'authors/*.yaml', schema: Author$ },
  site: { pattern: 'site.yaml', schema: Site$, single: true },
} as const;

function Post({ title, html, date }: { title: string; html: string; date: Date }) {
  return <article><h1>{title}</h1><time>{date.toISOString()}</time><div dangerouslySetInnerHTML={{ __html: html }} /></article>;
}
function Home({ titles }: { titles: string[] }) {
  return <ul>{titles.map((t) => <li key={t}>{t}</li>)}</ul>;
}

// A helper that takes the typed content: Content<typeof collections>.
function newest(content: Content<typeof collections>): string {
  const title: string = content.posts[0].data.title;
  const year: number = content.site.year;
  // @ts-expect-error a field the schema does not have
  content.posts[0].data.titel;
  // @ts-expect-error a single collection is its data, not a list
  content.site[0];
  const date: Date = content.posts[0].data.date;
  const html: string = content.posts[0].html;
  // @ts-expect-error a YAML collection's entries have no rendered body
  const noBody: string = content.authors[0].html;
  // @ts-expect-error the schema's type, not any: title is a string
  const notNumber: number = content.posts[0].data.title;
  void [date, html, noBody, notNumber];
  return `${title} ${year}`;
}

export default defineConfig({
  site: { title: 'Types', url: 'https://types.example' },
  collections: {
    posts: { pattern: 'posts/*.md', schema: Post$ },
    authors: { pattern: 'authors/*.yaml', schema: Author$ },
    site: { pattern: 'site.yaml', schema: Site$, single: true },
  },
  // Expression-bodied, so tsc reports a bad route at the route itself (a block body reports it at `routes`).
  routes: (content) => [
    { path: '/', component: Home, props: { titles: content.posts.map((p) => p.data.title) }, title: content.site.name },
    ...content.posts.map((p) => ({ path: `/posts/${p.slug}`, component: Post, props: { title: p.data.title, html: p.html, date: p.data.date }, title: p.data.title })),
  ],
  validate: (content) => content.posts.filter((p) => p.data.tags.length === 0).map((p) => ({ file: p.file, path: ['tags'], message: 'no tags' })),
});

// Each wrong route in a config of its own, so one error cannot hide or absorb another.
const site = { title: 'Types', url: 'https://types.example' };
const posts = { posts: { pattern: 'posts/*.md', schema: Post$ } };

export const missingProp = defineConfig({
  site,
  collections: posts,
  // @ts-expect-error the props lack the component's `html` (the bug that built an empty post); a route
  // from .map() is reported at the call, one in an array literal at the route
  routes: (content) => content.posts.map((p) => ({
    path: `/posts/${p.slug}`,
    component: Post,
    props: { title: p.data.title, date: p.data.date },
    title: p.data.title,
  })),
});

export const wrongPropType = defineConfig({
  site,
  collections: posts,
  routes: () => [
    // @ts-expect-error titles must be a list of strings
    { path: '/', component: Home, props: { titles: 'one' }, title: 'Home' },
  ],
});

export const wrongField = defineConfig({
  site,
  collections: posts,
  // @ts-expect-error a data field the schema does not have
  routes: (content) => [{ path: '/', component: Home, props: { titles: content.posts.map((p) => p.data.titel) }, title: 'Home' }],
});

export { newest };
