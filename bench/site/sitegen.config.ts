// The benchmark site: N synthetic Markdown pages (from /work/shared/bench/gen.mjs) through one simple layout.
// bench/run.mjs copies this folder next to the generated content/ in bench/.work/site-N/ and builds it.
import { z } from 'zod';
import { defineConfig, type Entry, type RouteDef } from 'sitegen-islands';
import { Layout, Page } from './templates/Layout.tsx';

const Page$ = z.strictObject({
  title: z.string().min(1),
  description: z.string(),
  features: z.array(z.string()).length(4),
  tagline: z.string(),
});

// gen.mjs writes page-<i> into AREAS[i % 10], but the body links it writes are /<random area>/page-<k>/
// (k = the page's own number, or a few numbers after it), so most of them name a path that has no page.
// Rather than switching the link check off, every such path is declared as an alias (an old URL that
// redirects) of the page that has that number, so it resolves through a real meta-refresh page and a
// _redirects rule. Numbers past the last page (the last few pages link forward, to page-N … page-N+~10)
// have no page at all; they are aliased to page-(k mod N) so the link still leads somewhere. The links come
// from `entry.links` (every link the body's Markdown writes), so finding them reads no page's HTML.
const LINK = /^\/([a-z-]+)\/page-(\d+)\/$/;

export default defineConfig({
  site: { title: 'Bench', url: 'https://bench.example', lang: 'en', titleTemplate: '%s | Bench' },
  css: ['templates/site.css'],
  layout: Layout,
  // Aliases go to _redirects only. Hugo, Eleventy and the naive baseline write one file per page and
  // no page per alias; with alias pages this site writes ~6.6 files per page (5,560 aliases at 1k), and
  // on a disk where creating a file costs ~1 ms that, not rendering, is the build time. The links still
  // resolve: the link check counts aliases as targets either way.
  aliasPages: false,
  collections: {
    pages: { pattern: 'pages/**/*.md', schema: Page$ },
  },
  routes: (content) => {
    const pages: Entry[] = content.pages;
    const pathOf = (e: Entry) => `/${e.dirs[0]}/${e.slug}`;
    const byNumber = new Map<number, Entry>();
    for (const e of pages) byNumber.set(Number(e.slug.slice('page-'.length)), e);
    const real = new Set(pages.map((e) => `${pathOf(e)}/`));
    const aliases = new Map<Entry, Set<string>>();
    for (const e of pages) {
      for (const href of e.links ?? []) {
        const m = LINK.exec(href);
        if (!m) continue;
        if (real.has(href)) continue;
        const k = Number(m[2]);
        const owner = byNumber.get(k) ?? byNumber.get(k % pages.length);
        if (!owner) continue;
        if (!aliases.has(owner)) aliases.set(owner, new Set());
        aliases.get(owner)!.add(href.slice(0, -1));
      }
    }
    return pages.map((e): RouteDef => ({
      path: pathOf(e),
      component: Page,
      // The entry rather than a copy of its HTML: the page reads `entry.html` as it renders, so a big build
      // holds one body at a time (a copy in every route's props would be every body at once).
      props: { title: e.data.title, tagline: e.data.tagline, description: e.data.description, features: e.data.features, entry: e },
      title: e.data.title,
      description: e.data.description,
      source: e.file,
      aliases: [...(aliases.get(e) ?? [])].sort(),
    }));
  },
});
