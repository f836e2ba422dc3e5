// What a session's output holds besides the rendered pages, for build and dev alike: the alias pages, the
// host files (sitemap, robots, _headers, _redirects), the plugins' extra outputs, static files that would
// overwrite a generated one, and the link targets every page's links are checked against. Pure functions of
// the route table, the config, the asset manifest and the static files; the part that does not depend on
// routes and content is memoised for dev, where most rebuilds change neither the alias list nor the files.
import type { Alias, Content, Message, SiteConfig } from '../core/types.ts';
import type { AssetManifest } from '../islands/bundle.ts';
import type { Mode } from '../site/plugins.ts';
import type { RouteTable } from './routeTable.ts';
import { routeFieldAt } from './routeLocate.ts';
import { message, fileLocation } from '../core/errors.ts';
import type { LinkTargets } from './linkScan.ts';
import { makeTargets, targetsOver } from './linkTargets.ts';
import { cspSourcesProblem, hostFiles, MERGED_HOST_FILES, type OwnHostFiles } from '../output/hostfiles.ts';
import { siteCall } from './siteCall.ts';
import { urlPolicy } from '../render/urls.ts';
import { staticImagesCached, type ImageTable } from '../output/staticImages.ts';
import { OutputPaths, firstNeeders, hasOutputHooks, pluginOutputs, wayBlocked } from '../output/pluginOutputs.ts';
import { currentImageStore, imageStore } from '../images/store.ts';
import { maxPixelsOf, siteImageSettings } from '../images/config.ts';
import { engineSettings } from '../core/settings.ts';
import { draftsLeftOut } from '../content/load.ts';
import { locateKey } from '../site/configLocate.ts';
import { sha1 } from './stableText.ts';

/** The aliases that get a meta-refresh page: all of them, unless the config says `aliasPages: false`. */
export function aliasPagesOf(table: Pick<RouteTable, 'aliases'>, config: SiteConfig): Alias[] {
  return config.aliasPages === false ? [] : table.aliases;
}

/**
 * What the config's csp() (the site's code, merged with the plugins') throws or returns that the policy cannot
 * take, located like any other problem. Called before the host files and pages ask for the policy, so a throw
 * there stays a sitegen bug.
 */
export function cspCallProblems(root: string, config: SiteConfig, env: NodeJS.ProcessEnv): Message[] {
  const csp = config.csp;
  if (typeof csp !== 'function') return [];
  const called = siteCall(root, 'csp() threw', () => csp(env));
  if (called.error) return [called.error];
  const bad = cspSourcesProblem(called.value);
  return bad ? [message('ConfigError', `csp() returned ${bad}`, locateKey(root, ['csp']))] : [];
}

/** The files static hosts read, generated from the route table and the config, with the site's own
 *  static/_redirects and static/_headers merged in (output/hostfiles.ts OwnHostFiles). */
