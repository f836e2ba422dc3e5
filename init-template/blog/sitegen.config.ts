// The blog: its collections (content/ validated by zod), its pages (routes) and the layout around them.
// Pages of posts, tag pages and drafts come from sitegen's helpers: nothing here splits, groups or filters.
import { z } from 'zod';
import { date, defineCollection, defineConfig, feedLink, href, imageFile, markdown, paginate, reference, rssFeed, taxonomy } from 'sitegen-islands';
import { Layout } from './templates/Layout.tsx';
import { Home, Post, NotFound, Tags, Tag, type PostSummary } from './templates/pages.tsx';

const SITE = 'My blog';

// content/authors/<id>.yaml: a post names its author by that id (`author: ada`).
const authors = defineCollection({
  pattern: 'authors/*.yaml',
  schema: z.strictObject({ name: z.string().min(1), bio: z.string().optional() }),
});

// content/posts/<slug>.md, or a folder content/posts/<slug>/index.md with the post's pictures beside it, shown at
// /posts/<slug>/. A post with `draft: true` is left out of `sitegen build` (`--drafts` includes it); `sitegen dev` shows it.
const posts = defineCollection({
  pattern: ['posts/*.md', 'posts/*/index.md'],
  draft: 'draft',
  schema: z.strictObject({
    title: z.string().min(1),
    date: date(),
    description: z.string().min(1),
    author: reference('authors', authors),
    tags: z.array(z.string()).default([]),
    // A picture shown above the post: its file beside the post (image: ./morning.jpg) and what it shows (alt).
    // Published as resized AVIF and WebP versions, never as the original; a missing file stops the build here.
    cover: z.strictObject({ image: imageFile(), alt: z.string() }).optional(),
    draft: z.boolean().optional(),
  }),
});

export default defineConfig({
  site: { title: SITE, url: 'https://example.com', lang: 'en', titleTemplate: `%s | ${SITE}`, favicon: '/favicon.svg' },
  css: ['templates/site.css'],
  layout: Layout,
  // Heading ids (links to a part of a post), footnotes and build-time highlighting of fenced code.
  plugins: [markdown({ headingIds: true, footnotes: true, highlight: true })],
  // Every image (a post's cover, a picture in a post) is shown as wide as the text column (44rem, and the
  // screen less its margins on a phone): the browser takes the version that fills it, not a wider one.
  images: { sizes: '(min-width: 46.5rem) 44rem, calc(100vw - 2.5rem)' },
  collections: { authors, posts },
  // content.posts is typed from the schema (p.data.date is a Date, p.data.author the author's entry), and
  // each route's props are checked against its component's: a missing or misspelt prop is a tsc error here.
  routes: (content) => {
    const posts = content.posts.toSorted((a, b) => +b.data.date - +a.data.date);
    // A post's URL: /posts/<its file's name>/, or its folder's for posts/<slug>/index.md.
    const pathOf = (p: (typeof posts)[number]) => `/posts/${p.slug === 'index' ? p.dirs[p.dirs.length - 1] : p.slug}`;
    const summary = (p: (typeof posts)[number]): PostSummary => ({
      path: pathOf(p), title: p.data.title, date: p.data.date, author: p.data.author.data.name,
      excerpt: p.excerpt, readingMinutes: p.readingMinutes, tags: p.data.tags, draft: p.draft === true,
    });
    const tags = taxonomy(posts, { field: 'tags', path: '/tags' });
    const tagPath = Object.fromEntries(tags.terms.map((t) => [t.term, t.path]));
    const feed = [feedLink(href('/rss.xml'), `${SITE} (RSS)`)];
    return [
      // Three posts a page: the first at /, the next at /page/2, …
      ...paginate(posts.map(summary), { size: 3, path: '/' }).map((page) => ({
        path: page.path, component: Home, head: feed,
        title: page.page === 1 ? SITE : `${SITE}, page ${page.page}`, description: 'Posts, newest first.',
        props: { posts: page.items, page: page.page, pages: page.pages, prev: page.prev, next: page.next, tagPath },
      })),
      // A page per tag (/tags/<slug>) and a list of tags (/tags).
      { path: tags.path, component: Tags, title: 'Tags', description: 'Every tag, with its number of posts.', props: { tags: tags.terms.map((t) => ({ term: t.term, path: t.path, count: t.entries.length })) } },
      ...tags.terms.map((t) => ({
        path: t.path, component: Tag, title: `Posts tagged “${t.term}”`, description: `Posts tagged ${t.term}.`,
        props: { term: t.term, posts: t.entries.map(summary), tagPath },
      })),
      ...posts.map((p) => ({
        path: pathOf(p), component: Post, title: p.data.title, description: p.data.description, source: p.file, ogType: 'article', head: feed,
        ogImage: p.data.cover?.image, // the cover in link previews (a version at most 1200 px wide)
        lastmod: p.data.date, // sitemap.xml's <lastmod> for the post
        // The post's entry, not a copy of its HTML: the page reads `entry.html` as it renders, so routes() does
        // not read every post's HTML in each build, and from 2,000 posts a build holds one body in memory at a time.
        props: { post: summary(p), bio: p.data.author.data.bio ?? null, cover: p.data.cover ?? null, entry: p, tagPath },
      })),
      // The feed: the 20 newest posts, their full text included (read as the feed is written).
      {
        // Served as RSS (by default an .xml file is application/xml): written to _headers for this path.
        path: '/rss.xml', output: 'rss.xml', title: 'RSS feed', contentType: 'application/rss+xml; charset=utf-8', props: posts.slice(0, 20),
        body: (latest: typeof posts, ctx) => rssFeed(ctx, {
          title: SITE, description: 'Posts, newest first.', self: '/rss.xml', language: 'en',
          items: latest.map((p) => ({ title: p.data.title, path: `${pathOf(p)}/`, date: p.data.date, summary: p.data.description, html: p.html, author: p.data.author.data.name, categories: p.data.tags, image: p.data.cover?.image })),
        }),
      },
      { path: '/404', output: '404.html', component: NotFound, props: {}, title: 'Page not found', noindex: true },
    ];
  },
});
