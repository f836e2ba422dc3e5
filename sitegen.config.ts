// The Greatness Gathered site: its collections (content + schema), routes, layout, styles and islands.
// Each page group lives in templates/routes/<group>.ts and contributes collections and routes.
import { defineConfig, type CollectionConfig, type Content, type ContentIssue, type RouteDef } from 'sitegen-islands';
import { waitlist } from './plugins/waitlist/index.ts';
import { Layout } from './templates/components/Layout.tsx';
import * as core from './templates/routes/core.tsx';
import * as company from './templates/routes/company.tsx';
import * as legal from './templates/routes/legal.tsx';
import * as demo from './templates/routes/demo.tsx';
import { launchDate } from './plugins/launchDate.ts';
import { paintWhole } from './plugins/paintWhole.ts';
import { tokenMarkdown } from './templates/lib/tokens.ts';

interface PageGroup {
  collections: Record<string, CollectionConfig>;
  routes: (content: Content) => RouteDef[];
  validate?: (content: Content) => ContentIssue[];
}

const groups: PageGroup[] = [core, company, legal, demo];

export default defineConfig({
  site: {
    title: 'Greatness Gathered.',
    url: 'https://greatnessgathered.com',
    lang: 'en',
    titleTemplate: '%s | Greatness Gathered.',
    favicon: '/favicon.svg',
  },
  css: ['templates/styles/main.css'],
  layout: Layout,
  collections: Object.assign({}, ...groups.map((g) => g.collections)),
  routes: (content) => groups.flatMap((g) => g.routes(content)),
  validate: (content) => groups.flatMap((g) => g.validate?.(content) ?? []),
  // A page that needs a third-party origin (a policy host) adds it itself: RouteDef.csp.
  // The waitlist (plugins/waitlist): the Supabase defines, CSP and guards for builds; the local backend
  // at /rest/v1/waitlist for dev and preview; `sitegen waitlist export`.
  // The launch date (content/site.yaml): a located warning once the month the copy announces has passed.
  // Each page is painted whole, never half-parsed, so nothing moves as the rest of it arrives (plugins/paintWhole.ts).
  // {tokens} in Markdown are text as written (templates/lib/tokens.ts), so each is filled or reported.
  plugins: [waitlist(), launchDate(), paintWhole(), { name: 'tokens', markdown: [tokenMarkdown] }],
});
