// The documentation: its pages (content/docs/**/*.md), the sections of the sidebar (content/sections.yaml),
// the routes and the layout around them. The sidebar, the contents of each page, the previous and next
// links and the search index are all made from the pages' front matter and headings.
import { z } from 'zod';
import { component, defineCollection, defineConfig, markdown } from 'sitegen-islands';
import { Layout } from './templates/Layout.tsx';
import { Callout } from './templates/components/Callout.tsx';
import { Tab } from './templates/components/Tab.tsx';
import Tabs from './templates/islands/Tabs.tsx';
import { DocPage, NotFound, type NavSection, type NavLink } from './templates/pages.tsx';

const SITE = 'My docs';

// content/docs/<section>/<page>.md (and content/docs/index.md, the home page).
const docs = defineCollection({
  pattern: 'docs/**/*.md',
  schema: z.strictObject({
    title: z.string().min(1),
    description: z.string().min(1),
    /** Its place within its section (lowest first). */
    order: z.number().int(),
  }),
});

// The sidebar's sections, in order: a folder of content/docs/ and its title.
const sections = defineCollection({
  pattern: 'sections.yaml',
  single: true,
  schema: z.array(z.strictObject({ folder: z.string().min(1), title: z.string().min(1) })),
});

/** What the search index holds of a page (its paths without the site's base, which the body adds). */
interface SearchEntry { title: string; path: string; section: string | null; description: string; excerpt: string; headings: { text: string; id: string }[] }

/** A page's URL path: content/docs/guides/search.md → /guides/search; an index.md is its folder's page:
 *  content/docs/index.md → /, content/docs/guides/setup/index.md → /guides/setup. */
const pathOf = (id: string) => (id === 'index' ? '/' : `/${id.replace(/\/index$/, '')}`);

export default defineConfig({
  site: { title: SITE, url: 'https://example.com', lang: 'en', titleTemplate: `%s | ${SITE}`, favicon: '/favicon.svg' },
  css: ['templates/site.css'],
  layout: Layout,
  // Heading ids (the contents of each page link to them), footnotes and build-time highlighting of code.
  plugins: [markdown({ headingIds: true, footnotes: true, highlight: true })],
  // Components pages use in Markdown: :::Callout{type="tip"} … ::: and ::::Tabs around :::Tab{label="npm"} blocks.
  // Their attributes are checked with these schemas; a wrong one stops the build at its line.
  components: {
    Callout: component(Callout, z.object({ type: z.enum(['note', 'tip', 'warning']).default('note'), title: z.string().optional() })),
    Tabs: component(Tabs, z.object({})),
    Tab: component(Tab, z.object({ label: z.string() }), { parent: 'Tabs' }),
  },
  collections: { docs, sections },
  // Every page is in a listed section (or is the home page): otherwise the sidebar could not show it.
  validate: (content) => content.docs
    .filter((p) => p.dirs.length > 0 && !content.sections.some((s) => s.folder === p.dirs[0]))
    .map((p) => ({ file: p.file, path: [], message: `the folder "${p.dirs[0]}" is not a section of content/sections.yaml: add it there` })),
  routes: (content) => {
    type Doc = (typeof content.docs)[number];
    const inOrder = (list: Doc[]) => list.toSorted((a, b) => a.data.order - b.data.order);
    // The sidebar's groups: the home page, then each section's pages in order.
    const groups = [
      { title: null, pages: inOrder(content.docs.filter((p) => p.dirs.length === 0)) },
      ...content.sections.map((s) => ({ title: s.title, pages: inOrder(content.docs.filter((p) => p.dirs[0] === s.folder)) })),
    ];
    const link = (p: Doc): NavLink => ({ path: pathOf(p.id), title: p.data.title });
    const nav: NavSection[] = groups.map((g) => ({ title: g.title, links: g.pages.map(link) }));
    // Reading order, for the previous and next links: the sidebar's, top to bottom.
    const pages = groups.flatMap((g) => g.pages);
    const sectionOf = new Map(groups.flatMap((g) => g.pages.map((p) => [p, g.title] as const)));
    return [
      ...pages.map((p, i) => ({
        path: pathOf(p.id), component: DocPage, title: p.data.title, description: p.data.description, source: p.file,
        props: {
          // The page's entry, not a copy of its HTML (`entry.html` is read as the page renders): routes() does not
          // read every page's HTML in each build, and from 2,000 pages a build holds one body in memory at a time.
          title: p.data.title, description: p.data.description, section: sectionOf.get(p) ?? null, entry: p, nav, current: pathOf(p.id),
          // On this page: the headings of level 2 and 3 (their ids come from markdown({ headingIds: true })).
          toc: p.headings.filter((h) => h.id && (h.depth === 2 || h.depth === 3)).map((h) => ({ id: h.id!, text: h.text, depth: h.depth })),
          prev: i > 0 ? link(pages[i - 1]!) : null, next: i < pages.length - 1 ? link(pages[i + 1]!) : null,
        },
      })),
      {
        // The search index: each page's title, section, description and headings with their links.
        path: '/search.json', output: 'search.json', title: 'Search index', props: pages.map((p): SearchEntry => ({
          title: p.data.title, path: pathOf(p.id), section: sectionOf.get(p) ?? null, description: p.data.description, excerpt: p.excerpt,
          headings: p.headings.filter((h) => h.id).map((h) => ({ text: h.text, id: h.id! })),
        })),
        body: (entries: SearchEntry[], ctx) => JSON.stringify(entries.map(({ path, headings, ...e }) => {
          const url = ctx.base + (path === '/' ? '' : `${path.slice(1)}/`);
          return { ...e, path: url, headings: headings.map((h) => ({ text: h.text, path: `${url}#${h.id}` })) };
        }), null, 1),
      },
      { path: '/404', output: '404.html', component: NotFound, props: { nav }, title: 'Page not found', noindex: true },
    ];
  },
});
