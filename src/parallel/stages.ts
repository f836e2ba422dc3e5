// stages: the content and render stages of `sitegen build` on a pool of worker threads, or in-process
// when there is no pool (small sites: below PARALLEL_MIN files or routes a worker's start-up costs more
// than it saves). Either way pages are written as they are rendered and only their islands and links
// are kept, so memory does not grow with the HTML of the whole site.
import type { SiteConfig } from '../types.ts';
import type { RouteTable } from '../route.ts';
import { loadBatch, loadMissing, type ContentPlan, type LoadItem, type LoadResult, type Loader } from '../content/load.ts';
import { createWriter, discardWriter, pageWriter } from '../write.ts';
import { SAME_HTML, batchRenderer, type PageResult, type RenderSetup } from './batch.ts';
import { CloneError, type Pool } from './pool.ts';
import type { PageRenderer } from '../render/page.ts';
import type { renderAliasPage } from '../render/document.tsx';
import { engineSettings } from '../settings.ts';

/** Files per load task and routes per render task: small enough to balance, large enough to amortise. */
const LOAD_BATCH = 50;
const RENDER_BATCH = 50;
const ALIAS_BATCH = 500;


const ranges = (n: number, step: number): [number, number][] => {
  const out: [number, number][] = [];
  for (let i = 0; i < n; i += step) out.push([i, Math.min(n, i + step)]);
  return out;
};

/**
 * A content loader that spreads the files over the pool. Each worker keeps the entries it parsed and then
 * receives the others (not a second copy of its own), so it holds the whole content and can compute the
 * route table and render without the main thread sending it again. A result that cannot be copied
 * (a schema that makes class instances) falls back to loading here; the pool then only renders nothing.
 */
export function poolLoader(pool: Pool, config: SiteConfig, root: string, opts: { drafts?: boolean } = {}): Loader {
  return async (items: LoadItem[], plan: ContentPlan, known: (LoadResult | undefined)[]) => {
    // Only files the content cache did not answer are parsed, in batches of item indices.
    const missing = items.flatMap((_, i) => (known[i] ? [] : [i]));
    const batches = ranges(missing.length, LOAD_BATCH).map(([s, e]) => missing.slice(s, e));
    const owners: number[] = [];
    const results = [...known] as LoadResult[];
    try {
      const tasks = batches.map((indices) => ({ type: 'load' as const, root, indices, items: indices.map((i) => items[i]) }));
      const loaded = await pool.map<LoadResult[]>(tasks, async (t) => loadBatch(config, root, (t as typeof tasks[number]).items), owners);
      batches.forEach((indices, b) => indices.forEach((i, k) => {
        const r = loaded[b][k];
        if (r.parsed?.html === SAME_HTML) r.parsed.html = r.entry?.html;
        results[i] = r;
      }));
    } catch (e) {
      if (!(e instanceof CloneError)) throw e;
      return loadMissing(config, root, items, known);
    }
    // A pool that will not render has done its work: its heaps go now, before the route table is made.
    if (!poolRenders(pool)) { await pool.close(); return results; }
    // Each worker keeps what it parsed and is sent the rest (without the cache's copy of the data), one batch
    // per message, without waiting: the messages that follow (setup) queue behind. One message with half
    // the content would be serialised whole first, a peak of tens of MB at 10k pages.
    const strip = (r: LoadResult): LoadResult => ({ entry: r.entry, errors: r.errors });
    // What the cache answered goes to every worker, in batches like the parsed files.
    const cached = items.flatMap((_, i) => (known[i] ? [i] : []));
    const cachedBatches = ranges(cached.length, LOAD_BATCH).map(([s, e]) => cached.slice(s, e));
    const sent = Promise.all(Array.from({ length: pool.size }, (_, w) => {
      const others = [...batches.filter((_, b) => owners[b] !== w), ...cachedBatches];
      return Promise.all([
        ...others.map((indices) => pool.sendTo(w, { type: 'part', indices, results: indices.map((i) => strip(results[i])) })),
        pool.sendTo(w, { type: 'content', root, spans: plan.spans, count: items.length, drafts: !!opts.drafts }),
      ]);
    }));
    pool.contentReady = true;
    sent.catch(() => { pool.contentReady = false; });
    return results;
  };
}

