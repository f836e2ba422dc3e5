// The sitegen documentation, built by sitegen: `npm run docs` (writes docs/dist) and `npm run docs:dev`.
// Each page is a Markdown file in content/; the sidebar is made from their front matter (title, order).
import { z } from 'zod';
import { defineConfig, markdown } from 'sitegen-islands';
import { Layout } from './templates/Layout.tsx';
import { DocPage, NotFound, type NavItem } from './templates/pages.tsx';
import { docLinks } from './templates/docLinks.ts';

const Page$ = z.strictObject({
  title: z.string().min(1),
  description: z.string().min(1),
  order: z.number().int(),
});

export default defineConfig({
  site: {
    title: 'sitegen',
    url: process.env.SITE_URL ?? 'https://sitegen.example',
    base: process.env.DOCS_BASE ?? '/',
    lang: 'en',
    titleTemplate: '%s | sitegen docs',
    favicon: '/favicon.svg',
  },
  css: ['templates/docs.css'],
  layout: Layout,
  plugins: [markdown({ headingIds: true, footnotes: true, highlight: true }), docLinks()],
  collections: {
    pages: { pattern: '*.md', schema: Page$ },
  },
  routes: (content) => {
    const pages = content.pages.toSorted((a, b) => a.data.order - b.data.order);
    const nav: NavItem[] = pages.map((p) => ({ path: p.slug === 'getting-started' ? '/' : `/${p.slug}`, title: p.data.title }));
    return [
      ...pages.map((p) => ({
        path: p.slug === 'getting-started' ? '/' : `/${p.slug}`,
        component: DocPage, title: p.data.title, description: p.data.description, source: p.file,
        aliases: p.slug === 'getting-started' ? ['/getting-started'] : [],
        props: { title: p.data.title, html: p.html, nav, current: p.slug === 'getting-started' ? '/' : `/${p.slug}` },
      })),
      { path: '/404', output: '404.html', component: NotFound, props: { nav }, title: 'Page not found', noindex: true },
    ];
  },
});
