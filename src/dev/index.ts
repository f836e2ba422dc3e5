// `sitegen dev` as a library: builds the site in memory, watches its inputs, rebuilds what a change feeds,
// and returns the HTTP handler that serves it with live reload and the error overlay. The CLI (cli/dev.ts)
// adds the port, the server plugins and the printing; tests and the benchmark can use this directly.
import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import * as esbuild from 'esbuild';
import type { Handler } from '../server/serve.ts';
import { ENGINE_DIR, saveCodeCaches } from '../site/index.ts';
import { createDevSite, type DevSite, type RebuildReport } from './devSite.ts';
import { createEventHub, type EventHub } from './events.ts';
import { createDevHandler } from './server.ts';
import { hotTracker } from './hmr.ts';
import { currentImageStore } from '../images/store.ts';
import { parseVariantPath } from '../images/model.ts';
import { formatMessage } from '../core/errors.ts';

/** An image variant for the dev server: made (or taken from the cache) on first request; null (not found)
 *  for none, or for one of an image deleted since (the page that showed it says so, in the overlay). */
export async function devImage(root: string, p: string): Promise<{ bytes: Uint8Array } | { error: string } | null> {
  const store = currentImageStore(path.resolve(root));
  if (!store?.isVariant(p)) return null;
  const r = await store.variant(p);
  if ('path' in r) return { bytes: await store.bytes(r) };
  const source = store.source(parseVariantPath(p)!.hash);
  const gone = !!source && !(await fs.access(path.resolve(root, source.file)).then(() => true, () => false));
  return gone ? null : { error: formatMessage(r) };
}
import { watchSite, type SiteWatcher } from './watch.ts';

export type { RebuildReport } from './devSite.ts';

/** Quiet time after a rebuild before the content parse worker starts again for a new site module. */
const WORKER_QUIET_MS = 1000;

export interface DevServerOptions {
  root: string;
  env?: NodeJS.ProcessEnv;
  siteUrl?: string;
  /** Handlers in front of the site (from server plugins, e.g. a local API). */
  handlers?: Handler[];
  /** The host the server listens on (--host): a Host header may name it besides loopback names. */
  listenHost?: string;
  debounceMs?: number;
  /** How long a changed content file may take to parse (on a worker thread) before it becomes an error. */
  parseTimeoutMs?: number;
  /** Called after every rebuild a change caused (not for the first build, which start returns); the next
   *  batch of changes waits for what it returns (idle() too). */
  onReport?: (report: RebuildReport) => unknown;
  /** Called with failures of the watcher or bugs in a rebuild; the server keeps running. */
  onError?: (error: unknown) => void;
  /**
   * Called once with the handler as soon as it can answer (content loaded, routes known; pages render as
   * they are asked for while the rest renders), or after the first build when it never could: where a
   * server starts listening. startDevServer resolves after the first build; a throw here stops it.
   */
  serve?: (handler: http.RequestListener, site: DevSite) => Promise<void>;
}

