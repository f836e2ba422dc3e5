// route: a pure function from validated content to the route table and aliases.
// The trailing-slash rule lives here: with `trailingSlash: 'always'` (the default) a page path ends in "/"
// and is written to <path>/index.html; with 'never' it has no slash and is written to <path>.html, which
// static hosts (and our own, src/server/host/) serve at /<path>. Paths are base-less: the base is for URLs only.
import type { Alias, Content, Location, Message, Route, RouteDef, SiteConfig } from '../core/types.ts';
import path from 'node:path';
import { message, fileLocation, thrownBySite } from '../core/errors.ts';
import { issuesOf, type HelperIssue } from '../authoring/issues.ts';
import { setUrlPolicy, urlPolicy, TRAILING_SLASHES, type TrailingSlash } from '../render/urls.ts';
import { unsafeScheme } from '../content/urlScheme.ts';
import { isContentImage } from '../images/model.ts';
import { LANG_HINT, LANG_TAG } from '../core/route.ts';
import { besideSource, routeFieldAt, writtenIn } from './routeLocate.ts';
import { cspSourcesProblem } from '../output/hostfiles.ts';

type SlashRule = TrailingSlash | Pick<SiteConfig, 'trailingSlash'>;
const ruleOf = (r: SlashRule | undefined): TrailingSlash => (typeof r === 'string' ? r : r?.trailingSlash) ?? 'always';

/** A path that names an HTML file (`/legacy.html`, an old URL kept as it was): written as that file, never a folder. */
const HTML_FILE = /\.html?$/i;

export function normalisePath(p: string, rule?: SlashRule): string {
  if (p === '/' || p === '') return '/';
  if (HTML_FILE.test(p)) return p;
  if (ruleOf(rule) === 'never') return p.replace(TRAILING_SLASHES, '') || '/';
  return p.endsWith('/') ? p : `${p}/`;
}

export function outputFor(p: string, rule?: SlashRule): string {
  if (p === '/') return 'index.html';
  if (HTML_FILE.test(p)) return p.slice(p.startsWith('/') ? 1 : 0);
  // (the first and the last "/" cut off: what /^\/|\/$/g replaced, ~60,000 times a big site's table)
  const inner = p.slice(p.startsWith('/') ? 1 : 0, p.length > 1 && p.endsWith('/') ? -1 : undefined);
  return ruleOf(rule) === 'never' ? `${inner}.html` : `${inner}/index.html`;
}

/** Stands in for the component of a `body` route, which has none: output comes from its body, not React. */
export function BodyRoute(): null { return null; }

/** What a build's report calls a route: its component's name, or for a route with a `body` the kind of file it
 *  writes ("file .xml"), not a page. */
export function routeType(r: Pick<Route, 'component' | 'output'>): string {
  if (r.component !== BodyRoute) return r.component.displayName || r.component.name || 'Page';
  const name = r.output.slice(r.output.lastIndexOf('/') + 1);
  return `file ${name.includes('.') ? name.slice(name.lastIndexOf('.')) : name}`;
}

const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A path or file name for a message: quoted, control characters written as escapes (a NUL or a newline
 *  printed raw would cut the message or the terminal line). */
export const shownPath = (p: unknown): string => (typeof p === 'string' && CONTROL.test(p) ? JSON.stringify(p) : `"${String(p)}"`);

