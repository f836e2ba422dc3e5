// The Greatness Gathered site: its collections (content + schema), routes, layout, styles and islands.
// Each page group lives in templates/routes/<group>.ts and contributes collections and routes.
import { defineConfig, LOCAL_ANON_KEY, type CollectionConfig, type Content, type ContentIssue, type RouteDef } from 'sitegen';
import { Layout } from './templates/components/Layout.tsx';
import * as core from './templates/routes/core.tsx';
import * as company from './templates/routes/company.tsx';
import * as legal from './templates/routes/legal.tsx';
import * as demo from './templates/routes/demo.tsx';
import { LOGO_CDN_ORIGIN } from './templates/lib/logos.ts';
import { launchNotices } from './templates/routes/launch.ts';

interface PageGroup {
  collections: Record<string, CollectionConfig>;
  routes: (content: Content) => RouteDef[];
  validate?: (content: Content) => ContentIssue[];
}

const groups: PageGroup[] = [core, company, legal, demo];

/** Joins CSP additions directive by directive, so no group's sources replace another's. */
function mergeCsp(...parts: Record<string, string[]>[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of parts) for (const [k, v] of Object.entries(part)) out[k] = [...(out[k] ?? []), ...v];
  return out;
}

export default defineConfig({
  site: {
    title: 'Greatness Gathered.',
    url: 'https://greatnessgathered.com',
    lang: 'en',
    titleTemplate: '%s | Greatness Gathered.',
    favicon: '/favicon.svg',
  },
  css: ['templates/styles/site.css', 'templates/styles/design.css'],
  layout: Layout,
  collections: Object.assign({}, ...groups.map((g) => g.collections)),
  routes: (content) => groups.flatMap((g) => g.routes(content)),
  validate: (content) => groups.flatMap((g) => g.validate?.(content) ?? []),
  // Without SUPABASE_URL the site talks to the embedded backend on its own origin (sitegen dev/preview).
  define: (env) => ({
    __WAITLIST_URL__: JSON.stringify(env.SUPABASE_URL ?? ''),
    __WAITLIST_ANON_KEY__: JSON.stringify(env.SUPABASE_URL ? env.SUPABASE_ANON_KEY ?? '' : LOCAL_ANON_KEY),
  }),
  notices: (env) => [...(env.SUPABASE_URL
    ? [`waitlist forms write to Supabase at ${env.SUPABASE_URL}`]
    : ['SUPABASE_URL is not set: waitlist forms write to the same origin with the local anon key (served by `sitegen preview` and `sitegen dev`)']), ...launchNotices()],
  csp: (env) => mergeCsp(
    { 'img-src': [LOGO_CDN_ORIGIN], 'connect-src': env.SUPABASE_URL ? [new URL(env.SUPABASE_URL).origin] : [] },
  ), // a page that needs a third-party origin (a policy host) adds it itself: RouteDef.csp
});
