// render: one route inside the site's layout to a complete HTML document. Pure: never touches the disk.
import { createElement, Fragment, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { BodyContext, Content, PageHeadTag, Route, SiteConfig } from '../core/types.ts';
import type { HeadTag } from '../site/plugins.ts';
import { collectIslands } from './island.tsx';
import { expandComponents } from './components.tsx';
import { setHtmlExpander } from './expandHtml.ts';
import { absoluteUrl, href, setUrlPolicy, withBase, type UrlPolicy } from './urls.ts';
import { setImageTable, takeImageLinks } from './images.ts';
import { siteImageSettings } from '../images/config.ts';
import { unsafeScheme } from '../content/urlScheme.ts';
import type { ImageTable } from '../output/staticImages.ts';
import { isContentImage, OG_FORMATS, shareVersion, type ImageFacts } from '../images/model.ts';
import { attr } from '../core/htmlAttr.ts';

export interface PageAssets {
  css: string[];
  /** Set when the page has islands: the hydration runtime's URL. */
  runtime: string | null;
  /** Chunks of the page's eager islands, preloaded so hydration starts without a waterfall. */
  preload: (islands: string[]) => string[];
}

export interface RenderContext {
  config: SiteConfig;
  content: Content;
  siteUrl: string;
  /** The site's base path and trailing-slash rule (src/render/urls.ts); asset URLs above already carry the base. */
  policy: UrlPolicy;
  assets: PageAssets;
  /** The site's static images (output/staticImages.ts), for image() in templates. */
  images?: ImageTable;
  /** With the config's `cspMeta`: the policy pages carry in their head (the site's; a route's own by its path). */
  cspMeta?: { site: string; routes?: Record<string, string> };
}

export interface RenderedPage {
  html: string;
  islands: string[];
  /** Files the page names outside its HTML's links: its Open Graph image's variant (made with the page's images). */
  links?: string[];
}


/**
 * The page's Open Graph image (`route.ogImage`, else `site.ogImage`): a JPEG, PNG or WebP of static/ (or any
 * imageFile() field's image but an SVG or GIF), as a version at most 1200 px wide in its own format (an original
 * of many megabytes is what a preview fetches, and some refuse it), with its size; any other (an SVG, an
 * absolute URL) as given (an imageFile() SVG or GIF: its file under assets/img/).
 */
function openGraphImage(route: Route, ctx: RenderContext): { url: string; width?: number; height?: number; link?: string } | undefined {
  const chosen = route.ogImage ?? ctx.config.site.ogImage;
  // Checked with the routes and the config (route.ts invalidOgImage); a page never carries an unsafe one.
  if (!chosen) return undefined;
  // (an imageFile() field's image: its facts came with its entry, and its original is never published)
  let facts: ImageFacts;
  if (typeof chosen === 'string') {
    if (unsafeScheme(chosen)) return undefined;
    const known = chosen.startsWith('/') ? ctx.images?.[chosen]?.facts : undefined;
    if (!known || !OG_FORMATS.has(known.format)) return { url: absolute(ctx, chosen) };
    facts = known;
  } else facts = chosen;
  const v = shareVersion(facts, siteImageSettings(ctx.config));
  const file = `/${v.path}`;
  return { url: absolute(ctx, file), width: v.width, height: v.height, link: withBase(file, ctx.policy.base) };
}

const absolute = (ctx: RenderContext, p: string) => absoluteUrl(ctx.siteUrl, p, ctx.policy.base);

/** JSON for a <script type="application/ld+json"> block: nothing in it can close the element or open markup. */
const jsonLd = (data: unknown) => JSON.stringify(data ?? null)
  .replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** The plugins' `head` hooks for this route (src/site/plugins.ts), in the order plugins are listed, then the page's own `head`. */
/** A head tag of a kind the head takes (meta, link, jsonld); a <script> or any other is refused, naming who gave it
 *  (a script in every page's head would be a way around the content policy and the CSP's own check). */
function headTag<T extends HeadTag | PageHeadTag>(t: T, from: string): T {
  if (t?.tag === 'meta' || t?.tag === 'link' || t?.tag === 'jsonld') return t;
  throw new Error(`${from} gave a <${String((t as { tag?: unknown })?.tag)}> tag; a page's head takes meta, link and jsonld tags only (a script goes in an island or a file of static/ the layout loads)`);
}

function extraHead(route: Route, ctx: RenderContext): ReactElement[] {
  const tags: (HeadTag | PageHeadTag)[] = [];
  for (const p of ctx.config.plugins ?? []) {
    if (!p.head) continue;
    let given: HeadTag[];
    // (its own failure, said as the plugin's: the page's template did not throw)
    try { given = p.head(route, ctx.content); } catch (e: any) { throw Object.assign(new Error(`plugin "${p.name}" failed in its head hook: ${e?.message ?? e}`), { stack: e?.stack }); }
    // (a tag of the wrong kind is the plugin's mistake too: said at the plugin, once for all its pages)
    try { tags.push(...(given ?? []).map((t) => headTag(t, `plugin "${p.name}"'s head hook`))); } catch (e) { throw Object.assign(e as Error, { sitegenPlugin: p.name }); }
  }
  tags.push(...(route.head ?? []).map((t) => headTag(t, `the route's head`)));
  return tags.map((t, i) => t.tag === 'jsonld'
    ? createElement('script', { key: `h${i}`, type: 'application/ld+json', dangerouslySetInnerHTML: { __html: jsonLd(t.data) } })
    : createElement(t.tag, { key: `h${i}`, ...t.attrs }));
}

function Head({ route, ctx, scripts, og }: { route: Route; ctx: RenderContext; scripts: string[]; og: ReturnType<typeof openGraphImage> }): ReactElement {
  const { site } = ctx.config;
  const title = site.titleTemplate && route.title !== site.title ? site.titleTemplate.replace('%s', route.title) : route.title;
  const canonical = absolute(ctx, route.output === '404.html' ? '/404' : route.path);
  const h = createElement;
  return h(Fragment, null,
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('title', null, title),
    route.description ? h('meta', { name: 'description', content: route.description }) : null,
    route.noindex ? h('meta', { name: 'robots', content: 'noindex' }) : h('link', { rel: 'canonical', href: canonical }),
    h('meta', { property: 'og:type', content: route.ogType }),
    h('meta', { property: 'og:site_name', content: site.title }),
    h('meta', { property: 'og:title', content: route.title }),
    route.description ? h('meta', { property: 'og:description', content: route.description }) : null,
    // (a page kept out of search, the 404 page among them, has no address of its own to share)
    route.noindex ? null : h('meta', { property: 'og:url', content: canonical }),
    og ? h('meta', { property: 'og:image', content: og.url }) : null,
    og?.width ? h('meta', { property: 'og:image:width', content: String(og.width) }) : null,
    og?.height ? h('meta', { property: 'og:image:height', content: String(og.height) }) : null,
    // A wide preview image (at least 600 px, 1.5 times as wide as high, as the 1200×630 most sites make) is shown large.
    h('meta', { name: 'twitter:card', content: og?.width && og.height && og.width >= 600 && og.width >= og.height * 1.5 ? 'summary_large_image' : 'summary' }),
    site.favicon ? h('link', { rel: 'icon', href: withBase(site.favicon, ctx.policy.base) }) : null,
    ...extraHead(route, ctx),
    ...ctx.assets.css.map((href) => h('link', { key: href, rel: 'stylesheet', href })),
    ...scripts.slice(1).map((href) => h('link', { key: href, rel: 'modulepreload', href })),
    scripts[0] ? h('script', { type: 'module', src: scripts[0] }) : null,
  );
}

/** What a `body` route's function gets besides its props; `linked` collects the image versions it links (the
 *  build makes them, as a page's). */
export function bodyContext(ctx: Pick<RenderContext, 'siteUrl' | 'policy'> & { config?: Pick<RenderContext['config'], 'images'> }, linked: string[] = []): BodyContext {
  const origin = ctx.siteUrl.replace(/\/$/, '');
  // Page paths get the trailing-slash rule too, so a feed links the URLs pages are served at.
  const absolute = (p: string) => (/^[a-z][a-z0-9+.-]*:/i.test(p) || !p.startsWith('/') ? p : origin + href(p, ctx.policy));
  return {
    siteUrl: origin, base: ctx.policy.base, absolute,
    image(img) {
      if (!isContentImage(img)) throw new TypeError(`image() of a body's context takes an imageFile() field's image, not ${img === null ? 'null' : typeof img}`);
      const file = `/${shareVersion(img, siteImageSettings(ctx.config ?? {})).path}`;
      linked.push(withBase(file, ctx.policy.base));
      return `${origin}${withBase(file, ctx.policy.base)}`;
    },
  };
}

export function renderPage(route: Route, ctx: RenderContext): RenderedPage {
  // Templates' href() reads the policy of the site being rendered (render/urls.ts).
  setUrlPolicy(ctx.policy);
  setImageTable(ctx.images, siteImageSettings(ctx.config), ctx.config.images?.remote);
  if (route.body) {
    const components = ctx.config.components;
    setHtmlExpander(components ? (html) => expandComponents(html, components) : null);
    let text: string;
    const linked: string[] = [];
    try { text = route.body(route.props, bodyContext(ctx, linked)); } finally { setHtmlExpander(null); }
    if (typeof text !== 'string') throw new TypeError(`the body of ${route.path} returned ${text === null ? 'null' : typeof text}, not the file's text`);
    linked.push(...takeImageLinks());
    return { html: text, islands: [], ...(linked.length ? { links: [...new Set(linked)] } : {}) };
  }
  const Layout = ctx.config.layout;
  const page = createElement(route.component, route.props);
  // Markdown bodies' components render inside the page's island collection: an island among them counts.
  const { value: body, islands, eager } = collectIslands(() => expandComponents(
    renderToStaticMarkup(Layout ? createElement(Layout, { route, content: ctx.content, children: page }) : page),
    ctx.config.components,
  ));
  const scripts = islands.length && ctx.assets.runtime ? [ctx.assets.runtime, ...ctx.assets.preload(eager)] : [];
  const og = openGraphImage(route, ctx);
  const head = renderToStaticMarkup(createElement(Head, { route, ctx, scripts, og }));
  const lang = route.lang ?? ctx.config.site.lang ?? 'en';
  const preloads = hoistedPreloads(body);
  // (the Open Graph image's version, and those image() gave, which the build makes whatever attribute links them)
  const links = [...new Set([...og?.link ? [og.link] : [], ...takeImageLinks()])];
  // The policy first in the head: a browser applies a <meta> policy to what comes after it.
  const csp = ctx.cspMeta ? `<meta http-equiv="Content-Security-Policy" content="${attr(ctx.cspMeta.routes?.[route.path] ?? ctx.cspMeta.site)}">` : '';
  return { html: `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8">${csp}${head}${body.slice(0, preloads)}</head><body>${body.slice(preloads)}</body></html>`, islands, ...(links.length ? { links } : {}) };
}

/**
 * Where the preloads React DOM hoisted end (0: none). It puts the preloads a render asks for (an eager or
 * priority image) at the start of that render's markup, which here is the body's (the head is rendered
 * apart): they go in the head, where the browser finds them first. React escapes `>` in attribute values,
 * so a link's first `/>` ends it.
 */
function hoistedPreloads(body: string): number {
  let at = 0;
  while (body.startsWith('<link rel="preload"', at) || body.startsWith('<link rel="modulepreload"', at)) {
    const end = body.indexOf('/>', at);
    if (end < 0) break;
    at = end + 2;
  }
  return at;
}

/** A tiny page that sends visitors (and crawlers, via canonical) from an alias to its target. */
export function renderAliasPage(toPath: string, ctx: RenderContext): string {
  const target = absolute(ctx, toPath);
  const to = withBase(toPath, ctx.policy.base);
  const lang = ctx.config.site.lang ?? 'en';
  return `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><title>Redirecting to ${attr(to)}</title>` +
    `<meta http-equiv="refresh" content="0; url=${attr(to)}"><link rel="canonical" href="${attr(target)}"><meta name="robots" content="noindex"></head>` +
    `<body><main><p>This page has moved to <a href="${attr(to)}">${attr(to)}</a>.</p></main></body></html>`;
}
