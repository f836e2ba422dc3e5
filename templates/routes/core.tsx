// Core page group: home, /for-consumers, the three area pages, the 45 sector pages and the 404 page.
// URL rules for these pages live here and nowhere else.
import { defineRoutes, type CollectionConfig, type Content, type ContentIssue, type Entry, type RouteDef } from 'sitegen-islands';
import { SiteSchema, type Site } from '../schemas/site.ts';
import { HomeSchema, ForConsumersSchema, AreaSchema, LogosSchema, type Area, type Home } from '../schemas/core.ts';
import { SectorSchema, type Sector } from '../schemas/sector.ts';
import { waitlistProps } from '../lib/props.ts';
import { fillTokens, unknownTokens } from '../lib/tokens.ts';
import { factsOf } from '../pages/company/facts.ts';
import { HomePage } from '../pages/Home.tsx';
import { ForConsumersPage } from '../pages/ForConsumers.tsx';
import { AreaPage } from '../pages/AreaPage.tsx';
import { SectorPage } from '../pages/SectorPage.tsx';
import { NotFoundPage } from '../pages/NotFound.tsx';
import { previewFor } from '../components/MatchPreview.tsx';

export const AREAS = ['online', 'hybrid', 'brick-and-mortar'] as const;
export const SECTORS_PER_AREA = 15;

export const collections: Record<string, CollectionConfig> = {
  site: { pattern: 'site.yaml', schema: SiteSchema, single: true },
  home: { pattern: 'home.yaml', schema: HomeSchema, single: true },
  logos: { pattern: 'logos.yaml', schema: LogosSchema, single: true },
  forConsumers: { pattern: 'for-consumers.yaml', schema: ForConsumersSchema, single: true },
  areas: { pattern: 'areas/*.yaml', schema: AreaSchema },
  sectors: { pattern: 'sectors/*/*.yaml', schema: SectorSchema },
};

export const areaPath = (area: string) => `/for-consumers/${area}`;
export const sectorPath = (area: string, slug: string) => `${areaPath(area)}/${slug}`;

/** Older links wrote the paths flat (/for-consumers_/online_/health); professional was also professional-services. */
function sectorAliases(area: string, slug: string): string[] {
  const list = [`/for-consumers_/${area}_/${slug}`];
  if (area === 'hybrid' && slug === 'professional') list.push(sectorPath(area, 'professional-services'), `/for-consumers_/${area}_/professional-services`);
  return list;
}

/** The sectors of one area in their page order. */
export function sectorsOf(content: Content, area: string): Entry<Sector>[] {
  return (content.sectors as Entry<Sector>[]).filter((s) => s.dirs[0] === area).sort((a, b) => a.data.order - b.data.order);
}

export function validate(content: Content): ContentIssue[] {
  const issues: ContentIssue[] = [];
  const areas = content.areas as Entry<Area>[];
  for (const area of AREAS) {
    const file = areas.find((a) => a.slug === area)?.file;
    if (!file) { issues.push({ file: 'content/site.yaml', path: [], message: `Missing content/areas/${area}.yaml` }); continue; }
    const list = sectorsOf(content, area);
    if (list.length !== SECTORS_PER_AREA) issues.push({ file, path: [], message: `Area "${area}" must have exactly ${SECTORS_PER_AREA} sector pages in content/sectors/${area}/, found ${list.length}` });
    const seen = new Map<number, string>();
    for (const s of list) {
      const prev = seen.get(s.data.order);
      if (prev) issues.push({ file: s.file, path: ['order'], message: `order ${s.data.order} is also used by ${prev}` });
      seen.set(s.data.order, s.file);
    }
  }
  for (const s of content.sectors as Entry<Sector>[]) {
    if (!(AREAS as readonly string[]).includes(s.dirs[0]) || s.dirs.length !== 1) issues.push({ file: s.file, path: [], message: `Sector files belong in content/sectors/{${AREAS.join(',')}}/` });
  }
  const badges = new Map<string, string>();
  for (const s of content.sectors as Entry<Sector>[]) {
    const prev = badges.get(s.data.badge);
    if (prev) issues.push({ file: s.file, path: ['badge'], message: `badge "${s.data.badge}" is also used by ${prev}` });
    badges.set(s.data.badge, s.file);
  }
  // Copy names site facts as {tokens} (templates/lib/tokens.ts): one that names none is an error at its field.
  const site = content.site as Site | undefined;
  if (site) {
    const facts = factsOf(site);
    const unknown = (file: string, value: unknown, at: (string | number)[] = []) => {
      for (const t of unknownTokens(value, facts, at)) issues.push({ file, path: t.path, message: `Unknown fact ${t.token}; use one of ${Object.keys(facts).map((k) => `{${k}}`).join(', ')}` });
    };
    if (content.home) unknown('content/home.yaml', content.home);
    for (const a of areas) unknown(a.file, a.data);
    unknown('content/site.yaml', site.footer.blurb, ['footer', 'blurb']);
    unknown('content/site.yaml', site.description, ['description']);
  }
  return issues;
}