export interface DevServer {
  handler: http.RequestListener;
  /** The first build's report. */
  initial: RebuildReport;
  site: DevSite;
  events: EventHub;
  /** Resolves once no change is waiting or being rebuilt, and the content parse worker is ready. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** The browser-side client, compiled once at startup (typed source in the repo, plain JS on the wire). */
async function devClientAssets(): Promise<{ clientJs: string; overlayCss: string }> {
  const dir = path.join(ENGINE_DIR, 'dev');
  const source = await fs.readFile(path.join(dir, 'client.ts'), 'utf8');
  // Bundled: the client imports its page morph (hmrMorph.ts).
  const js = await esbuild.build({ stdin: { contents: source, loader: 'ts', resolveDir: dir, sourcefile: 'sitegen-dev-client.ts' }, bundle: true, write: false, format: 'iife', target: 'es2020', logLevel: 'silent' });
  return { clientJs: js.outputFiles[0].text, overlayCss: await fs.readFile(path.join(dir, 'overlay.css'), 'utf8') };
}

export async function startDevServer(given: DevServerOptions): Promise<DevServer> {
  // A root reached through a link (~/site → /data/site) is served from where it is: the watcher follows no
  // link (one into a system folder would watch all of it), so it would watch the link and see no save.
  const opts = { ...given, root: realFolder(given.root) };
  // The client is compiled meanwhile (esbuild, in its own process): it is needed once the server answers.
  const assets = devClientAssets();
  assets.catch(() => {});
  const site = await createDevSite({ root: opts.root, env: opts.env, siteUrl: opts.siteUrl, parseTimeoutMs: opts.parseTimeoutMs });
  const events = createEventHub();
  const hot = hotTracker(() => site.config());
  /** The client files of a bundle made ahead of its rebuild, served until the rebuild commits or fails. */
  let hotAssets: Map<string, Uint8Array> | undefined;
  const publish = (report: RebuildReport) => {
    events.setErrors(report.errors);
    events.reload({ paths: report.committed ? report.changed : [], assets: report.assets, hot: report.committed ? hot(site.output.manifest) : undefined, ...(report.early ? { except: report.early } : {}) });
    events.rebuilt({ what: report.what, ok: report.errors.length === 0, rendered: report.rendered, ms: report.ms });
  };
  let handler!: http.RequestListener;
  // Served as soon as the routes are known; the pages render on request and in the background meanwhile.
  let serving: Promise<void> | undefined;
  const serve = () => {
    serving ??= assets.then((a) => {
      handler = createDevHandler({ output: site.output, events, handlers: opts.handlers, hotAssets: () => hotAssets, base: () => site.config()?.site?.base, listenHost: opts.listenHost, image: (p) => devImage(opts.root, p), ...a });
      return opts.serve?.(handler, site);
    });
    serving.catch(() => {});
  };
  const initial = await site.start({ servable: serve });
  serve();
  try {
    await serving;
  } catch (e) {
    await site.close();
    throw e;
  }
  publish(initial);
  // The packages' code cache, as a build writes its own: the next start compiles less of them (dev loads
  // React's development build, a vendor bundle of its own that no build caches).
  if (initial.committed) saveCodeCaches();
  // The worker that parses changed content files starts now, after the build, not during it.
  void site.ready();
  // After an edit that compiled a new site module, the worker (which imports it) starts again only once
  // edits pause: starting takes a core for about a second, and started at once it slowed the next edit
  // (a content file changed before then is parsed on this thread, as while a worker starts).
  let workerTimer: NodeJS.Timeout | undefined;
  const workerLater = () => {
    clearTimeout(workerTimer);
    workerTimer = setTimeout(() => void site.ready(), WORKER_QUIET_MS);
    workerTimer.unref();
  };
  let watcher: SiteWatcher;
  try {
    watcher = await watchSite({
      root: opts.root,
      debounceMs: opts.debounceMs,
      onError: opts.onError,
      async onBatch(changes) {
        clearTimeout(workerTimer);
        // A stylesheet or island edit reaches open pages as soon as the client is bundled, before the
        // site module compiles and pages render; the rebuild's own event then has nothing more to apply.
        const early = await site.bundleFirst(changes);
        if (early) {
          hotAssets = early.files;
          events.reload({ paths: [], assets: [], hot: hot(early) });
        }
        let report: RebuildReport | null;
        try {
          // The pages open in a browser render first and are told at once, with their new HTML; the rest follow.
          report = await site.apply(changes, { first: () => events.openRoutes(), early: (paths, html) => events.reload({ paths, assets: [], html }) });
        } finally { hotAssets = undefined; }
        if (!report) return;
        watcher.watchFiles(site.inputs()); // a config edit may import new files
        await opts.onReport?.(report); // first: server plugins a config edit changed are in place before pages reload
        publish(report);
        workerLater(); // a new site module needs a new parse worker
      },
    });
  } catch (e) {
    await site.close();
    throw e;
  }
  watcher.watchFiles(site.inputs());
  return {
    handler, initial, site, events,
    async idle() { await watcher.idle(); await site.ready(); },
    async close() {
      clearTimeout(workerTimer);
      events.close();
      await watcher.close();
      await site.close();
    },
  };
}

/** The folder `root` names, links resolved (as given when it cannot be resolved: the start reports why). */
function realFolder(root: string): string {
  try { return fsSync.realpathSync(path.resolve(root)); } catch { return root; }
}