const UNSAFE = /[\s?#\\]/;
/** A permalink placeholder another generator fills in (Hugo's and Jekyll's "/:year/:title/") or template code
 *  (Eleventy's "/blog/{{ page.fileSlug }}/"), as a path taken from front matter brings them. */
const PLACEHOLDER = /\/:[A-Za-z_]|\{\{|\{%/;
// Anything invalidPath below refuses past the first character, in one scan (the common case: none): its
// rules joined, so the scan cannot drift from them.
const SUSPECT = new RegExp([CONTROL, UNSAFE, DOT_SEGMENT, PLACEHOLDER].map((r) => r.source).join('|'));

function invalidPath(p: string): string | null {
  if (typeof p !== 'string' || !p.startsWith('/')) return 'must start with "/"';
  if (!SUSPECT.test(p)) return null;
  if (CONTROL.test(p)) return 'must not contain control characters (NUL, newline, tab …)';
  const held = PLACEHOLDER.exec(p);
  if (held) {
    const what = held[0].startsWith('/:') ? `the placeholder "${/\/(:\w+)/.exec(p.slice(held.index))![1]}", which Hugo and Jekyll fill in` : 'template code, which Eleventy runs';
    return `holds ${what}; sitegen runs no code in content and takes a path as written: build it in routes() from the entry (path: \`/\${entry.slug}\`, or from its date)`;
  }
  if (UNSAFE.test(p)) return 'must not contain spaces, "?", "#" or "\\"';
  // A "." or ".." segment: every segment but the empty first one follows a "/" (p starts with one).
  if (DOT_SEGMENT.test(p)) return 'must not contain "." or ".." segments';
  return null;
}

/**
 * The route a def becomes, with every default filled in, for a def whose path is valid. The one place route
 * defaults live: a session (pipeline/routes.ts) refreshes reused routes through it too.
 */
export function routeOf(d: RouteDef, rule?: SlashRule): Route {
  const path = d.output ? d.path : normalisePath(d.path, rule);
  const lastmod = d.lastmod === undefined ? null : lastmodText(d.lastmod);
  return {
    path, output: d.output ?? outputFor(path, rule), component: d.component ?? BodyRoute, props: d.props, title: d.title,
    description: d.description ?? '', noindex: !!d.noindex, sitemap: d.sitemap !== false && !d.noindex && !d.output,
    source: d.source ?? null, ogType: d.ogType ?? 'website',
    ...(d.csp && Object.keys(d.csp).length ? { csp: d.csp } : {}),
    ...(d.body ? { body: d.body } : {}),
    ...(d.contentType ? { contentType: d.contentType } : {}),
    ...(d.head?.length ? { head: d.head } : {}),
    ...(d.ogImage ? { ogImage: d.ogImage } : {}),
    ...(lastmod ? { lastmod } : {}),
    ...(d.lang ? { lang: d.lang } : {}),
  };
}

const W3C_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** A route's `lastmod` as sitemap.xml writes it (a W3C date, with the time when a Date has one), or null
 *  when it is no valid Date or date string. */
export function lastmodText(v: unknown): string | null {
  if (v instanceof Date) {
    const t = v.getTime();
    if (Number.isNaN(t)) return null;
    const iso = v.toISOString();
    return t % 86_400_000 === 0 ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`;
  }
  if (typeof v !== 'string' || !W3C_DATE.test(v) || Number.isNaN(Date.parse(v))) return null;
  // (Date.parse rolls "2025-02-30" over to March 2: the day must be one of its month's)
  const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCMonth() === m - 1 && day.getUTCDate() === d ? v : null;
}

const NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/;

/** What is wrong with a def's title, lang or lastmod (the words after "route <path> "), or null: routeTable's check,
 *  which the carried checks (routeCarry.ts) and dev's reuse of a table (routes.ts) ask too. */
export function routeFieldProblem(d: RouteDef): string | null {
  if (!d.body && typeof d.title !== 'string') return `has ${d.title === undefined ? 'no title' : `a title that is not text (${typeof d.title})`}: a page needs one for its <title> (title: '…')`;
  if (d.lang !== undefined && (typeof d.lang !== 'string' || !LANG_TAG.test(d.lang))) return typeof d.lang === 'string' ? `lang ${shownPath(d.lang)} is not ${LANG_HINT}` : `lang must be ${LANG_HINT} (it is ${d.lang === null ? 'null' : typeof d.lang})`;
  const badCsp = d.csp === undefined ? null : cspSourcesProblem(d.csp);
  if (badCsp) return `csp: ${badCsp}`;
  if (d.lastmod === undefined || lastmodText(d.lastmod)) return null;
  const why = d.lastmod instanceof Date ? 'is an invalid Date' : `${shownPath(String(d.lastmod))} ${NO_ZONE.test(String(d.lastmod)) ? 'has a time but no time zone (Z or +hh:mm)' : 'is not a date'}`;
  return `lastmod ${why}: use a Date or a string such as "2025-01-10" or "2025-01-10T08:30:00Z"`;
}

/** Whether a route writes a page (an HTML document) rather than a file of its own (`body`). */
export const isPage = (r: Pick<Route, 'body'>): boolean => !r.body;

function invalidOutput(d: RouteDef): string | null {
  if (d.body !== undefined && typeof d.body !== 'function') return '`body` must be a function returning the file\'s text';
  if (d.body && d.output === undefined) return 'has a `body` but no `output`: name the file it writes (e.g. output: "rss.xml")';
  if (d.output !== undefined) {
    if (typeof d.output !== 'string' || !d.output || d.output.startsWith('/') || CONTROL.test(d.output) || d.output.split('/').some((s) => s === '' || s === '.' || s === '..')) {
      return `output ${shownPath(d.output)} must be a file path relative to the output folder, without "." or ".." segments or control characters`;
    }
    if (!d.body && !/\.html?$/i.test(d.output)) return `writes ${d.output}, which is not an HTML page: give it a \`body\` (e.g. rssFeed(...)) that returns the file's text`;
  }
  if (!d.body && !d.component) return 'has no component (template missing?)';
  return null;
}

/**
 * Why an Open Graph image (a route's or the site's) is refused, or null: the link policy of Markdown links
 * (content/urlScheme.ts), as a browser or a link preview decodes the URL.
 */
export function invalidOgImage(v: unknown, beside = false): string | null {
  if (isContentImage(v)) return null;
  if (typeof v !== 'string') {
    // (an object that holds one, such as a cover's { image, alt }: the image meant)
    const key = v && typeof v === 'object' ? Object.keys(v).find((k) => isContentImage((v as Record<string, unknown>)[k])) : undefined;
    return `must be a site path, an absolute URL or an imageFile() field's image${key ? `; it is an object whose "${key}" is an imageFile() image: give that (….${key})` : ''}`;
  }
  const scheme = unsafeScheme(v);
  if (scheme) return `is a ${scheme}: URL, which is not allowed (use a site path such as "/og.png" or an https:// URL)`;
  if (CONTROL.test(v)) return 'must not contain control characters (NUL, newline, tab …)';
  // A link preview fetches it from anywhere: a path of the site from its root, or a whole https:// URL.
  if (!(v.startsWith('/') && !v.startsWith('//')) && !/^https?:\/\/[^/]/i.test(v)) {
    const rest = v.replace(/^(?:\.\/)+/, '');
    // (a file of static/ written with the folder's name, or an image beside a content file, as Markdown takes one)
    if (rest.startsWith('static/')) return `must be a site path from the root: a file of static/ is named by its path below static/ ("/${rest.slice('static/'.length)}")`;
    if (v.startsWith('.') || beside) return `must be a site path from the root or an absolute http(s) URL: a path from a content file (an image beside it) is not one, and such an image is not published as it is; declare its field with imageFile() and give ogImage the field's value, or put it in static/ and name it by its path there (static/img/${path.posix.basename(v)} is "/img/${path.posix.basename(v)}")`;
    return `must be a site path from the root ("/${v.replace(/^[./]+/, '') || 'og.png'}") or an absolute http(s) URL`;
  }
  return null;
}

export interface RouteTable {
  routes: Route[];
  aliases: Alias[];
  errors: Message[];
  /** Content issues thrown by a helper in routes(), to locate in their files (they replace `errors`). */
  issues?: HelperIssue[];
}

/** `trusted`: the defs passed every check below when last seen in this shape (pipeline/routeCarry.ts), so
 *  the table is made without them. */
export function routeTable(content: Content, config: SiteConfig, root = '', trusted = false): RouteTable {
  const errors: Message[] = [];
  let defs: RouteDef[];
  try {
    setUrlPolicy(urlPolicy(config)); // href() in routes() (a head link, a feed link) sees the site's base
    defs = config.routes(content);
  } catch (e) {
    // Content problems a helper found (taxonomy terms): located in the content by the session (issues.ts).
    const issues = issuesOf(e);
    if (issues) return { routes: [], aliases: [], errors: [thrownBySite(e, root, 'routes() threw')], issues };
    return { routes: [], aliases: [], errors: [thrownBySite(e, root, 'routes() threw')] };
  }
  // What writes each output (a page: its path and source; an alias: from and to), worded only for a
  // conflict: a big site claims tens of thousands of outputs.
  type Claim = [kind: 'page' | 'alias', a: string, b: string | undefined];
  const byOutput = new Map<string, Claim>();
  const worded = ([kind, a, b]: Claim) => (kind === 'page' ? `page ${a}${b ? ` (${b})` : ''}` : `alias ${a} → ${b}`);
  const claim = (output: string, what: Claim, at: () => Location | null): boolean => {
    const prev = byOutput.get(output);
    if (prev) {
      const m = message('DuplicateRoute', `${worded(what)} and ${worded(prev)} both write ${output}`, at());
      m.notes.push({ text: `${worded(prev)} is written first`, location: null });
      errors.push(m);
      return false;
    }
    byOutput.set(output, what);
    return true;
  };
  if (trusted) return trustedTable(defs, config);
  const routes: Route[] = [];
  // (each at the value in the route's content file when it is written there, else where routes() makes the route)
  const refuse = (id: 'InvalidRoute' | 'ConfigError', text: string, source: string | null | undefined, value?: unknown, hint?: string) => { const { at, notes } = routeFieldAt(root, source, value); const m = message(id, text, at, hint ? { hint } : {}); m.notes.push(...notes); errors.push(m); };
  for (const d of defs) {
    const bad = invalidPath(d.path);
    if (bad) { refuse('InvalidRoute', `route ${shownPath(d.path)} ${bad}`, d.source, d.path); continue; }
    const badOutput = invalidOutput(d);
    if (badOutput) { refuse('ConfigError', `route ${d.path} ${badOutput}`, d.source, d.output); continue; }
    const badImage = d.ogImage === undefined ? null : invalidOgImage(d.ogImage, besideSource(root, d.source, d.ogImage));
    if (badImage) { refuse('ConfigError', `route ${d.path} ogImage ${typeof d.ogImage === 'object' ? '' : `${shownPath(d.ogImage)} `}${badImage}`, d.source, d.ogImage); continue; }
    const badFields = routeFieldProblem(d);
    if (badFields) { refuse('ConfigError', `route ${d.path} ${badFields}`, d.source); continue; }
    const route = routeOf(d, config);
    if (!claim(route.output, ['page', route.path, d.source], () => (d.source ? fileLocation(d.source) : null))) continue;
    routes.push(route);
  }
  const aliases: Alias[] = [];
  const base = urlPolicy(config).base;
  // (a site with a route of its own under the base's name, /posts/… under base /posts/, may mean such an alias)
  const baseNamed = base !== '/' && routes.some((r) => r.path.startsWith(base));
  const defByPath = new Map(defs.map((d) => [d.output ? d.path : normalisePath(d.path, config), d]));
  for (const r of routes) {
    for (const a of defByPath.get(r.path)?.aliases ?? []) {
      // (an alias written with the base, as a link in Markdown may be: the build adds the base to every path)
      const withBase = base !== '/' && !baseNamed && typeof a === 'string' && a.startsWith(base) && a.length > base.length ? a.slice(base.length - 1) : null;
      if (withBase !== null && !invalidPath(a)) { refuse('InvalidRoute', `alias ${shownPath(a)} of ${r.path} starts with site.base ${base}, which the build adds to every path`, r.source, a, `Write the old URL without the base: "${withBase}" (served as ${a}).`); continue; }
      const bad = invalidPath(a) ?? (NOT_A_PAGE.test(a) ? `names a file that is not a page (an alias page is HTML, which a feed reader or a browser asking for ${a} cannot use): redirect it in static/_redirects instead ("${a} ${r.path} 301"), which the build merges into the generated one` : null);
      // (a relative alias, as Hugo reads one from the page's section: the path it would be, from the root)
      const beside = typeof a === 'string' && a && !a.startsWith('/') ? `${r.path.slice(0, r.path.lastIndexOf('/', r.path.length - 2) + 1)}${a}` : null;
      if (bad) { errors.push(message('InvalidRoute', `alias ${shownPath(a)} of ${r.path} ${bad}`, r.source ? writtenIn(root, r.source, a) : null, beside ? { hint: `An alias is a path from the site's root: for the old URL beside this page, write "${beside}".` } : {})); continue; }
      const alias = aliasOf(a, r, config);
      if (claim(alias.output, ['alias', alias.from, r.path], () => (r.source ? writtenIn(root, r.source, a) : null))) aliases.push(alias);
    }
  }
  // A file where another output needs a folder of that name (/legacy.html and /legacy.html/sub): neither could be written.
  for (const [output, what] of byOutput) {
    for (let i = output.indexOf('/'); i > 0; i = output.indexOf('/', i + 1)) {
      const file = byOutput.get(output.slice(0, i));
      if (file) errors.push(message('DuplicateRoute', `${worded(what)} writes ${output}, inside ${output.slice(0, i)}, which ${worded(file)} writes as a file`, file[0] === 'page' && file[2] ? fileLocation(file[2]) : null, { hint: 'Give one of them another path: a page whose path names a file (".html") has no pages below it.' }));
    }
  }
  return { routes, aliases, errors };
}

/** An alias path that names a file of another kind than a page (a feed, an image, a document). */
const NOT_A_PAGE = /\.(?:xml|rss|atom|json|txt|csv|pdf|zip|png|jpe?g|gif|svg|webp|avif|ico|css|m?js|wasm|mp[34]|webm)$/i;

const aliasOf = (a: string, r: Route, rule: SlashRule): Alias => {
  // An old URL of a file (`/2024/01/05/hello.html`, Jekyll's permalinks) is that file, not a folder.
  if (/\.html?$/i.test(a)) return { from: a, to: r.path, output: a.slice(1), source: r.source };
  const from = normalisePath(a, rule);
  return { from, to: r.path, output: outputFor(from, rule), source: r.source };
};

/** The table of defs that passed every check as they are: each def's route, then the aliases of the def
 *  its path names last, as the checked table has them. Without an `output` of their own two defs cannot
 *  share a path (their outputs would clash), so each route's def is its own: no lookup by path, which cost
 *  a path normalised again per def (100,000 bench routes: 650,000 outputs). */
function trustedTable(defs: RouteDef[], config: SiteConfig): RouteTable {
  const routes = defs.map((d) => routeOf(d, config));
  const byPath = defs.some((d) => d.output !== undefined) ? new Map(routes.map((r, i) => [r.path, defs[i]])) : null;
  const aliases: Alias[] = [];
  routes.forEach((r, i) => { for (const a of (byPath ? byPath.get(r.path)! : defs[i]).aliases ?? []) aliases.push(aliasOf(a, r, config)); });
  return { routes, aliases, errors: [] };
}
