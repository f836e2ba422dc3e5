// feed: RSS 2.0, Atom 1.0 and JSON Feed 1.1 documents for a route's `body` (routes that write a file, not a
// page). Pure text in, text out: every string is escaped for XML (and characters XML 1.0 cannot carry are
// dropped), every URL is made absolute from the build's origin and base (BodyContext), and the output is
// deterministic — the feed's date is its newest item's, never the time of the build.
import type { BodyContext, PageHeadTag } from '../core/types.ts';
import { expandHtml } from '../render/expandHtml.ts';
import { isContentImage, type ContentImage } from '../images/model.ts';
import { contentType } from '../server/host/mime.ts';

export interface FeedItem {
  title: string;
  /** The item's page: a site path ("/posts/hello/", without the base) or an absolute URL. */
  path: string;
  /** Publication date: a Date or an ISO date string ("2026-01-31"). */
  date: Date | string;
  /** Last change, when later than `date`. */
  updated?: Date | string;
  /** A short plain-text summary. */
  summary?: string;
  /** The full content as HTML (a Markdown entry's `html`); escaped into the feed, never inserted as markup. */
  html?: string;
  author?: string;
  categories?: string[];
  /** The item's picture (a cover): a site path of a file ("/img/cover.jpg", without the base), an absolute URL
   *  or an imageFile() field's image (its version at most 1200 px wide, which the build makes).
   *  RSS gets it as <media:content>, Atom as a link of rel "enclosure", JSON Feed as `image`. */
  image?: string | ContentImage;
}

export interface FeedOptions {
  title: string;
  description?: string;
  /** Site path the feed itself is written to (its `rel="self"` link), e.g. "/rss.xml". */
  self: string;
  /** Site path of the page the feed belongs to; default "/". */
  home?: string;
  language?: string;
  /** The feed's author (Atom needs one; the title stands in when not given). */
  author?: string;
  items: FeedItem[];
  /** At most this many items, newest first (default all). */
  limit?: number;
}

