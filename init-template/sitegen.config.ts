// The site: its collections (content/ validated by zod), its pages (routes) and the layout around them.
import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Layout } from './templates/Layout.tsx';
import { Home, Post, NotFound } from './templates/pages.tsx';

// Front matter of content/posts/*.md. YAML dates arrive as dates or strings: z.coerce.date() takes both.
const Post$ = z.strictObject({
  title: z.string().min(1),
  date: z.coerce.date(),
  description: z.string().min(1),
});

export default defineConfig({
  site: { title: 'My site', url: 'https://example.com', titleTemplate: '%s | My site', favicon: '/favicon.svg' },
  css: ['templates/site.css'],
  layout: Layout,
  collections: {
    posts: { pattern: 'posts/*.md', schema: Post$ },
  },
  // content.posts is typed from Post$ (p.data.date is a Date, p.html a string), and each route's props are
  // checked against its component's: a missing or misspelt prop is a tsc error here.
  routes: (content) => {
    const posts = content.posts.toSorted((a, b) => +b.data.date - +a.data.date);
    return [
      {
        path: '/', component: Home, title: 'My site', description: 'Posts, newest first.',
        props: { posts: posts.map((p) => ({ slug: p.slug, title: p.data.title, date: p.data.date, description: p.data.description })) },
      },
      ...posts.map((p) => ({
        path: `/posts/${p.slug}`, component: Post, title: p.data.title, description: p.data.description, source: p.file,
        props: { title: p.data.title, date: p.data.date, html: p.html },
      })),
      { path: '/404', output: '404.html', component: NotFound, props: {}, title: 'Page not found', noindex: true },
    ];
  },
});
