// What a site's sitegen.config.ts and templates import from "sitegen".
import type { SiteConfig } from './types.ts';

export type { SiteConfig, RouteDef, Route, Entry, LayoutProps, ContentIssue, CollectionConfig, Content, Message } from './types.ts';
export type { HydrateMode } from './render/island.tsx';
export { markdown, type MarkdownOptions } from './markdown/options.ts';
export type { SitegenPlugin, PluginContext, ConfigContribution, ServerContext, ServerContribution, RequestHandler, OutputContext, OutputFile, HeadTag, CommandDef, Mode } from './plugins.ts';

export function defineConfig<C extends SiteConfig>(config: C): C {
  return config;
}

/** The trailing-slash policy for links written in templates: "/faqs" → "/faqs/". Leaves files and external URLs alone. */
export function href(p: string): string {
  if (!p.startsWith('/') || p.startsWith('//')) return p;
  const [pathPart, rest = ''] = p.split(/(?=[?#])/, 2) as [string, string?];
  if (pathPart === '/' || pathPart.endsWith('/') || /\.[a-z0-9]+$/i.test(pathPart)) return p;
  return `${pathPart}/${rest}`;
}

import type { HydrateMode } from './render/island.tsx';

declare module 'react' {
  namespace JSX {
    interface IntrinsicAttributes {
      /** On an island (a component from templates/islands/): when to hydrate it. Default "load". */
      hydrate?: HydrateMode;
    }
  }
}
