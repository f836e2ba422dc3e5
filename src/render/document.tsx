// render: one route inside the site's layout to a complete HTML document. Pure: never touches the disk.
import { createElement, Fragment, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Content, Route, SiteConfig } from '../types.ts';
import type { HeadTag } from '../plugins.ts';
import { collectIslands } from './island.tsx';

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
  assets: PageAssets;
}

export interface RenderedPage {
  html: string;
  islands: string[];
}

function absolute(siteUrl: string, p: string): string {
  return siteUrl.replace(/\/$/, '') + p;
}

/** JSON for a <script type="application/ld+json"> block: nothing in it can close the element or open markup. */
const jsonLd = (data: unknown) => JSON.stringify(data ?? null)
  .replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** The plugins' `head` hooks for this route (src/plugins.ts), in the order plugins are listed. */
function pluginHead(route: Route, ctx: RenderContext): ReactElement[] {
  const tags: HeadTag[] = [];
  for (const p of ctx.config.plugins ?? []) if (p.head) tags.push(...p.head(route, ctx.content));
  return tags.map((t, i) => t.tag === 'jsonld'
    ? createElement('script', { key: `h${i}`, type: 'application/ld+json', dangerouslySetInnerHTML: { __html: jsonLd(t.data) } })
    : createElement(t.tag, { key: `h${i}`, ...t.attrs }));
}

function Head({ route, ctx, scripts }: { route: Route; ctx: RenderContext; scripts: string[] }): ReactElement {
  const { site } = ctx.config;
  const title = site.titleTemplate && route.title !== site.title ? site.titleTemplate.replace('%s', route.title) : route.title;
  const canonical = absolute(ctx.siteUrl, route.output === '404.html' ? '/404' : route.path);
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
    h('meta', { property: 'og:url', content: canonical }),
    site.ogImage ? h('meta', { property: 'og:image', content: absolute(ctx.siteUrl, site.ogImage) }) : null,
    h('meta', { name: 'twitter:card', content: 'summary' }),
    site.favicon ? h('link', { rel: 'icon', href: site.favicon }) : null,
    ...pluginHead(route, ctx),
    ...ctx.assets.css.map((href) => h('link', { key: href, rel: 'stylesheet', href })),
    ...scripts.slice(1).map((href) => h('link', { key: href, rel: 'modulepreload', href })),
    scripts[0] ? h('script', { type: 'module', src: scripts[0] }) : null,
  );
}

export function renderPage(route: Route, ctx: RenderContext): RenderedPage {
  const Layout = ctx.config.layout;
  const page = createElement(route.component, route.props);
  const { value: body, islands, eager } = collectIslands(() =>
    renderToStaticMarkup(Layout ? createElement(Layout, { route, content: ctx.content, children: page }) : page),
  );
  const scripts = islands.length && ctx.assets.runtime ? [ctx.assets.runtime, ...ctx.assets.preload(eager)] : [];
  const head = renderToStaticMarkup(createElement(Head, { route, ctx, scripts }));
  const lang = ctx.config.site.lang ?? 'en';
  return { html: `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`, islands };
}

/** A tiny page that sends visitors (and crawlers, via canonical) from an alias to its target. */
export function renderAliasPage(to: string, ctx: RenderContext): string {
  const target = absolute(ctx.siteUrl, to);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const lang = ctx.config.site.lang ?? 'en';
  return `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><title>Redirecting to ${esc(to)}</title>` +
    `<meta http-equiv="refresh" content="0; url=${esc(to)}"><link rel="canonical" href="${esc(target)}"><meta name="robots" content="noindex"></head>` +
    `<body><main><p>This page has moved to <a href="${esc(to)}">${esc(to)}</a>.</p></main></body></html>`;
}
