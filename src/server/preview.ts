// `sitegen preview` as a library function: serves a built output folder as a static host would (the shared
// host, src/server/host/, over the folder on disk, under the site's base), with the site's server plugins in front
// (the local backend). `preview({ root })` → `{ url, close() }`; the CLI only parses flags and prints.
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import type { Message, SiteConfig } from '../core/types.ts';
import { applyConfigHooks, startServerPlugins } from '../site/plugins.ts';
import { createServer, createStaticHandler, listen } from './serve.ts';
import { normaliseBase } from '../render/urls.ts';

export interface PreviewOptions {
  /** The site folder (with sitegen.config.ts). */
  root: string;
  /** The folder to serve, relative to the root (default "dist"). */
  outDir?: string;
  /** Default 4173, or the next free port of the ten after it when it is taken; 0 picks a free port. A port
   *  given is used or refused. */
  port?: number;
  /** The interface to listen on (default 127.0.0.1); a Host header may name it besides loopback names. */
  host?: string;
  /** Start the site's server plugins (default true). */
  backend?: boolean;
  /** The environment the plugins see (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface PreviewServer {
  /** The server's origin, e.g. "http://127.0.0.1:4173" (no trailing slash). */
  url: string;
  /** The site's own address: the origin and the site's base ("http://127.0.0.1:4173/repo/"). */
  siteUrl: string;
  /** The folder served (absolute). */
  dir: string;
  /** Lines the server plugins print under the URL (local keys, …). */
  banner: string[];
  /** What the plugins' config hooks said (a preview serves a finished build: nothing here stops it). */
  warnings: Message[];
  /** Stops the server and the plugins (databases, locks). */
  close(): Promise<void>;
}

/** Why a server did not start: located problems (a config that does not load, a plugin that refused), or a
 *  plain reason (no built site, a port in use) in the error's message. Nothing is left running. */
export class ServerStartError extends Error {
  constructor(text: string, readonly messages: Message[] = []) { super(text); }
}

/** The site's config for serving (plugins, base): from the build cache when current. */
async function siteConfig(root: string): Promise<SiteConfig> {
  if (!fs.existsSync(path.join(root, 'sitegen.config.ts'))) return { plugins: [] } as unknown as SiteConfig;
  const { loadSiteModule } = await import('../site/index.ts');
  const mod = await loadSiteModule(root);
  if (!mod.site) throw new ServerStartError('the site config does not load', mod.errors);
  return mod.site.config;
}

/** The default ports of `dev` and `preview`, and how many ports after them a server tries when one is taken
 *  (as Vite does): 5173 … 5183. */
export const DEV_PORT = 5173, PREVIEW_PORT = 4173;
const PORT_TRIES = 10;

/** What the address line adds when a server took another port than its default (no port asked for). */
export const movedNote = (url: string, asked: number | undefined, defaultPort: number): string =>
  (asked === undefined && new URL(url).port !== String(defaultPort) ? ` (${defaultPort} is in use)` : '');

/**
 * Listens on `port`, or (`orNext`: the port was not asked for, it is the default) on the next free one of the
 * PORT_TRIES after it; when that fails, stops what was started for the server (its plugins) and says why.
 */
export async function listenOrStop(server: Server, port: number, host: string, stop: () => Promise<unknown>, orNext = false): Promise<string> {
  for (let p = port; ; p++) {
    try {
      return await listen(server, p, host);
    } catch (e: any) {
      if (e?.code === 'EADDRINUSE' && orNext && p > 0 && p < port + PORT_TRIES) continue;
      await stop().catch(() => {});
      const busy = e?.code === 'EADDRINUSE' ? (orNext ? `ports ${port} to ${p} are in use (pass --port)` : 'the port is in use (pass another --port, or none for the next free one)') : e?.message ?? e;
      throw new ServerStartError(`cannot listen on ${host}:${orNext ? port : p}: ${busy}`);
    }
  }
}

/** Closes an HTTP server and every connection it holds. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function preview(opts: PreviewOptions): Promise<PreviewServer> {
  const root = path.resolve(opts.root);
  const dir = path.resolve(root, opts.outDir ?? 'dist');
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? PREVIEW_PORT;
  const env = opts.env ?? process.env;
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    // A folder a build wrote (its host files are there) where no route wrote "/": said so, not that nothing was built.
    const built = fs.existsSync(path.join(dir, 'sitemap.xml')) || fs.existsSync(path.join(dir, '_headers'));
    throw new ServerStartError(built ? `${dir} has no index.html: no route of the site writes its home page; add a route with path "/" (preview opens the site at /)` : `${dir} has no built site: run \`sitegen build\` first`);
  }
  const warnings: Message[] = [];
  let config: SiteConfig;
  try {
    config = await siteConfig(root);
  } catch (e) {
    // Without the plugins, only the base is wanted of the config: the built files are served without it.
    if (opts.backend !== false || !(e instanceof ServerStartError)) throw e;
    warnings.push(...e.messages);
    config = { plugins: [] } as unknown as SiteConfig;
  }
  const plugins = opts.backend === false ? [] : config.plugins ?? [];
  const base = config.site?.base;
  if (plugins.length) {
    // The config hooks run for preview too (notices, warnings); the build already enforced their errors.
    const applied = await applyConfigHooks(config, { root, mode: 'preview', env });
    warnings.push(...applied.warnings, ...applied.errors);
  }
  let listening!: (url: string) => void;
  const origin = new Promise<string>((resolve) => { listening = resolve; });
  const backend = await startServerPlugins(plugins, { root, mode: 'preview', env, host, origin });
  if (backend.errors.length) throw new ServerStartError('a server plugin did not start', backend.errors);
  const server = createServer(createStaticHandler({ dir, handlers: backend.handlers, base, listenHost: host }));
  const url = await listenOrStop(server, port, host, () => backend.close(), opts.port === undefined);
  listening(url);
  let closing: Promise<void> | null = null;
  return {
    url, dir, banner: backend.banner, warnings,
    siteUrl: `${url}${normaliseBase(base)}`,
    close: () => (closing ??= (async () => {
      await closeServer(server);
      await backend.close();
    })()),
  };
}
