// render: the one render stage. `renderPlan(plan, target)` renders a session's planned pages (and alias
// pages) to a target — a folder (build: the staging folder, pages written by src/output/write.ts writers, on the
// pool's workers too when it has two or more), the links only (check: each page's links kept, its HTML
// dropped) or memory (dev: the output it serves). Build, check, dev and the render workers (batch.ts) all
// render through batchRenderer below, so a page is the same bytes wherever it is rendered. A page's
// result never carries its HTML: the target has it, so memory does not grow with a big build.
import type { Content, Message, Route, SiteConfig } from '../core/types.ts';
import type { RouteTable } from './routeTable.ts';
import { createWriter, discardWriter, pageWriter, type Writer } from '../output/writers.ts';
import { renderContext, renderRoute, type ManifestLinks, type PageRenderer } from '../render/page.ts';
import type { RenderContext, renderAliasPage } from '../render/document.tsx';
import { extractLinks } from './linkScan.ts';
import { CloneError, type Pool } from '../parallel/pool.ts';
import { engineSettings } from '../core/settings.ts';
import type { Incremental } from './incremental.ts';
import { counter } from '../core/progress.ts';
import { pagePolicies } from '../output/hostfiles.ts';
import type { ReadyPlan, Session } from './session.ts';

/** What a page render reports back: never its HTML (the target holds it). */
export interface PageResult {
  path: string; islands: string[]; links: string[]; error?: Message;
  /** The collections the render read (when the render tracks them: RenderOptions.track). */
  reads?: string[];
}

/** What every page renders with: plain data, so it can go to a worker. */
export interface RenderSetup { root: string; content: Content; siteUrl: string; manifest: ManifestLinks }

/** The part of the site module that renders pages and alias pages. */
export type SiteRenderer = PageRenderer & { renderAliasPage: typeof renderAliasPage };

/** What a plan renders: the site's renderer, the route table, the render context's data, and the pool. */
export interface RenderPlan {
  site: SiteRenderer;
  table: Pick<RouteTable, 'routes' | 'aliases'>;
  setup: RenderSetup;
  /** The build's worker pool: pages render on it when it has two or more workers (poolRenders); closed after. */
  pool?: Pool | null;
}

/** Where rendered pages go. */
export type RenderTarget =
  /** A folder (the build's staging folder); `fresh`: it was made empty (write.ts Staging.fresh). */
  | { kind: 'folder'; dir: string; fresh?: boolean }
  /** Nowhere: each page's links are kept, its HTML dropped; alias pages are not rendered (`sitegen check`). */
  | { kind: 'links' }
  /** Memory: output file → HTML (dev). */
  | { kind: 'memory'; files: Map<string, string> };

/** The targets a worker thread can write to: not memory, which lives on the main thread. */
export type WorkerTarget = Exclude<RenderTarget, { kind: 'memory' }>;

export const folderTarget = (dir: string, fresh?: boolean): RenderTarget => ({ kind: 'folder', dir, fresh });
export const linksTarget = (): RenderTarget => ({ kind: 'links' });
export const memoryTarget = (files = new Map<string, string>()): RenderTarget & { kind: 'memory' } => ({ kind: 'memory', files });

/** The writer pages go through for a target. `files`: how many this thread will write (a folder's writer
 *  picks a writer thread for a big render alone); `shared`: other threads write into the folder too. */
export function targetWriter(target: RenderTarget, files = 0, shared = false): Writer {
  switch (target.kind) {
    case 'links': return discardWriter();
    case 'memory': return { async write(rel, data) { target.files.set(rel, typeof data === 'string' ? data : Buffer.from(data).toString('utf8')); }, async flush() {} };
    case 'folder': return shared ? createWriter(target.dir, target.fresh) : pageWriter(target.dir, files, target.fresh);
  }
}

/** Whether the alias pages are written (a meta-refresh page per alias), or only the host's redirect rules. */
const writesAliasPages = (config: SiteConfig) => config.aliasPages !== false;

/** Whether a target gets alias pages: not the links target (they hold no link the check would follow). */
const aliasPagesFor = (target: RenderTarget, config: SiteConfig) => target.kind !== 'links' && writesAliasPages(config);

