// The sitegen documentation, built by sitegen: `npm run docs` (writes docs/dist) and `npm run docs:dev`.
// Each page is a Markdown file in content/; the sidebar is made from their front matter (title, order).
import { z } from 'zod';
import { defineConfig, errorCatalogue, markdown } from 'sitegen-islands';
import { Layout } from './templates/Layout.tsx';
import { DocPage, ErrorReference, NotFound, type NavItem } from './templates/pages.tsx';
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
    errorExamples: { pattern: 'error-examples.yaml', schema: z.record(z.string(), z.string()), single: true },
  },
  // The error reference lists sitegen's own catalogue; every id needs an example, and every example an id.
  validate: (content) => {
    const file = 'content/error-examples.yaml';
    const missing = Object.keys(errorCatalogue).filter((id) => !(id in content.errorExamples));
    const unknown = Object.keys(content.errorExamples).filter((id) => !(id in errorCatalogue));
    return [
      ...missing.map((id) => ({ file, path: [], message: `no example for the error id ${id}: add one` })),
      ...unknown.map((id) => ({ file, path: [id], message: `${id} is not an error id of sitegen's catalogue` })),
    ];
  },
  routes: (content) => {
    const pages = content.pages.toSorted((a, b) => a.data.order - b.data.order);
    const nav: NavItem[] = pages.map((p) => ({ path: p.slug === 'getting-started' ? '/' : `/${p.slug}`, title: p.data.title }));
    const errorsAt = nav.findIndex((n) => n.path === '/errors');
    nav.splice(errorsAt + 1, 0, { path: '/errors/reference', title: 'Error reference' });
    const errors = Object.entries(errorCatalogue).map(([id, e]) => ({ id, ...e, example: content.errorExamples[id] ?? '' }));
    return [
      ...pages.map((p) => ({
        path: p.slug === 'getting-started' ? '/' : `/${p.slug}`,
        component: DocPage, title: p.data.title, description: p.data.description, source: p.file,
        aliases: p.slug === 'getting-started' ? ['/getting-started'] : [],
        props: { title: p.data.title, html: p.html, nav, current: p.slug === 'getting-started' ? '/' : `/${p.slug}` },
      })),
      {
        path: '/errors/reference', component: ErrorReference, title: 'Error reference',
        description: 'Every error sitegen reports: its id, what it means, the hint printed with it and an example.',
        props: { errors, nav, current: '/errors/reference' },
      },
      { path: '/404', output: '404.html', component: NotFound, props: { nav }, title: 'Page not found', noindex: true },
    ];
  },
});
