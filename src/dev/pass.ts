// One dev rebuild after the inputs were updated: route the content, re-render only the routes whose
// inputs changed since the last good build (props, texts, the collections the render read, the site module,
// the assets they link), check every page's links, and — only when there is no problem at all — commit the
// new pages to the in-memory output. A failed pass changes nothing served: the last good site stays up.
import type { Content, Message, Route } from '../types.ts';
import type { SiteModule } from '../siteModule.ts';
import type { AssetManifest } from '../bundle.ts';
import { message, fileLocation, sortMessages } from '../errors.ts';
import { aliasPagesOf, hostFileTexts, locateLinks, renderContext, renderRoute } from '../build.ts';
import { extractLinks, makeTargets, type LinkTargets } from '../check.ts';
import { hasOutputHooks, pluginOutputs } from '../output/pluginOutputs.ts';
import { brokenLinks, type LinkCache } from './links.ts';
import { urlPolicy } from '../render/urls.ts';
import { staticImagesCached } from '../output/images.ts';
import { routeContent, sameRoute, type Routing } from './routeDiff.ts';
import type { DevOutput } from './output.ts';

export interface PageRecord {
  route: Route;
  html: string;
  islands: string[];
  links: string[];
  /** Collections the render read through `content` (the layout's), with their versions then. */
  reads: [string, number][];
  moduleVersion: number;
  manifest: AssetManifest;
}

interface AliasRecord { to: string; output: string; html: string; moduleVersion: number }

/** What the dev server holds between rebuilds. */
export interface DevState {
  root: string;
  env: NodeJS.ProcessEnv;
  siteUrl: string;
  site: SiteModule;
  moduleVersion: number;
  manifest: AssetManifest;
  content: Content;
  collectionVersion: (name: string) => number;
  output: DevOutput;
  /** The last good build: what is being served. */
  pages: Map<string, PageRecord>;
  aliases: Map<string, AliasRecord>;
  routing: Routing | null;
  /** Memo of the host files and link targets, valid while the alias list, module, manifest and statics stay. */
  memo: { key: unknown[]; conflicts: Message[]; hostFiles: Record<string, string>; targets: LinkTargets } | null;
  /** The alias list and module version the committed alias pages were made from. */
  aliasesFrom: { list: unknown; moduleVersion: number } | null;
  /** The host files the output serves now (their rules are parsed again only when they change). */
  servedHostFiles: Record<string, string | Uint8Array> | null;
  links: LinkCache;
}

