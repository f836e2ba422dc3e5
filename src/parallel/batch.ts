// batch: the work render workers do — parse and validate a batch of content files (YAML, front matter,
// zod, Markdown → HTML), and render ranges of routes to the build's target through the render stage's own
// renderer (pipeline/render.ts). A worker thread runs it from the engine's worker program (workerEntry.ts)
// with the site module it loaded; the main thread runs the same functions in-process for small sites.
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { Content, Message, SiteConfig } from '../core/types.ts';
import { assembleContent, loadBatch, type ContentPlan, type LoadItem, type LoadResult } from '../content/load.ts';
import { freezeContent } from '../content/readOnly.ts';
import { routeTable } from '../pipeline/routeTable.ts';
import type { Writer } from '../output/writers.ts';
import { renderPage, renderAliasPage } from '../render/document.tsx';
import { batchRenderer, targetWriter, type BatchRenderer, type RenderSetup, type WorkerTarget } from '../pipeline/render.ts';
import { unwireEntry, wireEntry } from '../content/diskBody.ts';

export type { PageResult, RenderSetup } from '../pipeline/render.ts';

/** Stands for "the entry's HTML" in load results a worker sends (see stages.ts poolLoader). */
export const SAME_HTML = '\0sitegen:same-html';


/** Messages from the main thread (pool.ts); each gets one reply with the same id. */
export type WorkerTask =
  /** `keep`: the worker keeps its entries for the render (a pool that only parses keeps none). */
  | { id: number; type: 'load'; root: string; indices: number[]; items: LoadItem[]; disk?: boolean; keep?: boolean }
  /** The load results this worker did not compute itself; with its own, the whole content. */
  | { id: number; type: 'part'; indices: number[]; results: LoadResult[] }
  /** Sent after the parts: the worker now has every load result and builds the content. */
  | { id: number; type: 'content'; root: string; spans: ContentPlan['spans']; count: number; drafts?: boolean }
  /** Without `content`, the worker uses what it assembled from the pooled load. */
  /** `track`: each page result says which collections its render read. */
  | { id: number; type: 'setup'; setup: RenderSetup | Omit<RenderSetup, 'content'>; target: WorkerTarget; routes: number; aliases: number; track?: boolean }
  | { id: number; type: 'pages'; start: number; end: number }
  /** The routes, or the alias pages, at these indices. */
  | { id: number; type: 'some' | 'aliases'; indices: number[] }
  | { id: number; type: 'flush' };

/** A worker's message loop. The worker computes the route table itself (routes() is pure) and checks
 *  that it has as many routes and aliases as the main thread's, so indices name the same routes. */
export function workerMain(port: MessagePort = parentPort!, config: SiteConfig): void {
  const site = { config, renderPage, renderAliasPage };
  let renderer: BatchRenderer | null = null;
  let writer: Writer | null = null;
  // Load results by item index: computed here ('load') or sent ('part').
  const own = new Map<number, LoadResult>();
  let content: Content | null = null;
  let table: ReturnType<typeof routeTable> | null = null;
  const handle = async (t: WorkerTask): Promise<unknown> => {
    switch (t.type) {
      case 'load': {
        const results = await loadBatch(config, t.root, t.items, t.disk);
        if (t.keep !== false) t.indices.forEach((i, k) => own.set(i, { entry: results[k].entry, errors: results[k].errors }));
        // The parse output's HTML is the entry's: not sent twice (the main thread puts it back).
        // A body kept on disk goes as its place (diskBody.ts), not read into the message.
        return results.map((r) => (r.parsed?.html !== undefined ? { ...r, parsed: { ...r.parsed, html: SAME_HTML } } : { ...r, entry: wireEntry(r.entry) }));
      }
      case 'part': t.indices.forEach((i, k) => own.set(i, t.results[k])); return null;
      case 'content': {
        const all: LoadResult[] = new Array(t.count);
        for (const [i, r] of own) all[i] = { ...r, entry: unwireEntry(r.entry, t.root) };
        own.clear();
        content = assembleContent(config, t.spans, all, { drafts: t.drafts }).content;
        // The route table now, while the main thread computes its own and bundles the client.
        table = routeTable(content, config, t.root);
        return null;
      }
      case 'setup': {
        const setup: RenderSetup = 'content' in t.setup ? t.setup : { ...t.setup, content: content! };
        // (a copy of the main thread's content: read-only there, so here too)
        if ('content' in t.setup && t.setup.content) freezeContent(t.setup.content);
        if (!setup.content) throw new Error('render worker: setup without content');
        if (!table || 'content' in t.setup) table = routeTable(setup.content, config, setup.root);
        if (table.routes.length !== t.routes || table.aliases.length !== t.aliases) {
          throw new Error(`routes() gave ${table.routes.length} routes in a render worker but ${t.routes} in the main thread: it must be a pure function of the content`);
        }
        // The folder is shared with the main thread and the other workers.
        writer = targetWriter(t.target, 0, true);
        renderer = batchRenderer(site, table, setup, writer, undefined, !!t.track);
        return null;
      }
      case 'pages': return renderer!.pages(t.start, t.end);
      case 'some': return renderer!.some(t.indices);
      case 'aliases': return renderer!.aliases(t.indices);
      case 'flush': await writer?.flush(); return null;
    }
  };
  port.on('message', (t: WorkerTask) => {
    handle(t).then(
      (value) => {
        try { port.postMessage({ id: t.id, value }); } catch (e: any) { port.postMessage({ id: t.id, error: `cannot send the result to the main thread: ${e?.message ?? e}`, clone: true }); }
      },
      (e: any) => port.postMessage({ id: t.id, error: String(e?.stack ?? e?.message ?? e) }),
    );
  });
  port.postMessage({ ready: true });
}