export function hostFileTexts(table: Pick<RouteTable, 'routes' | 'aliases'>, config: SiteConfig, siteUrl: string, env: NodeJS.ProcessEnv, statics: ReadonlyMap<string, Uint8Array> = new Map()): Record<string, string> {
  const own: OwnHostFiles = {};
  for (const name of MERGED_HOST_FILES) { const b = statics.get(name); if (b) own[name as keyof OwnHostFiles] = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'); }
  return hostFiles(table, config, siteUrl, env, own);
}

/** The output besides pages. `hostFiles` are every generated host file (a static sitemap.xml or robots.txt
 *  wins over the generated one; static/_redirects and static/_headers are merged into theirs). */
export interface OutputPlan {
  aliasPages: Alias[];
  /** Page and alias-page output files ("about/index.html"). */
  pageFiles: Set<string>;
  hostFiles: Record<string, string>;
  /** The plugins' `outputs` files. */
  extra: Map<string, string | Uint8Array>;
  /** Problems that stop the output from going live but not the render (a favicon static/ lacks). */
  deferred: Message[];
  /** The static images' sizes and URLs for image() in templates, and their fingerprinted copies to write. */
  images: { table: ImageTable; copies: Map<string, Uint8Array> };
  targets: LinkTargets;
  errors: Message[];
}

export interface PlanInput {
  root: string;
  mode: Mode;
  env: NodeJS.ProcessEnv;
  config: SiteConfig;
  siteUrl: string;
  table: RouteTable;
  content: Content;
  manifest: AssetManifest;
  statics: Map<string, Uint8Array>;
  /** Bumps when the site module changes (a new config may make other host files from the same table). */
  moduleVersion: number;
}

/** The memo of the part that depends only on the set of outputs (see planOutputs). */
export type PlanMemo = { key: unknown[]; fixed: Omit<OutputPlan, 'extra' | 'images'> } | null;

function fixedPart(p: PlanInput): Omit<OutputPlan, 'extra' | 'images'> {
  const { routes, aliases } = p.table;
  const aliasPages = aliasPagesOf(p.table, p.config);
  const pageFiles = new Set<string>([...routes.map((r) => r.output), ...aliasPages.map((a) => a.output)]);
  const errors: Message[] = [];
  const hostFiles = hostFileTexts(p.table, p.config, p.siteUrl, p.env, p.statics);
  // A file and a folder of the same name cannot both be written: a static file where the output has a
  // folder of generated files (static/about beside about/index.html), or one inside a generated file's name.
  // (asked for the static files only: no map of every folder the generated files need)
  const needers = firstNeeders(new Set(p.statics.keys()), [pageFiles, p.manifest.files.keys(), Object.keys(hostFiles)]);
  const generated = (f: string) => pageFiles.has(f) || p.manifest.files.has(f) || Object.hasOwn(hostFiles, f);
  for (const f of p.statics.keys()) {
    const at = fileLocation(`static/${f}`);
    if (pageFiles.has(f) || p.manifest.files.has(f)) { errors.push(message('StaticConflict', `static/${f} would overwrite a generated file`, at)); continue; }
    const blocked = wayBlocked(f, needers.get(f), generated);
    if (blocked) errors.push(message('StaticConflict', `static/${f} ${blocked}`, at));
  }
  // (the page files and the manifest's asked as they are; the static files, which dev changes in place, as now)
  const targets = targetsOver(() => sitePaths(routes, aliases), (x) => routes.some((r) => r.path === x) || aliases.some((a) => a.from === x), [pageFiles, p.manifest.files, new Set([...p.statics.keys(), ...Object.keys(hostFiles)])], urlPolicy(p.config).base);
  return { aliasPages, pageFiles, hostFiles, targets, errors, deferred: [] };
}

/** What the host files read of the routes besides the paths the alias list follows (a folder's 404 page in
 *  _redirects by its output): a text that differs when one of them does (routes in order: a path's change is the table's too). */
function hostInputs(routes: RouteTable['routes']): string {
  let s = '';
  for (const r of routes) s += `${r.path}\u0000${r.output}\u0000${r.sitemap ? 1 : 0}${r.lastmod ?? ''}\u0000${r.contentType ?? ''}\u0000${r.csp ? JSON.stringify(r.csp) : ''}\u0001`;
  return s;
}

/** Every route's path, then every alias's (no array of them: 650,000 at 100,000 bench pages). */
function* sitePaths(routes: RouteTable['routes'], aliases: RouteTable['aliases']): Generator<string> {
  for (const r of routes) yield r.path;
  for (const a of aliases) yield a.from;
}

/**
 * The output plan. `memo` (dev) keeps the route-independent part while the alias list, the module, the
 * manifest and the static files stay the same; the plugins' outputs depend on routes and content, so they
 * are asked on every call (when a plugin has the hook).
 */
export async function planOutputs(p: PlanInput, memo: { current: PlanMemo } = { current: null }): Promise<OutputPlan> {
  // (the site's own _redirects and _headers by their bytes' identity: a new read of an edited file is a new array;
  // and what the host files read of each route besides its path: sitemap.xml its lastmod, _headers its csp and type)
  const key = [p.table.aliases, p.moduleVersion, p.manifest, p.siteUrl, p.statics.size, ...p.statics.keys(), ...[...MERGED_HOST_FILES].map((n) => p.statics.get(n)), hostInputs(p.table.routes)];
  const m = memo.current;
  if (!m || m.key.length !== key.length || m.key.some((k, i) => k !== key[i])) memo.current = { key, fixed: fixedPart(p) };
  let fixed = memo.current!.fixed;
  // Static images: each file's size is read once (output/staticImages.ts); fingerprinted copies are files too.
  const maxPixels = maxPixelsOf(p.config);
  const images = staticImagesCached(p.statics, !!p.config.images?.fingerprint, maxPixels);
  // The image pipeline's sources among them (<Image>), and its variants as link targets (images/store.ts).
  const store = imageStore(p.root, siteImageSettings(p.config), maxPixels, engineSettings().cache);
  for (const [file, info] of Object.entries(images.table)) if (info.facts) store.register(info.facts.hash, { file: `static${file}` });
  fixed = { ...fixed, targets: withVariants(fixed.targets, p.root) };
  if (images.copies.size) fixed = { ...fixed, targets: union(fixed.targets, images.copies.keys()) };
  const drafts = draftsLeftOut(p.content);
  if (drafts.size) fixed = { ...fixed, targets: { ...fixed.targets, drafts } };
  // A page by the content file it is made from (a link to "./2024-04-12-notes.md" means that page), made when
  // first asked. Set on the targets object itself: dev's link check keeps its verdicts while that object stays.
  let bySource: Map<string, string> | undefined;
  fixed.targets.pageOf = (file) => (bySource ??= new Map(p.table.routes.flatMap((r) => (r.source ? [[r.source, r.path] as [string, string]] : [])).reverse())).get(file);
  if (fixed.errors.length) return { ...fixed, images, extra: new Map() };
  if (!hasOutputHooks(p.config.plugins)) return withSiteFiles(p, { ...fixed, images, extra: new Map() });
  // Files the site's plugins add (feeds, JSON): they may not take a path another file of the output has.
  const taken = (f: string) => fixed.pageFiles.has(f) ? 'a page' : p.manifest.files.has(f) ? 'an asset' : p.statics.has(f) || images.copies.has(f) ? `static/${f}` : f in fixed.hostFiles ? 'the build (one of its host files)' : null;
  const ctx = { root: p.root, mode: p.mode, env: p.env, routes: p.table.routes, content: p.content, site: p.config.site, siteUrl: p.siteUrl };
  const others = new OutputPaths([...fixed.pageFiles, ...p.manifest.files.keys(), ...p.statics.keys(), ...images.copies.keys(), ...Object.keys(fixed.hostFiles)]);
  const out = await pluginOutputs(p.config.plugins, ctx, taken, others);
  if (out.errors.length) return { ...fixed, images, extra: out.files, errors: out.errors };
  if (!out.files.size) return withSiteFiles(p, { ...fixed, images, extra: out.files });
  return withSiteFiles(p, { ...fixed, images, extra: out.files, targets: union(fixed.targets, out.files.keys()), errors: [] });
}

/** The output file a site path names (`/og.png?v=2` → `og.png`, %-encoding read), or null for another URL. */
function sitePathFile(url: string): string | null {
  if (!url.startsWith('/') || url.startsWith('//')) return null;
  try { return decodeURI(url.split(/[?#]/, 1)[0]!).slice(1); } catch { return null; }
}

/** The plan with an error for the favicon and for each Open Graph image named by a site path that no file of
 *  the output is (a plugin's output counts): said at site.favicon, site.ogImage or the route, not as a broken
 *  link on every page (reported with the link check, which then passes the favicon's <link>; the pages still render). */
function withSiteFiles(p: PlanInput, plan: OutputPlan): OutputPlan {
  const exists = (f: string) => plan.pageFiles.has(f) || p.statics.has(f) || p.manifest.files.has(f) || plan.extra.has(f);
  const missing: Message[] = [];
  const icon = p.config.site.favicon, iconFile = icon ? sitePathFile(icon) : null;
  if (iconFile && !exists(iconFile)) {
    missing.push(message('ConfigError', `site.favicon is ${icon}, but static/${iconFile} does not exist`, locateKey(p.root, ['site', 'favicon']), { hint: `Put the icon at static/${iconFile}, or name the file you have (favicon: '/favicon.svg').` }));
    plan = { ...plan, targets: union(plan.targets, [iconFile]) };
  }
  // (a path written with the site's base, which the build adds: the file without it is meant)
  const base = urlPolicy(p.config).base.slice(1);
  const meant = (f: string) => (base && f.startsWith(base) && exists(f.slice(base.length)) ? ` Write it without site.base, which the build adds: /${f.slice(base.length)}.` : '');
  const og = p.config.site.ogImage, ogFile = og ? sitePathFile(og) : null;
  if (ogFile !== null && !exists(ogFile)) missing.push(message('ConfigError', `site.ogImage is ${og}, but static/${ogFile} does not exist`, locateKey(p.root, ['site', 'ogImage']), { hint: meant(ogFile).trim() || `Put the image at static/${ogFile} (a JPEG, PNG or WebP, 1200 px wide or more), or name the file you have.` }));
  for (const r of p.table.routes) {
    const f = typeof r.ogImage === 'string' ? sitePathFile(r.ogImage) : null; // (an imageFile() image was read with its entry)
    if (f === null || exists(f)) continue;
    const { at, notes } = routeFieldAt(p.root, r.source, r.ogImage);
    missing.push(message('ConfigError', `route ${r.path} has ogImage ${r.ogImage}, but static/${f} does not exist`, at, { hint: meant(f).trim() || `Put the image at static/${f}, or name the file you have.`, notes }));
  }
  return missing.length ? { ...plan, deferred: [...plan.deferred, ...missing] } : plan;
}

/** A digest of what the output plan's link targets answer, the image variants aside (the image store knows
 *  their sources), when the route table's shape is known (`shape`: a build with its caches, routes.ts): two
 *  plans with the same digest answer every other link alike (build.ts: a patch then checks its kept pages'
 *  links less, links.ts keptToCheck). */
export function targetsDigest(shape: string | null | undefined, config: SiteConfig, outputs: OutputPlan, manifest: AssetManifest, statics: ReadonlyMap<string, unknown>): string | undefined {
  if (!shape) return undefined;
  const list = (keys: Iterable<string>) => [...keys].sort().join('\0');
  return sha1([shape, urlPolicy(config).base, config.aliasPages === false ? 0 : 1, list(manifest.files.keys()), list(statics.keys()), list(Object.keys(outputs.hostFiles)), list(outputs.images.copies.keys()), list(outputs.extra.keys()), outputs.deferred.length].join('\n'));
}

const withVariantsMemo = new WeakMap<LinkTargets, LinkTargets>();
/** Targets plus the image pipeline's variants of the known sources (the same object while `own` is). */
function withVariants(own: LinkTargets, root: string): LinkTargets {
  let t = withVariantsMemo.get(own);
  if (!t) {
    t = { has: (x) => own.has(x) || !!currentImageStore(root)?.isVariant(x), base: own.base, paths: own.paths };
    withVariantsMemo.set(own, t);
  }
  return t;
}

/** Targets plus more output files. */
function union(own: LinkTargets, files: Iterable<string>): LinkTargets {
  const more = makeTargets([], files, own.base);
  return { ...own, has: (x) => own.has(x) || more.has(x) };
}
