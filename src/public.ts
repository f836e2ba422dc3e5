// What a site's sitegen.config.ts and templates import from "sitegen-islands".
import type { ComponentType, ReactNode } from 'react';
import type { ZodType, core, output } from 'zod';
import type { CheckedRoute, CollectionConfig, ContentIssue, ContentOf, LayoutProps, MarkdownComponent, RouteDef, SiteConfig } from './core/types.ts';

export type { MarkdownComponent } from './core/types.ts';
export type { SiteConfig, RouteDef, Route, BodyContext, PageHeadTag, Entry, LayoutProps, ContentIssue, CollectionConfig, Content, ContentOf, CollectionValue, CheckedRoute, Message, MarkdownHeading, MarkdownEntryText } from './core/types.ts';
export type { HydrateMode } from './render/island.tsx';
export { markdown, type MarkdownOptions } from './markdown/options.ts';
/** Every error a user can cause: id → title, what it means, hint (the documentation's error reference). */
export { catalogue as errorCatalogue, type ErrorId } from './core/catalogue.ts';
/** The Host check of the dev and preview servers, for a plugin's request handlers (DNS rebinding). */
export { isKnownHost, isLoopbackHost } from './server/host/knownHost.ts';
export type { SitegenPlugin, PluginContext, ConfigContribution, ServerContext, ServerContribution, RequestHandler, OutputContext, OutputFile, HeadTag, CommandDef, Mode } from './site/plugins.ts';

/**
 * The site config as written: `routes` and `validate` get content typed from the collections' schemas,
 * and each route's props are checked against its component's.
 */
export interface TypedSiteConfig<Cs extends Record<string, CollectionConfig<any>>, R> extends Omit<SiteConfig, 'collections' | 'routes' | 'validate' | 'layout'> {
  collections: Cs;
  /** Wraps every page; typed from the schemas when its props are LayoutProps<Content<typeof collections>>. */
  layout?: ComponentType<LayoutProps<ContentOf<Cs>>>;
  routes: (content: ContentOf<Cs>) => readonly CheckedRoute<R>[];
  validate?: (content: ContentOf<Cs>) => ContentIssue[];
}

/**
 * Types a site's config: `const Cs` keeps `single: true` a literal (so that collection is typed as its
 * schema's output), and R is inferred from what routes() returns so every route is checked on its own.
 */
export function defineConfig<const Cs extends Record<string, CollectionConfig<any>>, R extends RouteDef<any> = RouteDef>(config: TypedSiteConfig<Cs, R>): SiteConfig {
  return config as unknown as SiteConfig;
}

/**
 * Declares a collection outside defineConfig (its own file, shared between configs) keeping its literal
 * types — `single: true`, a ".md" pattern — so `Content` is typed from it as it would be written inline.
 */
export function defineCollection<const C extends CollectionConfig<any>>(collection: C): C {
  return collection;
}

/**
 * Checks a list of routes built outside defineConfig (a page group's routes()) the same way: each route's
 * props against its component's. Returns the list unchanged; annotate nothing on the way in (a `RouteDef[]`
 * annotation is untyped and turns the check off).
 */
export function defineRoutes<R extends RouteDef<any>>(routes: readonly CheckedRoute<R>[]): RouteDef[] {
  return routes as unknown as RouteDef[];
}

/** Where a Markdown component may be used: nested only in `parent`, or `inline` (`:Name[label]{…}`). */
export interface ComponentOptions {
  /** The only component this one may be nested in (directly), e.g. "Tabs" for a Tab. */
  parent?: string;
  /** Used inline, in running text: `:Badge[new]{tone="info"}`; its children are the label. */
  inline?: boolean;
}

/**
 * Registers a React component for Markdown (the config's `components`): content writes
 * `:::Name{key="value"}` … `:::` (or `:Name[label]{…}` with `inline: true`); the attributes, strings (and
 * `true` for a bare flag), are checked with `schema`, whose output the component gets as props, with
 * `children`: the block's rendered Markdown, or the label. Nothing in the content is evaluated.
 */
export function component<S extends core.$ZodType & Pick<ZodType, 'safeParse'>>(Component: ComponentType<output<S> & { children: ReactNode }>, schema: S, options: ComponentOptions = {}): MarkdownComponent {
  // The schema's bound is zod's core type and the one method the engine calls, not zod's ZodType class: relating
  // a schema to that class makes TypeScript measure the class's variance first, a second of every type check.
  for (const k of Object.keys(options)) if (k !== 'parent' && k !== 'inline') throw new Error(`component(): unknown option "${k}" (known: parent, inline)`);
  return { component: Component as ComponentType<any>, schema: schema as unknown as ZodType, ...(options.parent !== undefined ? { parent: options.parent } : {}), ...(options.inline ? { inline: true } : {}) };
}

// Links in templates: href('/faqs') → "/faqs/" (or "/faqs" with trailingSlash 'never'), under the site's base.
export { href } from './render/urls.ts';
// Files that are not pages: a route's `body` (RSS/Atom/JSON feeds) and the <link rel=alternate> to one.
export { rssFeed, atomFeed, jsonFeed, feedLink, type FeedItem, type FeedOptions } from './output/feed.ts';
// Authoring helpers for routes() and schemas: pages of a list, pages per term, references between entries, dates.
export { paginate, type Page, type PaginateOptions } from './authoring/paginate.ts';
export { taxonomy, type Taxonomy, type Term, type TaxonomyOptions } from './authoring/taxonomy.ts';
export { reference, type ReferencedEntry } from './authoring/reference.ts';
export { date } from './authoring/dates.ts';
// A field that names an image file (a post's cover beside it): its facts, for <Image src={…}> and image().
export { imageFile, type ContentImage } from './authoring/imageFile.ts';
// A static image's URL, width and height: image('/img/team.png'); as an optimized, responsive <picture>:
// <Image src="/img/team.jpg" alt="…" />.
export { image, Image, type StaticImage, type ImageProps, type ImageOptions } from './render/images.ts';

import type { HydrateMode } from './render/island.tsx';

declare module 'react' {
  namespace JSX {
    interface IntrinsicAttributes {
      /** On an island (a component from templates/islands/): when to hydrate it. Default "load". */
      hydrate?: HydrateMode;
    }
  }
}