export function routes(content: Content): RouteDef[] {
  const site = content.site as Site;
  // Copy names site facts as {tokens} ({launch}: site.yaml holds the one date); unknown ones fail validate().
  const facts = factsOf(site);
  const dated = <T,>(value: T): T => fillTokens(value, facts);
  const areas = (content.areas as Entry<Area>[]).map((a) => ({ ...a, data: dated(a.data) }));
  const home = dated(content.home as Home);
  const areaRoutes = areas.map((a) => ({
    path: areaPath(a.slug), component: AreaPage, title: a.data.title, description: a.data.description, source: a.file,
    props: {
      area: a.data,
      categories: sectorsOf(content, a.slug).map((s) => ({ href: sectorPath(a.slug, s.slug), name: s.data.name, summary: s.data.summary })),
      waitlist: waitlistProps(site, `area:${a.slug}`),
      heroWaitlist: waitlistProps(site, `area:${a.slug}:hero`),
      // The hero's illustration: a match of the area's first sector.
      preview: (() => { const first = sectorsOf(content, a.slug)[0]; return first ? previewFor(home.preview, first.data) : home.preview; })(),
    },
  }));
  const sectorRoutes = (content.sectors as Entry<Sector>[]).map((s) => {
    const area = areas.find((a) => a.slug === s.dirs[0]);
    return {
      path: sectorPath(s.dirs[0], s.slug), component: SectorPage, title: `${s.data.name} Co-Founders`, description: s.data.description, source: s.file,
      aliases: sectorAliases(s.dirs[0], s.slug),
      props: { sector: s.data, back: { href: areaPath(s.dirs[0]), label: area?.data.backLabel ?? '' }, waitlist: waitlistProps(site, `sector:${s.id}`), heroWaitlist: waitlistProps(site, `sector:${s.id}:hero`), preview: previewFor(home.preview, s.data) },
    };
  });
  // defineRoutes checks each route's props against its page component.
  return defineRoutes([
    {
      path: '/', component: HomePage, title: home.title, description: home.description, source: 'content/home.yaml',
      props: { home, logos: content.logos, rotationMs: site.constants.headlineRotationMs, waitlist: waitlistProps(site, 'home', { short: true, note: true }), motion: site.motion },
    },
    {
      path: '/for-consumers', component: ForConsumersPage, title: content.forConsumers.title, description: content.forConsumers.description, source: 'content/for-consumers.yaml',
      props: {
        page: content.forConsumers,
        areas: [...areas].sort((a, b) => a.data.order - b.data.order).map((a) => ({ href: areaPath(a.slug), name: a.data.title, summary: a.data.intro })),
        waitlist: waitlistProps(site, 'for-consumers', { short: true }),
        preview: home.preview,
      },
    },
    ...areaRoutes,
    ...sectorRoutes,
    { path: '/404', output: '404.html', component: NotFoundPage, title: site.notFound.title, noindex: true, props: { ...site.notFound } },
  ]);
}