export interface PassResult {
  errors: Message[];
  /** Routes rendered in this pass. */
  rendered: number;
  /** Route paths whose served HTML changed ("*" when all did); empty when the pass failed. */
  changed: string[];
  committed: boolean;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether a page that uses `islands` links the same asset URLs under both manifests. */
function sameAssets(a: AssetManifest, b: AssetManifest, islands: string[]): boolean {
  if (a === b) return true;
  if (!sameList(a.css, b.css)) return false;
  if (!islands.length) return true;
  if (a.runtime !== b.runtime || !sameList(a.baseChunks, b.baseChunks)) return false;
  return islands.every((n) => sameList(a.islandChunks[n] ?? [], b.islandChunks[n] ?? []) && a.reactIslands.includes(n) === b.reactIslands.includes(n));
}

/** `content` as the layout sees it, recording which collections a render reads. */
function trackReads(content: Content) {
  let reads = new Set<string>();
  const note = (k: string | symbol) => { if (typeof k === 'string') reads.add(k); };
  const proxy = new Proxy(content, {
    get(t, k, r) { note(k); return Reflect.get(t, k, r); },
    has(t, k) { note(k); return Reflect.has(t, k); },
    ownKeys(t) { Object.keys(t).forEach(note); return Reflect.ownKeys(t); },
    getOwnPropertyDescriptor(t, k) { note(k); return Reflect.getOwnPropertyDescriptor(t, k); },
  });
  return { proxy, reset: () => { reads = new Set(); }, reads: () => reads };
}

export async function runPass(s: DevState): Promise<PassResult> {
  const fail = (errors: Message[], rendered = 0): PassResult => ({ errors: sortMessages(errors), rendered, changed: [], committed: false });
  let routing: Routing;
  try {
    routing = routeContent(s.content, s.site.config, s.root, s.routing);
  } catch (e: any) {
    return fail([message('ConfigError', `routes() returned something routeTable cannot use: ${e?.message ?? e}`, fileLocation('sitegen.config.ts'))]);
  }
  if (routing.table.errors.length) return fail(routing.table.errors);
  const { routes, aliases } = routing.table;

  const tracker = trackReads(s.content);
  // Static images' sizes (and hashed copies) for image(); each file's bytes are read once (output/images.ts).
  const images = staticImagesCached(s.output.statics, !!s.site.config.images?.fingerprint);
  const ctx = renderContext(s.site.config, tracker.proxy, s.siteUrl, { ...s.manifest, images: images.table });
  const errors: Message[] = [];
  const next = new Map<string, PageRecord>();
  const seen = new WeakMap<object, WeakSet<object>>();
  let rendered = 0;
  for (const route of routes) {
    const prev = s.pages.get(route.path);
    if (prev && prev.moduleVersion === s.moduleVersion && sameAssets(prev.manifest, s.manifest, prev.islands)
      && prev.reads.every(([name, v]) => s.collectionVersion(name) === v) && sameRoute(prev.route, route, seen)) {
      next.set(route.path, prev);
      continue;
    }
    tracker.reset();
    rendered++;
    const { page, error } = renderRoute(s.site, route, ctx, s.root);
    if (!page) { errors.push(error!); continue; }
    const reads = [...tracker.reads()].map((name): [string, number] => [name, s.collectionVersion(name)]);
    next.set(route.path, { route, html: page.html, islands: page.islands, links: extractLinks(page.html), reads, moduleVersion: s.moduleVersion, manifest: s.manifest });
  }
  if (errors.length) return fail(errors, rendered);

  // Alias pages depend on their target and the module only; with the same alias list, the last ones stand.
  let nextAliases = s.aliases;
  if (s.aliasesFrom?.list !== aliases || s.aliasesFrom.moduleVersion !== s.moduleVersion) {
    nextAliases = new Map();
    for (const a of aliasPagesOf(routing.table, s.site.config)) {
      const prev = s.aliases.get(a.from);
      const same = prev && prev.to === a.to && prev.output === a.output && prev.moduleVersion === s.moduleVersion;
      nextAliases.set(a.from, same ? prev : { to: a.to, output: a.output, html: s.site.renderAliasPage(a.to, ctx), moduleVersion: s.moduleVersion });
    }
  }

  const key = [aliases, s.moduleVersion, s.manifest, s.output.statics.size, ...s.output.statics.keys()];
  if (!s.memo || s.memo.key.length !== key.length || s.memo.key.some((k, i) => k !== key[i])) s.memo = outputMemo(s, key, routing);
  if (s.memo.conflicts.length) return fail(s.memo.conflicts, rendered);
  // The plugins' extra outputs depend on routes and content, so they are made on every pass (when any).
  let hostFiles: Record<string, string | Uint8Array> = s.memo.hostFiles;
  let targets = s.memo.targets;
  if (images.copies.size) {
    hostFiles = { ...hostFiles, ...Object.fromEntries(images.copies) };
    const own = targets, more = makeTargets([], images.copies.keys());
    targets = { has: (p) => own.has(p) || more.has(p), base: own.base };
  }
  if (hasOutputHooks(s.site.config.plugins)) {
    const extra = await devPluginOutputs(s, routing, hostFiles);
    if (extra.errors.length) return fail(extra.errors, rendered);
    if (extra.files.size) {
      hostFiles = { ...hostFiles, ...Object.fromEntries(extra.files) };
      const own = targets, more = makeTargets([], extra.files.keys());
      targets = { has: (p) => own.has(p) || more.has(p), base: own.base };
    }
  }
  const links = [...next.values()].map((p) => ({ page: p.route.path, source: p.route.source, links: p.links }));
  errors.push(...await locateLinks(s.root, brokenLinks(links, targets, s.links)));
  if (errors.length) return fail(errors, rendered);

  const changed = commit(s, next, nextAliases, hostFiles);
  s.aliasesFrom = { list: aliases, moduleVersion: s.moduleVersion };
  s.routing = routing;
  // When every page changed (a template, a stylesheet), "*" says so in one word.
  const changedSet = new Set(changed);
  const all = changed.length >= next.size && [...next.keys()].every((p) => changedSet.has(p));
  return { errors: [], rendered, changed: all ? ['*'] : changed, committed: true };
}

/** What depends only on the set of outputs: static-file conflicts, host files, the link targets. */
function outputMemo(s: DevState, key: unknown[], routing: Routing): NonNullable<DevState['memo']> {
  const { routes, aliases } = routing.table;
  const outputs = new Set<string>([...routes.map((r) => r.output), ...aliasPagesOf(routing.table, s.site.config).map((a) => a.output)]);
  const conflicts: Message[] = [];
  for (const f of s.output.statics.keys()) {
    if (outputs.has(f) || s.manifest.files.has(f)) conflicts.push(message('StaticConflict', `static/${f} would overwrite a generated file`, fileLocation(`static/${f}`)));
  }
  const hostFiles = hostFileTexts(routing.table, s.site.config, s.siteUrl, s.env);
  const targets = makeTargets(
    [...routes.map((r) => r.path), ...aliases.map((a) => a.from)],
    [...outputs, ...s.output.statics.keys(), ...s.manifest.files.keys(), ...Object.keys(hostFiles)],
    urlPolicy(s.site.config).base,
  );
  return { key, conflicts, hostFiles, targets };
}

/** The plugins' `outputs` files for this pass, checked against every other file of the output. */
function devPluginOutputs(s: DevState, routing: Routing, hostFiles: Record<string, string | Uint8Array>) {
  const pages = new Set([...routing.table.routes.map((r) => r.output), ...aliasPagesOf(routing.table, s.site.config).map((a) => a.output)]);
  const taken = (f: string) => pages.has(f) ? 'a page' : s.manifest.files.has(f) ? 'an asset' : s.output.statics.has(f) ? `static/${f}` : f in hostFiles ? 'the host files' : null;
  const ctx = { root: s.root, mode: 'dev' as const, env: s.env, routes: routing.table.routes, content: s.content, site: s.site.config.site, siteUrl: s.siteUrl };
  return pluginOutputs(s.site.config.plugins, ctx, taken);
}

/** Swaps the new pages into the served output; returns the route paths whose HTML changed. */
function commit(s: DevState, pages: Map<string, PageRecord>, aliases: Map<string, AliasRecord>, hostFiles: Record<string, string | Uint8Array>): string[] {
  const out = s.output;
  const changed: string[] = [];
  const sameAliases = aliases === s.aliases;
  // Outputs that moved or went away first, so a new page may take over a freed output file.
  for (const [p, prev] of s.pages) if (pages.get(p)?.route.output !== prev.route.output) { out.pages.delete(prev.route.output); changed.push(p); }
  if (!sameAliases) for (const [p, prev] of s.aliases) if (aliases.get(p)?.output !== prev.output) { out.pages.delete(prev.output); changed.push(p); }
  for (const [p, rec] of pages) {
    const prev = s.pages.get(p);
    if ((prev === rec || prev?.html === rec.html) && out.pages.has(rec.route.output)) continue;
    out.pages.set(rec.route.output, { html: rec.html, route: p });
    changed.push(p);
  }
  if (!sameAliases) {
    for (const [p, rec] of aliases) {
      if (s.aliases.get(p)?.html === rec.html && out.pages.has(rec.output)) continue;
      out.pages.set(rec.output, { html: rec.html, route: p });
      changed.push(p);
    }
  }
  if (out.assets !== s.manifest.files) {
    out.previousAssets = out.assets;
    out.assets = s.manifest.files;
  }
  // A static file of the same name wins over a generated host file: the output looks there first.
  if (s.servedHostFiles !== hostFiles) {
    const same = s.servedHostFiles && Object.entries(hostFiles).every(([f, t]) => s.servedHostFiles![f] === t);
    s.servedHostFiles = hostFiles;
    if (!same) {
      out.hostFiles = new Map(Object.entries(hostFiles));
      out.refreshRules();
    }
  }
  out.built = true;
  s.pages = pages;
  s.aliases = aliases;
  return [...new Set(changed)];
}
