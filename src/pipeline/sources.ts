// The three inputs a session compiles or loads — the site module, the content, the client bundle — each in
// a one-shot form (build, check) and an incremental form (dev). The one-shot forms use the build caches and,
// for big sites, worker threads (started before the config compiles, so their start-up
// overlaps it); the incremental forms keep esbuild contexts and the content loader's incremental form
// (src/content/liveContent.ts). Both forms give the same values and the same messages.
import type { FileStamp } from '../content/parse.ts';
import type { Content, Message, SiteConfig } from '../core/types.ts';
import type { AssetManifest } from '../islands/bundle.ts';
import { bundleClient } from '../islands/bundle.ts';
import { createClientBundler } from '../islands/bundleDev.ts';
import { cachedSiteModule, createSiteCompiler, loadSiteModule, type SiteModule } from '../site/index.ts';
import { openContentCache, saveContentCache } from '../content/contentCache.ts';
import { listContentFiles, listedContentFiles } from '../content/glob.ts';
import { heapAfterLoading, heapForContent, withPatchHeap } from '../core/heap.ts';
import { createContentStore, type ChangeKind } from '../content/liveContent.ts';
import { contentParser } from '../dev/parseWorker.ts';
import { maybeStartPool, type Pool } from '../parallel/pool.ts';
import { loadContent } from '../content/load.ts';
import { schemaKey } from '../content/validCache.ts';
import { poolLoader } from '../parallel/stages.ts';
import { pruneBodies, type BodyRef } from '../content/diskBody.ts';
import { dropSpareWriter, prestartWriter } from '../output/writers.ts';
import { poolRenders } from './render.ts';

export interface ModuleSource {
  /** Compiles (or takes from the cache) and imports the site module; `inputs` are its source files.
   *  `filesMoved` (dev): a file was added or removed since the last compile. */
  compile(opts?: { filesMoved?: boolean }): Promise<{ site?: SiteModule; errors: Message[]; inputs?: string[]; hit?: boolean }>;
  dispose(): Promise<void>;
}

export interface ContentSource {
  /** Loads all content for a (new) config. `extraMs` is time spent before, on its behalf (the cache read). */
  load(site: SiteModule): Promise<{ content: Content; errors: Message[]; warnings?: Message[]; hit?: boolean; extraMs?: number }>;
  /** Applies changes below content/ (paths relative to content/); the incremental form only. */
  update?(changes: Map<string, ChangeKind>, images?: Map<string, ChangeKind>): Promise<{ content: Content; errors: Message[]; warnings?: Message[]; changed: string[] }>;
  /** Whether Markdown bodies are left to compile (the incremental form's lazy start). */
  pending?(): boolean;
  /** Compiles the bodies left, then checks across files; the content and problems after, when they changed. */
  settle?(pause?: () => Promise<void>): Promise<{ content: Content; errors: Message[]; warnings?: Message[] } | null>;
  /** Rises whenever collection `name`'s value changes (0 for the one-shot form, which never changes). */
  version(name: string): number;
  /** Resolves when what the source starts in the background (dev: its parse worker) is ready. */
  ready?(): Promise<void>;
  /** Waits for what the load left running (the cache write) and stops the workers. */
  close(): Promise<void>;
}

export interface ClientSource {
  bundle(config: SiteConfig, define: Record<string, string>): Promise<{ manifest?: AssetManifest; errors: Message[]; inputs?: string[]; hit?: boolean }>;
  dispose(): Promise<void>;
}

export interface Sources { module: ModuleSource; content: ContentSource; client: ClientSource; pool: Pool | null }

/**
 * For build and check. A big site's content is parsed on worker threads, which then render when there are
 * two or more (`pool`; see stages.ts poolRenders; closed by content.close()). Workers pay for parsing;
 * files the content cache answers need none, so they start for the files the cache cannot answer.
 */
