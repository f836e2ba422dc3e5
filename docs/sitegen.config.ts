// The sitegen documentation, built by sitegen: `npm run docs` (writes docs/dist) and `npm run docs:dev`.
// Each page is a Markdown file in content/; the sidebar is made from their front matter (title, order).
import { z } from 'zod';
import { component, defineConfig, errorCatalogue, markdown } from 'sitegen-islands';
import { Callout } from './templates/components/Callout.tsx';
import { Layout } from './templates/Layout.tsx';
import { DocHome, DocPage, ErrorReference, NotFound, type NavItem } from './templates/pages.tsx';
import { docLinks } from './templates/docLinks.ts';

/** Tags whose end separates words in the page's text. */
const BLOCK = new Set(['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'td', 'th', 'tr', 'br', 'div', 'section', 'ul', 'ol', 'table', 'blockquote']);
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** A rendered page's text for the search index: tags dropped (a block tag leaves a space), the entities HTML
 *  text can hold decoded. One scan from each `<` to its `>`: linear however the HTML is written. */
function plainText(html: string): string {
  let text = '';
  for (let i = 0; i < html.length;) {
    const lt = html.indexOf('<', i);
    const gt = lt < 0 ? -1 : html.indexOf('>', lt);
    if (gt < 0) { text += html.slice(i); break; }
    const name = /^<\/?([a-z0-9]+)/i.exec(html.slice(lt, lt + 13))?.[1]?.toLowerCase() ?? '';
    text += html.slice(i, lt) + (BLOCK.has(name) ? ' ' : '');
    i = gt + 1;
  }
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!).replace(/\s+/g, ' ').trim();
}

const Page$ = z.strictObject({
  title: z.string().min(1),
  description: z.string().min(1),
  order: z.number().int(),
});

export default defineConfig({
  site: {
    title: 'sitegen',
    url: process.env.SITE_URL || 'https://sitegen.example',
    base: process.env.DOCS_BASE ?? '/',
    lang: 'en',
    titleTemplate: '%s | sitegen docs',
    favicon: '/favicon.svg',
  },
  // Published on GitHub Pages (.github/workflows/docs.yml), which sends no headers from _headers: each page
  // carries its Content-Security-Policy itself.
  cspMeta: true,
  css: ['templates/docs.css'],
  layout: Layout,
  plugins: [markdown({ headingIds: true, footnotes: true, highlight: true }), docLinks()],
  // Components the pages' Markdown may use (docs/content/components.md shows how).
  components: {
    Callout: component(Callout, z.object({ type: z.enum(['note', 'tip', 'warning']).default('note'), title: z.string().optional() })),
  },
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
    const nav: NavItem[] = pages.map((p) => ({ path: `/${p.slug}`, title: p.data.title, description: p.data.description }));
    const errorsAt = nav.findIndex((n) => n.path === '/errors');
    nav.splice(errorsAt + 1, 0, { path: '/errors/reference', title: 'Error reference', description: 'Every error id, what it means, its hint and an example.' });
    const errors = Object.entries(errorCatalogue).map(([id, e]) => ({ id, ...e, example: content.errorExamples[id] ?? '' }));
    return [
      {
        path: '/', component: DocHome, title: 'sitegen documentation',
        description: 'sitegen builds static sites from typed YAML and Markdown content and React templates.',
        props: { nav },
      },
      ...pages.map((p) => ({
        path: `/${p.slug}`, component: DocPage, title: p.data.title, description: p.data.description, source: p.file,
        props: { title: p.data.title, html: p.html, nav, current: `/${p.slug}`, contents: p.headings.flatMap(({ depth, text, id }) => (depth === 2 && id ? [{ text, id }] : [])) },
      })),
      {
        path: '/errors/reference', component: ErrorReference, title: 'Error reference',
        description: 'Every error sitegen reports: its id, what it means, the hint printed with it and an example.',
        props: { errors, nav, current: '/errors/reference' },
      },
      {
        // The search index: each page's title and text (no alias pages: only the pages themselves).
        path: '/search.json', output: 'search.json', title: 'Search index', props: pages.map((p) => ({
          path: `/${p.slug}/`, title: p.data.title, text: plainText(p.html),
        })),
        body: (docs: { path: string; title: string; text: string }[], ctx) =>
          JSON.stringify(docs.map((d) => ({ ...d, path: ctx.base.replace(/\/$/, '') + d.path }))),
      },
      { path: '/404', output: '404.html', component: NotFound, props: { nav }, title: 'Page not found', noindex: true },
    ];
  },
});
