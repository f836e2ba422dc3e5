// The site: its collections (content/ validated by zod), its pages (routes) and the layout around them.
import { z } from 'zod';
import { date, defineCollection, defineConfig, markdown, paginate, taxonomy } from 'sitegen-islands';
import { Layout } from './templates/Layout.tsx';
import { Home, Post, NotFound, Tags, Tag } from './templates/pages.tsx';

// content/posts/*.md. date() takes a YAML date and refuses one that does not exist (2026-02-30). A post
// with `draft: true` is left out of `sitegen build` (`--drafts` includes it); `sitegen dev` shows it.
const posts = defineCollection({
  pattern: 'posts/*.md',
  draft: 'draft',
  schema: z.strictObject({
    title: z.string().min(1),
    date: date(),
    description: z.string().min(1),
    tags: z.array(z.string()).default([]),
    draft: z.boolean().optional(),
  }),
});

export default defineConfig({
  site: { title: 'My site', url: 'https://example.com', titleTemplate: '%s | My site', favicon: '/favicon.svg' },
  css: ['templates/site.css'],
  layout: Layout,
  // Heading ids (links to a part of a post), footnotes and build-time highlighting of fenced code.
  plugins: [markdown({ headingIds: true, footnotes: true, highlight: true })],
  collections: { posts },
  // content.posts is typed from the schema (p.data.date is a Date, p.html a string), and each route's props
  // are checked against its component's: a missing or misspelt prop is a tsc error here.
  routes: (content) => {
    const posts = content.posts.toSorted((a, b) => +b.data.date - +a.data.date);
    const summary = (p: (typeof posts)[number]) => ({ slug: p.slug, title: p.data.title, date: p.data.date, description: p.data.description, draft: p.draft === true });
    // A page per tag (/tags/<slug>) and a list of tags (/tags).
    const tags = taxonomy(posts, { field: 'tags', path: '/tags' });
    return [
      // Ten posts a page: the first at /, the next at /page/2, …
      ...paginate(posts, { size: 10, path: '/' }).map((page) => ({
        path: page.path, component: Home, title: page.page === 1 ? 'My site' : `My site, page ${page.page}`, description: 'Posts, newest first.',
        props: { posts: page.items.map(summary), prev: page.prev, next: page.next },
      })),
      { path: tags.path, component: Tags, title: 'Tags', props: { tags: tags.terms.map((t) => ({ term: t.term, path: t.path, count: t.entries.length })) } },
      ...tags.terms.map((t) => ({ path: t.path, component: Tag, title: `Posts tagged ${t.term}`, props: { term: t.term, posts: t.entries.map(summary) } })),
      ...posts.map((p) => ({
        path: `/posts/${p.slug}`, component: Post, title: p.data.title, description: p.data.description, source: p.file,
        // The entry, not a copy of its HTML: the page reads `entry.html` as it renders (see Performance in the docs).
        props: { title: p.data.title, date: p.data.date, entry: p },
      })),
      { path: '/404', output: '404.html', component: NotFound, props: {}, title: 'Page not found', noindex: true },
    ];
  },
});
