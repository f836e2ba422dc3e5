// stages: the content stage of `sitegen build` on a pool of worker threads (small sites load in-process:
// below PARALLEL_MIN files a worker's start-up costs more than it saves). The workers then keep the content
// for the render stage (pipeline/render.ts renderPlan), which renders on them when the pool has two or more.
import type { SiteConfig } from '../core/types.ts';
import { counter } from '../core/progress.ts';
import { loadBatch, loadMissing, type ContentPlan, type LoadItem, type LoadResult, type Loader } from '../content/load.ts';
import { SAME_HTML } from './batch.ts';
import { CloneError, type Pool } from './pool.ts';
import { unwireEntry, wireEntry } from '../content/diskBody.ts';
import { poolRenders } from '../pipeline/render.ts';

/** Files per load task: small enough to balance, large enough to amortise. */
const LOAD_BATCH = 50;


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
      const keep = poolRenders(pool); // else the worker is closed after the load: its entries would only weigh
      const tasks = batches.map((indices) => ({ type: 'load' as const, root, indices, items: indices.map((i) => items[i]), disk: plan.disk, keep }));
      const step = counter('content', missing.length);
      const loaded = await pool.map<LoadResult[]>(tasks, async (t) => loadBatch(config, root, (t as typeof tasks[number]).items, plan.disk), owners, (t) => step((t as typeof tasks[number]).items.length));
      batches.forEach((indices, b) => indices.forEach((i, k) => {
        const r = loaded[b][k];
        r.entry = unwireEntry(r.entry, root); // a body a worker kept on disk: read from there here too
        if (r.parsed?.html === SAME_HTML) r.parsed.html = r.entry?.html;
        results[i] = r;
      }));
    } catch (e) {
      if (!(e instanceof CloneError)) throw e;
      return loadMissing(config, root, items, known, plan.disk);
    }
    // A pool that will not render has done its work: its heaps go now, before the route table is made.
    if (!poolRenders(pool)) { await pool.close(); return results; }
    // Each worker keeps what it parsed and is sent the rest (without the cache's copy of the data), one batch
    // per message, without waiting: the messages that follow (setup) queue behind. One message with half
    // the content would be serialised whole first, a peak of tens of MB at 10k pages.
    const strip = (r: LoadResult): LoadResult => ({ entry: wireEntry(r.entry), errors: r.errors });
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