export async function oneShotSources(root: string, opts: { drafts?: boolean; known?: { stamps: ReadonlyMap<string, FileStamp> | null; context: string }; writes?: boolean } = {}): Promise<Sources> {
  const cached = cachedSiteModule(root);
  // (listed from the build's walk of content/ when it made one, upToDate.ts: once, for the loader too; its size
  // sets the heap's growth before the content cache's decode, core/heap.ts withPatchHeap)
  const listed = opts.known?.stamps ? listedContentFiles(opts.known.stamps) : undefined;
  if (listed) heapForContent(listed.length);
  const t = performance.now();
  let cache = await withPatchHeap(() => openContentCache(root));
  const cacheMs = performance.now() - t;
  const files = listed ?? await listContentFiles(root);
  if (!listed) heapForContent(files.length);
  const uncached = files.filter((f) => !f.endsWith('.mdx')).length - (cache?.size ?? 0); // (MDX is listed, never parsed)
  const pool = maybeStartPool(uncached);
  // (the heap's growth waits for the workers to read their code caches: core/heap.ts)
  if (pool) heapAfterLoading(Promise.allSettled(Array.from({ length: pool.size }, (_, w) => pool.ready(w))));
  // The workers import the cached site module at once, or wait for the one esbuild is compiling.
  if (cached) pool?.load(cached.file);
  let saved: Promise<void> = Promise.resolve();
  // The bodies files the content cache on disk names once the load's write is done (those are kept): their
  // names only, not the cache's entries, which would hold every file's raw data through render (100,000
  // pages: tens of MB).
  let kept = cache && bodyFiles(cache.values());
  return {
    pool,
    module: {
      async compile() {
        const r = await loadSiteModule(root, cached);
        if (r.site && r.site.file !== cached?.file) pool?.load(r.site.file);
        return r;
      },
      async dispose() {},
    },
    content: {
      async load(site) {
        // A build that renders its pages on this thread writes them from a writer thread: started now, while
        // the content is parsed, it is ready for the first page (output/writers.ts prestartWriter).
        if (opts.writes && !(pool && poolRenders(pool))) prestartWriter(uncached);
        const known = opts.known && { stamps: opts.known.stamps, files: listed, schemaKey: schemaKey(site.file, opts.known.context) };
        const out = await loadContent(root, site.config, pool ? poolLoader(pool, site.config, root, opts) : undefined, cache, opts, known);
        // Written while the build goes on; awaited by close().
        if ((out.cache?.changed || out.cache?.marked) && !out.errors.length) {
          const next = out.cache.entries;
          saved = saveContentCache(root, next, cache).then(() => { kept = bodyFiles(next.values()); });
        }
        cache = undefined; // read by this load only
        return { content: out.content, errors: out.errors, warnings: out.warnings, hit: !!out.cache && out.cache.entries.size > 0 && !out.cache.changed, extraMs: cacheMs };
      },
      version: () => 0,
      async close() {
        await Promise.all([pool?.close(), saved, dropSpareWriter()]);
        // Bodies files the kept cache does not name (this build's, when it failed; older ones) go.
        if (kept) pruneBodies(root, kept);
      },
    },
    client: {
      bundle: (config, define) => bundleClient(root, config, { define }),
      async dispose() {},
    },
  };
}

/** One body place per bodies file the entries name: what pruneBodies needs to know to keep a file. */
function bodyFiles(entries: Iterable<{ body?: BodyRef }>): BodyRef[] {
  const byFile = new Map<string, BodyRef>();
  for (const e of entries) if (e.body && !byFile.has(e.body.file)) byFile.set(e.body.file, e.body);
  return [...byFile.values()];
}

/** For dev: kept esbuild contexts and the incremental content loader. */
export async function incrementalSources(root: string, opts: { parseTimeoutMs?: number } = {}): Promise<Sources> {
  const compiler = await createSiteCompiler(root);
  const bundler = createClientBundler(root);
  // Changed content files are parsed on a worker thread: a slow one never stops the server answering.
  const parser = contentParser(root, opts.parseTimeoutMs);
  // Lazy: the start compiles a Markdown body when a page reads it, or in the background after the server
  // listens (src/content/lazyBody.ts); routes need each entry's front matter only.
  const store = await createContentStore(root, await openContentCache(root), (collection, rel) => parser.parse(collection, rel), { lazy: true });
  return {
    pool: null,
    module: {
      async compile(how) {
        const r = await compiler.compile(how);
        if (r.site) parser.use(r.site.file);
        return r.site ? { site: r.site, errors: [], inputs: Object.keys(r.metafile!.inputs) } : { errors: r.errors };
      },
      dispose: () => compiler.dispose(),
    },
    content: {
      async load(site) {
        await store.configure(site.config);
        return { content: store.content, errors: store.errors(), warnings: store.warnings() };
      },
      async update(changes, images) {
        const changed = await store.update(changes, images);
        return { content: store.content, errors: store.errors(), warnings: store.warnings(), changed };
      },
      pending: () => store.pending(),
      async settle(pause) {
        return await store.settle(pause) ? { content: store.content, errors: store.errors(), warnings: store.warnings() } : null;
      },
      version: (name) => store.version(name),
      ready: () => parser.ready(),
      close: async () => { await Promise.all([store.close(), parser.close()]); },
    },
    client: {
      bundle: (config, define) => bundler.bundle(config, { define }),
      dispose: () => bundler.dispose(),
    },
  };
}