// XML 1.0 allows tab, newline, carriage return and U+0020 upwards, minus surrogates halves alone and U+FFFE/F.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text for an XML element or a double-quoted attribute. */
export function xmlText(s: string): string {
  return String(s).replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function dateOf(d: Date | string, what: string): Date {
  const date = d instanceof Date ? d : new Date(d);
  if (Number.isNaN(date.getTime())) throw new TypeError(`feed item "${what}" has no valid date (${String(d)})`);
  return date;
}

interface Prepared {
  item: FeedItem;
  url: string;
  date: Date;
  updated: Date;
  /** The image's absolute URL, when the item has one. */
  image?: string;
}

/** An item's image as an absolute URL: a site path of a file under the site URL and base (as it is: a file has
 *  no trailing-slash form), or an http(s) URL as written; anything else is an error naming the item. */
function imageUrl(ctx: BodyContext, image: string | ContentImage, title: string): string {
  if (typeof image !== 'string') {
    if (isContentImage(image)) return ctx.image(image);
    throw new TypeError(`feed item "${title}" has image ${image === null ? 'null' : typeof image}: give a site path from the root, an https:// URL or an imageFile() field's image`);
  }
  if (/^https?:\/\/[^/]/i.test(image)) return image;
  const fix = image.startsWith('/') ? '' : ` ("/${image.replace(/^(?:\.\/)+/, '')}" for a file of static/)`;
  if (!image.startsWith('/') || image.startsWith('//')) throw new TypeError(`feed item "${title}" has image ${JSON.stringify(image)}: write a site path from the root${fix} or an https:// URL`);
  if (ctx.base !== '/' && image.startsWith(ctx.base)) throw new TypeError(`feed item "${title}" has image ${image}, with site.base ${ctx.base} in it, which the build adds: write /${image.slice(ctx.base.length)}`);
  return `${ctx.siteUrl}${ctx.base}${image.slice(1)}`;
}

/** A picture's media type, from its name (what Atom's enclosure and RSS's media:content say), by the table the
 *  preview and dev serve with; '' for a name that names no image type. */
const imageType = (url: string) => { const t = contentType(url.split(/[?#]/, 1)[0]!); return t.startsWith('image/') ? t : ''; };

function prepare(ctx: BodyContext, o: FeedOptions): { items: Prepared[]; latest: Date; home: string; self: string } {
  const items = o.items.map((item) => {
    const date = dateOf(item.date, item.title);
    const updated = item.updated ? dateOf(item.updated, item.title) : date;
    // A Markdown entry's html with its components rendered (render/expandHtml.ts), its URLs made absolute.
    const url = ctx.absolute(item.path);
    const html = item.html && absoluteUrls(expandHtml(item.html), ctx.siteUrl, url);
    const image = item.image === undefined ? undefined : imageUrl(ctx, item.image, item.title);
    return { item: html === item.html ? item : { ...item, html }, url, date, updated, ...(image ? { image } : {}) };
  }).sort((a, b) => b.date.getTime() - a.date.getTime() || a.url.localeCompare(b.url)).slice(0, o.limit ?? Infinity);
  const latest = new Date(Math.max(0, ...items.map((p) => p.updated.getTime())));
  return { items, latest, home: ctx.absolute(o.home ?? '/'), self: ctx.absolute(o.self) };
}

/**
 * The HTML of an item with its root-relative URLs (src, href and each srcset candidate; they carry the base
 * already) made absolute under `origin`: a feed reader shows the item away from the site, so a Markdown
 * image's <picture> still loads there. With the item's own URL (`page`), relative ones (`#notes`,
 * `../other/`) are made absolute against it, as they resolve on its page, not against the feed's URL. One
 * scan from each `="`, as check.ts reads links.
 */
export function absoluteUrls(html: string, origin: string, page?: string): string {
  let out = '';
  let last = 0;
  const relative = (u: string) => !u.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(u);
  const against = (u: string) => { try { return new URL(u, page).href; } catch { return u; } }; // (a site URL that is no URL: kept)
  const abs = (u: string) => (u.startsWith('/') ? (u.startsWith('//') ? u : origin + u) : page && relative(u) ? against(u) : u);
  for (let at = html.indexOf('="'); at >= 0;) {
    const name = /(?:^|\s)(src|href|srcset)$/i.exec(html.slice(Math.max(0, at - 7), at))?.[1]?.toLowerCase();
    const end = html.indexOf('"', at + 2);
    if (end < 0) break;
    if (name) {
      const value = html.slice(at + 2, end);
      // (a data: URL in a srcset holds a comma of its own: such a list is kept as written)
      const next = name === 'srcset' ? (value.includes('data:') ? value : value.split(',').map((c) => c.replace(/^(\s*)(\S+)/, (_m, ws: string, u: string) => ws + abs(u))).join(',')) : abs(value);
      out += html.slice(last, at + 2) + next;
      last = end;
    }
    at = html.indexOf('="', end + 1);
  }
  return out + html.slice(last);
}

const el = (name: string, text: string | undefined) => (text === undefined || text === '' ? '' : `<${name}>${xmlText(text)}</${name}>`);

/** Whether an item's author is what RSS's <author> holds: an email address ("ada@example.com (Ada)"). */
const isEmail = (author: string) => { const first = author.trim().split(/\s/, 1)[0]!; return /^[^@]+@[^@]+$/.test(first) && first.includes('.', first.indexOf('@')); };

/** An RSS 2.0 feed (with an atom:link to itself, as validators ask). An author that is a name, not an email
 *  address, goes in <dc:creator>, as RSS 2.0's <author> takes only an email address. */
export function rssFeed(ctx: BodyContext, o: FeedOptions): string {
  const { items, latest, home, self } = prepare(ctx, o);
  const creators = items.some(({ item }) => item.author && !isEmail(item.author));
  const media = items.some((p) => p.image);
  const entries = items.map(({ item, url, date, image }) => [
    '<item>', el('title', item.title), el('link', url), `<guid isPermaLink="true">${xmlText(url)}</guid>`,
    el('pubDate', date.toUTCString()), el('description', item.html ?? item.summary),
    item.author && !isEmail(item.author) ? el('dc:creator', item.author) : el('author', item.author),
    ...(item.categories ?? []).map((c) => el('category', c)),
    image ? `<media:content url="${xmlText(image)}" medium="image"${imageType(image) ? ` type="${imageType(image)}"` : ''}/>` : '', '</item>',
  ].join(''));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"${creators ? ' xmlns:dc="http://purl.org/dc/elements/1.1/"' : ''}${media ? ' xmlns:media="http://search.yahoo.com/mrss/"' : ''}>`,
    '<channel>',
    el('title', o.title), el('link', home), el('description', o.description ?? o.title), el('language', o.language),
    items.length ? el('lastBuildDate', latest.toUTCString()) : '',
    `<atom:link href="${xmlText(self)}" rel="self" type="application/rss+xml"/>`,
    ...entries,
    '</channel>',
    '</rss>',
    '',
  ].filter((l) => l !== '').join('\n') + '\n';
}

/** An Atom 1.0 feed. */
export function atomFeed(ctx: BodyContext, o: FeedOptions): string {
  const { items, latest, home, self } = prepare(ctx, o);
  const author = (name: string) => `<author><name>${xmlText(name)}</name></author>`;
  const entries = items.map(({ item, url, date, updated, image }) => [
    '<entry>', el('title', item.title), `<link rel="alternate" type="text/html" href="${xmlText(url)}"/>`, el('id', url),
    image ? `<link rel="enclosure"${imageType(image) ? ` type="${imageType(image)}"` : ''} href="${xmlText(image)}"/>` : '',
    el('published', date.toISOString()), el('updated', updated.toISOString()), item.author ? author(item.author) : '',
    item.summary ? `<summary>${xmlText(item.summary)}</summary>` : '',
    item.html ? `<content type="html">${xmlText(item.html)}</content>` : '',
    ...(item.categories ?? []).map((c) => `<category term="${xmlText(c)}"/>`), '</entry>',
  ].join(''));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom"${o.language ? ` xml:lang="${xmlText(o.language)}"` : ''}>`,
    el('title', o.title), o.description ? el('subtitle', o.description) : '',
    `<link rel="alternate" type="text/html" href="${xmlText(home)}"/>`,
    `<link rel="self" type="application/atom+xml" href="${xmlText(self)}"/>`,
    el('id', home), el('updated', latest.toISOString()), author(o.author ?? o.title),
    ...entries,
    '</feed>',
  ].filter((l) => l !== '').join('\n') + '\n';
}

/** A JSON Feed 1.1 document. */
export function jsonFeed(ctx: BodyContext, o: FeedOptions): string {
  const { items, home, self } = prepare(ctx, o);
  const doc = {
    version: 'https://jsonfeed.org/version/1.1', title: o.title, home_page_url: home, feed_url: self,
    ...(o.description ? { description: o.description } : {}), ...(o.language ? { language: o.language } : {}),
    ...(o.author ? { authors: [{ name: o.author }] } : {}),
    items: items.map(({ item, url, date, updated, image }) => ({
      id: url, url, title: item.title,
      ...(item.html ? { content_html: item.html } : { content_text: item.summary ?? item.title }),
      ...(item.summary ? { summary: item.summary } : {}),
      date_published: date.toISOString(),
      ...(updated.getTime() !== date.getTime() ? { date_modified: updated.toISOString() } : {}),
      ...(item.categories?.length ? { tags: item.categories } : {}),
      ...(item.author ? { authors: [{ name: item.author }] } : {}),
      ...(image ? { image } : {}),
    })),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

const FEED_TYPES = { rss: 'application/rss+xml', atom: 'application/atom+xml', json: 'application/feed+json' } as const;

/** The `<link rel="alternate">` a page adds to its `head` so readers find the feed; `href` as from href(). */
export function feedLink(href: string, title: string, kind: keyof typeof FEED_TYPES = 'rss'): PageHeadTag {
  return { tag: 'link', attrs: { rel: 'alternate', type: FEED_TYPES[kind], title, href } };
}