export interface RenderArgs {
  /** The loaded site module's config and renderers (siteModule/loader.ts SiteModule has these). */
  site: PageRenderer & { renderAliasPage: typeof renderAliasPage };
  table: Pick<RouteTable, 'routes' | 'aliases'>;
  setup: RenderSetup;
  /** The staging folder pages are written into; null renders them for their links and writes nothing
   *  (`sitegen check`: the same render as a build's, without its output). */
  outDir: string | null;
  /** Whether that folder was made empty (write.ts Staging.fresh). */
  fresh?: boolean;
  pool: Pool | null;
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

/** Whether the alias pages are written (a meta-refresh page per alias), or only the host's redirect rules. */
const writesAliasPages = (config: SiteConfig) => config.aliasPages !== false;

/** Every page file renderPages writes, relative to the output folder. */
export function pageFiles(config: SiteConfig, table: Pick<RouteTable, 'routes' | 'aliases'>): string[] {
  return [...table.routes.map((r) => r.output), ...(writesAliasPages(config) ? table.aliases.map((a) => a.output) : [])];
}

/** Renders and writes every route (and the alias pages, unless `aliasPages: false`); results in route order.
 *  Without an output folder, alias pages are not rendered: they hold no link the check would follow. */
export async function renderPages(a: RenderArgs): Promise<PageResult[]> {
  const aliasPages = a.outDir !== null && writesAliasPages(a.site.config);
  // The workers hold the content since the pooled load (they compute the route table themselves, while
  // the main thread bundles), unless the pool only parses (poolRenders); then it is closed already.
  if (a.pool && poolRenders(a.pool)) {
    try {
      const pages = await renderOnPool(a, a.pool, aliasPages);
      await a.pool.close(); // the workers' copies of the content: freed before the host files and link check
      return pages;
    } catch (e) {
      if (!(e instanceof CloneError)) throw e; // content a worker cannot receive: render here instead
    }
  }
  await a.pool?.close(); // its workers' heaps are not needed any more: lower peak memory
  // Rendering on this thread alone: a big site's writes go to a thread of their own on the other core.
  const writer = a.outDir === null ? discardWriter() : pageWriter(a.outDir, a.table.routes.length + (aliasPages ? a.table.aliases.length : 0), a.fresh);
  const r = batchRenderer(a.site, a.table, a.setup, writer);
  const pages = await r.pages(0, a.table.routes.length);
  if (aliasPages) await r.aliases(0, a.table.aliases.length);
  await writer.flush();
  return pages;
}

async function renderOnPool(a: RenderArgs, pool: Pool, aliasPages: boolean): Promise<PageResult[]> {
  const { routes, aliases } = a.table;
  // Not awaited before the tasks: a worker computes the route table (as long as the routes stage) while
  // the main thread already renders; its tasks queue behind the setup message.
  // Workers that hold the content (pooled load) get the setup without it: no second copy.
  const { content, ...rest } = a.setup;
  const setup = pool.broadcast({ type: 'setup', setup: pool.contentReady ? rest : a.setup, outDir: a.outDir, fresh: a.fresh, routes: routes.length, aliases: aliases.length });
  setup.catch(() => {});
  const writer = a.outDir === null ? discardWriter() : createWriter(a.outDir, a.fresh);
  const here = batchRenderer(a.site, a.table, a.setup, writer);
  const pageTasks = ranges(routes.length, RENDER_BATCH).map(([start, end]) => ({ type: 'pages' as const, start, end }));
  const aliasTasks = aliasPages ? ranges(aliases.length, ALIAS_BATCH).map(([start, end]) => ({ type: 'aliases' as const, start, end })) : [];
  const [, results] = await Promise.all([setup, pool.map<PageResult[] | void>([...pageTasks, ...aliasTasks], async (t) => {
    const { type, start, end } = t as typeof pageTasks[number] | typeof aliasTasks[number];
    return type === 'pages' ? here.pages(start, end) : here.aliases(start, end);
  })]);
  await Promise.all([pool.broadcast({ type: 'flush' }), writer.flush()]);
  const pages = (results.slice(0, pageTasks.length) as PageResult[][]).flat();
  pages.forEach((p, i) => {
    if (p.path !== routes[i].path) throw new Error(`render worker rendered ${p.path} where the main thread has ${routes[i].path}: routes() must be a pure function of the content`);
  });
  return pages;
}
