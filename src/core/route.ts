// The shapes of a route: what a site's routes() gives (RouteDef, checked against its component by
// CheckedRoute) and what the route table holds (Route, Alias), with what a `body` or a page's head gets.
import type { ComponentProps, ComponentType, JSXElementConstructor } from 'react';
import type { ContentImage } from '../images/model.ts';

/**
 * A route of `routes()` as defineConfig checks it: its props must be what its component takes, so a
 * missing or mistyped prop is a type error at the route (distributes over a list's routes one by one).
 */
export type CheckedRoute<R> = R extends { component: infer C extends JSXElementConstructor<any> }
  ? R & { props: ComponentProps<C> }
  : R;

/** What a route's `body` gets: the build's origin and base, to make absolute URLs (feeds). */
export interface BodyContext {
  /** Production origin, no trailing slash ("https://example.com"); `--site-url` overrides the config's. */
  siteUrl: string;
  /** "/" or the site's base ("/repo/"). */
  base: string;
  /** A site path ("/posts/a/") as an absolute URL, base included. */
  absolute(path: string): string;
  /** An imageFile() field's image as an absolute URL: its version at most 1200 px wide in its own format (an SVG
   *  or a GIF as it is), which the build makes (a feed item's `image` given such an image uses it). */
  image(image: ContentImage): string;
}

/** One element a page adds to its <head> (the same shape as a plugin's `head` hook gives). */
export type PageHeadTag =
  // `undefined` values are left out (and let TypeScript accept lists whose tags have different attributes).
  | { tag: 'meta'; attrs: Record<string, string | undefined> }
  | { tag: 'link'; attrs: Record<string, string | undefined> }
  | { tag: 'jsonld'; data: unknown };

/** A language tag as `<html lang>` takes it (BCP 47's shape: "en", "fr-CA", "zh-Hant-TW"): letters, then
 *  parts of letters and digits after hyphens. No part can match across a hyphen: linear. */
export const LANG_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
export const LANG_HINT = 'a language tag such as "en", "fr" or "pt-BR" (a hyphen, not an underscore)';

export interface RouteDef<P = any> {
  /** URL path, without the site's base; given the trailing-slash rule (`trailingSlash`) unless `output` is given. */
  path: string;
  /** The page component; not needed by a route with a `body`. */
  component?: ComponentType<P>;
  props: P;
  title: string;
  description?: string;
  /**
   * Overrides the output file (e.g. "404.html", "rss.xml"); such a route keeps its path as given. A file that
   * is not `.html` is not a page: the route needs a `body`, whose text is written as it is.
   */
  output?: string;
  /** The file's text instead of a rendered page (a feed, JSON): written as is, with no HTML document around it. */
  body?: (props: P, ctx: BodyContext) => string;
  /** Content-Type of a `body` route (default: by the output's extension); written to `_headers` for its path. */
  contentType?: string;
  /** Extra <meta>, <link> (rel=alternate, …) and JSON-LD for this page's <head>, after the engine's own tags. */
  head?: PageHeadTag[];
  /** This page's Open Graph image (a site path, an absolute URL or an imageFile() field's image), instead of `site.ogImage`. */
  ogImage?: string | ContentImage;
  noindex?: boolean;
  /** Left out of sitemap.xml (noindex routes are always left out). */
  sitemap?: boolean;
  /** When the page last changed, for its sitemap.xml `<lastmod>`: a Date (a post's `date()` field) or a string
   *  such as "2025-01-10" or "2025-01-10T08:30:00Z". */
  lastmod?: Date | string;
  /** Other URL paths that redirect here. */
  aliases?: string[];
  /** The content file the route comes from, for error messages. */
  source?: string;
  /** Open Graph type; "website" by default. */
  ogType?: string;
  /** The page's language, its `<html lang>` (a language tag such as "fr" or "pt-BR"); `site.lang` by default. */
  lang?: string;
  /**
   * CSP sources this page alone needs (e.g. a third-party embed), merged into the site's policy for this
   * path only: `_headers` gets a rule for the path, so no other page allows them.
   */
  csp?: Record<string, string[]>;
}

export interface Route<P = any> extends Required<Pick<RouteDef<P>, 'path' | 'props' | 'title'>> {
  /** For a `body` route, a component that renders nothing (never called for output). */
  component: ComponentType<P>;
  description: string;
  body?: RouteDef<P>['body'];
  contentType?: string;
  head?: PageHeadTag[];
  ogImage?: string | ContentImage;
  output: string;
  noindex: boolean;
  sitemap: boolean;
  /** The W3C date (and time) of `RouteDef.lastmod`, as sitemap.xml writes it. */
  lastmod?: string;
  source: string | null;
  ogType: string;
  lang?: string;
  csp?: Record<string, string[]>;
}

export interface Alias {
  from: string;
  to: string;
  output: string;
  source: string | null;
}