/** `content` as the layout sees it, recording which collections a render reads. */
export function trackReads(content: Content) {
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

/** Called on this thread around each route's render (dev: which collections the render reads). */
export interface RenderObserver {
  before(route: Route): void;
  after(route: Route, result: PageResult): void;
}

export interface BatchRenderer {
  /** Renders routes [start, end) and writes each page through the writer. */
  pages(start: number, end: number): Promise<PageResult[]>;
  /** Renders the routes at these indices, in the order given. */
  some(indices: number[]): Promise<PageResult[]>;
  /** Writes the alias pages at these indices of the alias list. */
  aliases(indices: Iterable<number>): Promise<void>;
}

/**
 * Renders routes and alias pages of a table and writes them through `writer`; the same on every thread.
 * `track`: each result says which collections its render read (`reads`); `step` is told of each page (progress).
 */
export function batchRenderer(site: SiteRenderer, table: RenderPlan['table'], setup: RenderSetup, writer: Writer, observe?: RenderObserver, track = false, step?: () => void): BatchRenderer {
  const tracker = track ? trackReads(setup.content) : null;
  const ctx: RenderContext = renderContext(site.config, tracker ? tracker.proxy : setup.content, setup.siteUrl, setup.manifest);
  // One string per distinct link: every page's navigation and most body links are links other pages have
  // too, and the link check holds every page's list to the end (100,000 pages: millions of strings). A link
  // is read out of the page's HTML (a substring would keep the whole page alive until the link check): each
  // is looked up first, and only one not met before is copied (JSON's round trip makes a string of its own),
  // where copying every page's whole list cost twice the lookups (10,000 pages: ~50 → ~17 ms).
  const linkText = new Map<string, string>();
  const oneOf = (s: string) => {
    const had = linkText.get(s);
    if (had !== undefined) return had;
    const own = JSON.parse(JSON.stringify(s)) as string;
    linkText.set(own, own);
    return own;
  };
  async function one(i: number): Promise<PageResult> {
    const route = table.routes[i];
    observe?.before(route);
    tracker?.reset();
    const { page, error } = renderRoute(site, route, ctx, setup.root);
    const result: PageResult = page ? { path: route.path, islands: page.islands, links: extractLinks(page.html).concat(page.links ?? []).map(oneOf) } : { path: route.path, islands: [], links: [], error };
    if (tracker) result.reads = [...tracker.reads()];
    observe?.after(route, result);
    if (page) await writer.write(route.output, page.html);
    step?.();
    return result;
  }
  return {
    async pages(start, end) {
      const out: PageResult[] = [];
      for (let i = start; i < end; i++) out.push(await one(i));
      return out;
    },
    async some(indices) {
      const out: PageResult[] = [];
      for (const i of indices) out.push(await one(i));
      return out;
    },
    async aliases(indices) {
      for (const i of indices) await writer.write(table.aliases[i].output, site.renderAliasPage(table.aliases[i].to, ctx));
    },
  };
}

/**
 * Whether the pool renders pages too, or only parsed the content. With one worker (2 cores) the main thread
 * renders alone while a writer thread writes on the other core: measured on the 10,000-page bench site
 * (cold, 2 cores), the render stage took 0.76–0.84 s that way against 1.27–1.73 s with the worker rendering
 * beside the main thread, and the worker need not be sent the whole content (a second copy, ~100 MB).
 * From two workers up, rendering on them adds cores the writer thread cannot use. The renderOnWorkers
 * setting decides instead when set.
 */
export const poolRenders = (pool: Pool): boolean => engineSettings().renderOnWorkers ?? pool.size >= 2;

export interface RenderOptions {
  /** The indices of the routes to render, in order (dev: the changed ones); default: every route. */
  routes?: number[];
  /** The indices of the alias pages to render; default: all of them, when the target gets alias pages. */
  aliases?: number[];
  /** Told around each route rendered on this thread. */
  observe?: RenderObserver;
  /** Each result says which collections its render read (build: pipeline/incremental.ts records them). */
  track?: boolean;
}

const planPolicies = new WeakMap<ReadyPlan, NonNullable<ManifestLinks['cspMeta']>>();

/**
 * The render input of a session's plan: its site module, route table, content (dev passes a view of it
 * that records what each page reads), origin, and the links of the asset manifest (no file bytes: plain
 * data a worker can receive), with the build's pool.
 */
export function planInput(session: Pick<Session, 'site' | 'root' | 'content' | 'siteUrl' | 'pool' | 'env'>, plan: ReadyPlan, content: Content = session.content): RenderPlan {
  const { routing, manifest: m, outputs } = plan;
  const manifest: ManifestLinks = { css: m.css, runtime: m.runtime, baseChunks: m.baseChunks, islandChunks: m.islandChunks, reactIslands: m.reactIslands, images: outputs.images.table };
  // In the manifest, which goes to the workers and into the replay's record: the site's policy is in every page's
  // build key with it, a route's own in its page's (pipeline/incremental.ts buildKey). Made once a plan: a build asks
  // for its input three times, and each would call the site's csp() and walk every route.
  if (session.site!.config.cspMeta) manifest.cspMeta = planPolicies.get(plan) ?? planPolicies.set(plan, pagePolicies(session.site!.config, routing.table.routes, session.env)).get(plan)!;
  return { site: session.site!, table: routing.table, setup: { root: session.root, content, siteUrl: session.siteUrl(), manifest }, pool: session.pool };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * Renders the plan's routes (all, or `opts.routes`) and alias pages to `target`; the results in the order
 * of the routes rendered. A pool renders a whole plan to a folder or for its links; it is closed after.
 */
export async function renderPlan(plan: RenderPlan, target: RenderTarget, opts: RenderOptions = {}): Promise<PageResult[]> {
  const { table, site } = plan;
  const aliases = aliasPagesFor(target, site.config) ? opts.aliases ?? range(table.aliases.length) : [];
  const routes = opts.routes ?? null;
  // The workers hold the content since the pooled load (they compute the route table themselves, while
  // the main thread bundles), unless the pool only parses (poolRenders); then it is closed already.
  if (plan.pool && target.kind !== 'memory' && !opts.observe && poolRenders(plan.pool)) {
    try {
      const pages = await renderOnPool(plan, plan.pool, target, routes, aliases, !!opts.track);
      await plan.pool.close(); // the workers' copies of the content: freed before the host files and link check
      return pages;
    } catch (e) {
      if (!(e instanceof CloneError)) throw e; // content a worker cannot receive: render here instead
    }
  }
  await plan.pool?.close(); // its workers' heaps are not needed any more: lower peak memory
  // Rendering on this thread alone: a big site's writes go to a thread of their own on the other core.
  const writer = targetWriter(target, (routes?.length ?? table.routes.length) + aliases.length);
  if (writer.folders) {
    const dirOf = (output: string) => { const k = output.lastIndexOf('/'); return k < 0 ? '' : output.slice(0, k); };
    writer.folders((function* () {
      for (const i of routes ?? range(table.routes.length)) yield dirOf(table.routes[i].output);
      for (const i of aliases) yield dirOf(table.aliases[i].output);
    })());
  }
  const r = batchRenderer(site, table, plan.setup, writer, opts.observe, opts.track, counter('render', routes?.length ?? table.routes.length));
  const pages = routes ? await r.some(routes) : await r.pages(0, table.routes.length);
  await r.aliases(aliases);
  await writer.flush();
  return pages;
}

/**
 * Dev: a plan's routes and alias pages rendered into memory one at a time, in any order the caller asks
 * (the pages open in a browser first, a requested page on demand, the rest in the background), through
 * the same renderer as renderPlan.
 */
export function memoryRenderer(plan: RenderPlan, target: RenderTarget & { kind: 'memory' }, observe?: RenderObserver): BatchRenderer {
  return batchRenderer(plan.site, plan.table, plan.setup, targetWriter(target), observe);
}

/** Files per render task and alias pages per alias task: small enough to balance, large enough to amortise. */
const RENDER_BATCH = 50;
const ALIAS_BATCH = 500;

const ranges = (n: number, step: number): [number, number][] => {
  const out: [number, number][] = [];
  for (let i = 0; i < n; i += step) out.push([i, Math.min(n, i + step)]);
  return out;
};

const chunks = (list: number[], step: number): number[][] => ranges(list.length, step).map(([a, b]) => list.slice(a, b));

/** Renders the routes at `only` (all when null) and the alias pages at `aliases` on the pool and this thread. */
async function renderOnPool(plan: RenderPlan, pool: Pool, target: WorkerTarget, only: number[] | null, aliases: number[], track: boolean): Promise<PageResult[]> {
  const { routes } = plan.table;
  // Not awaited before the tasks: a worker computes the route table (as long as the routes stage) while
  // the main thread already renders; its tasks queue behind the setup message.
  // Workers that hold the content (pooled load) get the setup without it: no second copy.
  const { content, ...rest } = plan.setup;
  const setup = pool.broadcast({ type: 'setup', setup: pool.contentReady ? rest : plan.setup, target, routes: routes.length, aliases: plan.table.aliases.length, track });
  setup.catch(() => {});
  const writer = targetWriter(target, 0, true);
  const here = batchRenderer(plan.site, plan.table, plan.setup, writer, undefined, track);
  const pageTasks = only
    ? chunks(only, RENDER_BATCH).map((indices) => ({ type: 'some' as const, indices }))
    : ranges(routes.length, RENDER_BATCH).map(([start, end]) => ({ type: 'pages' as const, start, end }));
  const aliasTasks = chunks(aliases, ALIAS_BATCH).map((indices) => ({ type: 'aliases' as const, indices }));
  const step = counter('render', only?.length ?? routes.length);
  const [, results] = await Promise.all([setup, pool.map<PageResult[] | void>([...pageTasks, ...aliasTasks], async (t) => {
    const task = t as typeof pageTasks[number] | typeof aliasTasks[number];
    if (task.type === 'pages') return here.pages(task.start, task.end);
    if (task.type === 'some') return here.some(task.indices);
    return here.aliases(task.indices);
  }, [], (t) => { const task = t as typeof pageTasks[number]; if (task.type === 'pages') step(task.end - task.start); else if (task.type === 'some') step(task.indices.length); })]);
  await Promise.all([pool.broadcast({ type: 'flush' }), writer.flush()]);
  const pages = (results.slice(0, pageTasks.length) as PageResult[][]).flat();
  pages.forEach((p, i) => {
    const route = routes[only ? only[i] : i];
    if (p.path !== route.path) throw new Error(`render worker rendered ${p.path} where the main thread has ${route.path}: routes() must be a pure function of the content`);
  });
  return pages;
}

/** The alias pages a build writes (none when the config turns them off). */
export const aliasPagesOf = (session: Pick<Session, 'site'>, plan: ReadyPlan) => (session.site!.config.aliasPages === false ? [] : plan.routing.table.aliases);

/**
 * Renders the routes and alias pages whose file in the folder being built is not already what they would
 * render to (see pipeline/incremental.ts), recording what each render read; the results of every route, in
 * route order, and how many routes were rendered.
 */
export async function renderChanged(session: Session, plan: ReadyPlan, target: RenderTarget, inc: Incremental): Promise<{ pages: PageResult[]; rendered: number }> {
  const { routes } = plan.routing.table;
  const aliasPages = aliasPagesOf(session, plan);
  const c = inc.changes(routes, aliasPages);
  const results: (PageResult | undefined)[] = c.kept.map((kept, i) => (kept ? { path: routes[i].path, islands: kept.islands, links: kept.links } : undefined));
  const rendered = await renderPlan(planInput(session, plan), target, { routes: c.routes, aliases: c.aliases, track: true });
  for (const [k, r] of rendered.entries()) {
    const route = routes[c.routes[k]];
    results[c.routes[k]] = r;
    if (!r.error) inc.rendered(route, r.reads ?? [], r);
  }
  for (const i of c.aliases) inc.renderedAlias(aliasPages[i]);
  return { pages: results as PageResult[], rendered: c.routes.length };
}
