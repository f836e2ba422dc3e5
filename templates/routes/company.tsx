// Page group "company": /faqs, /support, /careers, /investors, /for-accelerators, /for-venture-studios and
// /manifesto. Copy comes from content/pages/*; addresses, launch date and response times from site.yaml.
// URL rules for these pages live here and nowhere else.
import type { CollectionConfig, Content, ContentIssue, Entry, RouteDef } from 'sitegen-islands';
import type { Site } from '../schemas/site.ts';
import {
  AcceleratorsSchema, CareersSchema, FaqsSchema, InvestorsSchema, ManifestoSchema, SupportSchema, VentureStudiosSchema,
  type Accelerators, type Careers, type Faqs, type Investors, type Manifesto, type Support, type VentureStudios,
} from '../schemas/company.ts';
import { factsOf, fillFacts, fillFactsHtml, unknownTokens } from '../pages/company/facts.ts';
import { FaqsPage } from '../pages/company/FaqsPage.tsx';
import { SupportPage } from '../pages/company/SupportPage.tsx';
import { CareersPage } from '../pages/company/CareersPage.tsx';
import { InvestorsPage } from '../pages/company/InvestorsPage.tsx';
import { ComingSoonPage } from '../pages/company/ComingSoonPage.tsx';
import { ManifestoPage } from '../pages/company/ManifestoPage.tsx';
import { waitlistProps } from '../lib/props.ts';
import type { Home } from '../schemas/core.ts';

export const FAQS_PATH = '/faqs';
export const SUPPORT_PATH = '/support';

// One file each, but kept as lists rather than `single` (whose value is the bare data): a list's entry
// carries its file (for error messages) and, for Markdown, its rendered body.
export const collections: Record<string, CollectionConfig> = {
  faqsPage: { pattern: 'pages/faqs.yaml', schema: FaqsSchema },
  supportPage: { pattern: 'pages/support.yaml', schema: SupportSchema },
  careersPage: { pattern: 'pages/careers.yaml', schema: CareersSchema },
  investorsPage: { pattern: 'pages/investors.yaml', schema: InvestorsSchema },
  acceleratorsPage: { pattern: 'pages/accelerators.yaml', schema: AcceleratorsSchema },
  venturesPage: { pattern: 'pages/venture-studios.yaml', schema: VentureStudiosSchema },
  manifestoPage: { pattern: 'pages/manifesto.md', schema: ManifestoSchema },
};

function entry<T>(content: Content, name: keyof typeof collections & string): Entry<T> | undefined {
  return (content[name] as Entry<T>[] | undefined)?.[0];
}

export function validate(content: Content): ContentIssue[] {
  const facts = factsOf(content.site as Site);
  const issues: ContentIssue[] = [];
  for (const name of Object.keys(collections)) {
    const e = entry<unknown>(content, name);
    if (!e) continue;
    for (const t of unknownTokens(e.data, facts)) {
      issues.push({ file: e.file, path: t.path, message: `Unknown fact ${t.token}; use one of ${Object.keys(facts).map((k) => `{${k}}`).join(', ')}` });
    }
    for (const t of unknownTokens(e.html ?? '', facts)) issues.push({ file: e.file, path: [], text: t.token, message: `Unknown fact ${t.token} in the Markdown body; use one of ${Object.keys(facts).map((k) => `{${k}}`).join(', ')}` });
  }
  // The hero holds the page's only h1, so the manifesto body starts at h2 ("## Heading").
  const manifesto = entry<Manifesto>(content, 'manifestoPage');
  if (manifesto?.html && /<h1[\s>]/.test(manifesto.html)) issues.push({ file: manifesto.file, path: [], message: 'The body must not contain a level-1 heading ("# ..."); start sections at "## ..."' });
  return issues;
}

export function routes(content: Content): RouteDef[] {
  const site = content.site as Site;
  const facts = factsOf(site);
  // The heroes' illustration, as on the home page.
  const preview = (content.home as Home).preview;
  const list: RouteDef[] = [];
  /** Adds a route for a page entry with its tokens filled; a missing file was already reported by load. */
  function add<T extends { title: string; description: string }>(name: string, path: string, make: (page: T, e: Entry<T>) => Pick<RouteDef, 'component' | 'props'>) {
    const e = entry<T>(content, name);
    if (!e) return;
    const page = fillFacts(e.data, facts);
    list.push({ path, title: page.title, description: page.description, source: e.file, ...make(page, e) });
  }

  add<Faqs>('faqsPage', FAQS_PATH, (page) => ({ component: FaqsPage, props: { page, supportPath: SUPPORT_PATH } }));
  add<Support>('supportPage', SUPPORT_PATH, (page) => ({
    component: SupportPage, props: { page, email: site.emails.support, response: site.supportResponse, faqsPath: FAQS_PATH, preview },
  }));
  add<Careers>('careersPage', '/careers', (page) => ({ component: CareersPage, props: { page, email: site.emails.careers, preview } }));
  add<Investors>('investorsPage', '/investors', (page) => ({ component: InvestorsPage, props: { page, email: site.emails.investors, preview } }));
  add<Accelerators>('acceleratorsPage', '/for-accelerators', (page) => ({ component: ComingSoonPage, props: { page, email: site.emails.info } }));
  add<VentureStudios>('venturesPage', '/for-venture-studios', (page) => ({ component: ComingSoonPage, props: { page, email: site.emails.studios } }));
  add<Manifesto>('manifestoPage', '/manifesto', (page, e) => ({
    component: ManifestoPage, props: { page, html: fillFactsHtml(e.html ?? '', facts), waitlist: waitlistProps(site, 'manifesto') },
  }));
  return list;
}
