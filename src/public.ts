// What a site's sitegen.config.ts and templates import from "sitegen".
import type { SiteConfig } from './types.ts';

export type { SiteConfig, RouteDef, Route, BodyContext, PageHeadTag, Entry, LayoutProps, ContentIssue, CollectionConfig, Content, Message } from './types.ts';
export type { HydrateMode } from './render/island.tsx';
export type { SitegenPlugin, PluginContext, ConfigContribution, ServerContext, ServerContribution, RequestHandler, OutputContext, OutputFile, HeadTag, CommandDef, Mode } from './plugins.ts';

export function defineConfig<C extends SiteConfig>(config: C): C {
  return config;
}

// Links in templates: href('/faqs') → "/faqs/" (or "/faqs" with trailingSlash 'never'), under the site's base.
export { href } from './render/urls.ts';
// Files that are not pages: a route's `body` (RSS/Atom/JSON feeds) and the <link rel=alternate> to one.
export { rssFeed, atomFeed, jsonFeed, feedLink, type FeedItem, type FeedOptions } from './feed.ts';
// A static image's URL, width and height: image('/img/team.png').
export { image, type StaticImage } from './render/images.ts';

import type { HydrateMode } from './render/island.tsx';

declare module 'react' {
  namespace JSX {
    interface IntrinsicAttributes {
      /** On an island (a component from templates/islands/): when to hydrate it. Default "load". */
      hydrate?: HydrateMode;
    }
  }
}
