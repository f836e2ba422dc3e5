// `sitegen dev` as a library function: the dev server (src/dev/: the site built in memory, watched, rebuilt
// by what each change feeds, live reload, the error overlay) on an HTTP server, with the site's server
// plugins in front. The plugins follow the session: they start with the first good compile of the config
// (at once, or when a config that failed to compile is fixed), and a rebuild that compiled the config anew
// (the config, or a plugin's code it imports) closes them and starts the new ones. `dev({ root })` →
// `{ url, close() }`; the CLI (cli/dev.ts) only parses flags and prints.
import path from 'node:path';
import type { Message } from '../core/types.ts';
import { startServerPlugins, type RequestHandler } from '../site/plugins.ts';
import { createServer } from './serve.ts';
import { startDevServer, type DevServer, type RebuildReport } from '../dev/index.ts';
import { normaliseBase } from '../render/urls.ts';
import { DEV_PORT, ServerStartError, closeServer, listenOrStop } from './preview.ts';

export interface DevOptions {
  /** The site folder (with sitegen.config.ts). */
  root: string;
  /** Default 5173, or the next free port of the ten after it when it is taken; 0 picks a free port. A port
   *  given is used or refused. */
  port?: number;
  /** The interface to listen on (default 127.0.0.1); a Host header may name it besides loopback names. */
  host?: string;
  /** Start the site's server plugins (default true). */
  backend?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Told the first build's report (and the config's notices) as soon as it is made, before anything listens. */
  onStart?: (report: RebuildReport, notices: string[]) => void;
  /** Told every later rebuild's report; `plugins` is set when the server plugins were started anew. */
  onReport?: (report: RebuildReport & { plugins?: PluginRestart }) => void;
  /** Failures of the watcher and bugs in a rebuild; the server keeps running. */
  onError?: (error: unknown) => void;
}

/** The server plugins started anew after a config change: their banner, or why they did not start. */
export interface PluginRestart { banner: string[]; errors: Message[]; /** How many of the config's plugins have a `server` hook (none: nothing was restarted). */ count: number; /** How many ran before (stopped for the new config). */ stopped: number }

export interface DevHandle {
  /** The server's origin, e.g. "http://127.0.0.1:5173" (no trailing slash). */
  url: string;
  /** The site's own address: the origin and the site's base, as the config says now. */
  siteUrl(): string;
  /** The first build's report. */
  initial: RebuildReport;
  /** Lines the server plugins print under the URL (local keys, …). */
  banner: string[];
  /** The dev server: its site (output, config), events, handler. */
  server: DevServer;
  /** Resolves once no change is waiting or being rebuilt (server plugins restarted included). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

type Plugins = NonNullable<import('../core/types.ts').SiteConfig['plugins']>;

/** The site's running server plugins, replaced as a whole when the config changes. */
function pluginServers(ctx: { root: string; env: NodeJS.ProcessEnv; host: string; origin: Promise<string> }) {
  let running: Awaited<ReturnType<typeof startServerPlugins>> | null = null;
  let handlers: RequestHandler[] = [];
  let runningCount = 0;
  return {
    /** Forwards to the current plugins' handlers. */
    handler: (async (req, res) => {
      for (const h of handlers) if (await h(req, res)) return true;
      return false;
    }) as RequestHandler,
    get started() { return running !== null; },
    /** Closes the running plugins, then starts these; the errors when one refused (none then run). */
    async replace(plugins: Plugins): Promise<PluginRestart> {
      const stopped = runningCount;
      await this.close();
      const next = await startServerPlugins(plugins, { root: ctx.root, mode: 'dev', env: ctx.env, host: ctx.host, origin: ctx.origin });
      const count = plugins.filter((p) => p.server).length;
      if (next.errors.length) return { banner: [], errors: next.errors, count, stopped };
      running = next;
      handlers = next.handlers;
      runningCount = count;
      return { banner: next.banner, errors: [], count, stopped };
    },
    async close() {
      const r = running;
      running = null;
      handlers = [];
      runningCount = 0;
      await r?.close();
    },
  };
}

export async function dev(opts: DevOptions): Promise<DevHandle> {
  const root = path.resolve(opts.root);
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? DEV_PORT;
  const env = opts.env ?? process.env;
  let listening!: (url: string) => void;
  const origin = new Promise<string>((resolve) => { listening = resolve; });
  const plugins = pluginServers({ root, env, host, origin });
  const backend = opts.backend !== false;
  const serverPlugins = (s: DevServer) => s.site.config()?.plugins ?? [];
  let server!: DevServer;
  // A rebuild that comes in while the first start is under way waits for it (no second start beside it).
  let firstDone!: () => void;
  const first = new Promise<void>((resolve) => { firstDone = resolve; });
  const onReport = async (r: RebuildReport) => {
    await first;
    let restart: PluginRestart | undefined;
    const wanted = backend && (r.configChanged || !plugins.started) && server?.site.config();
    if (wanted) {
      try { restart = await plugins.replace(serverPlugins(server)); } catch (e) { opts.onError?.(e); }
    }
    opts.onReport?.(restart ? { ...r, plugins: restart } : r);
  };
  let banner: string[] = [];
  let http: ReturnType<typeof createServer> | null = null;
  let url = '';
  // The server listens as soon as the site can answer (its routes known; pages render as they are asked
  // for while the rest of the first build goes on), with the server plugins of the first build's config in
  // front; a config that did not compile starts them when fixed.
  const serve = async (handler: import('node:http').RequestListener, site: DevServer['site']) => {
    try {
      if (backend && site.config()) {
        const started = await plugins.replace(site.config()?.plugins ?? []);
        if (started.errors.length) throw new ServerStartError('a server plugin did not start', started.errors);
        banner = started.banner;
      }
    } finally {
      firstDone();
    }
    http = createServer(handler);
    url = await listenOrStop(http, port, host, () => plugins.close(), opts.port === undefined);
    listening(url);
  };
  try {
    server = await startDevServer({ root, env, handlers: [plugins.handler], listenHost: host, onReport, onError: opts.onError, serve });
  } catch (e) {
    // Listening already (the watcher did not start): nothing of this server may stay behind.
    const open = http as ReturnType<typeof createServer> | null;
    if (open?.listening) await closeServer(open);
    await plugins.close().catch(() => {});
    throw e;
  }
  opts.onStart?.(server.initial, server.site.notices());
  let closing: Promise<void> | null = null;
  return {
    url, banner, server,
    initial: server.initial,
    siteUrl: () => `${url}${normaliseBase(server.site.config()?.site?.base)}`,
    idle: () => server.idle(),
    close: () => (closing ??= (async () => {
      await server.close();
      if (http) await closeServer(http);
      await plugins.close();
    })()),
  };
}
