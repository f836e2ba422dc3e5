// `sitegen preview`'s server: the shared static host (src/server/host/) over the output folder on disk, read as
// it is at each request, with optional handlers in front (the local backend, plugins); and `listen`,
// shared with `sitegen dev`; `createServer`, the HTTP server both use, with timeouts.
import http from 'node:http';
import { createHost, diskSource, type Handler } from './host/index.ts';

export type { Handler } from './host/index.ts';

export interface StaticServerOptions {
  dir: string;
  handlers?: Handler[];
  /** The site's base path (site.base): the site is served under it. */
  base?: string;
  /** The host the server listens on (--host): a Host header may name it besides loopback names. */
  listenHost?: string;
}

export function createStaticHandler(opts: StaticServerOptions): http.RequestListener {
  return createHost({ source: diskSource(opts.dir), handlers: opts.handlers, base: opts.base, listenHost: opts.listenHost });
}

/** How long a connection may take; all in milliseconds. */
export interface ServerTimeouts {
  /** To send the whole request head (a client that never finishes its headers is dropped). */
  headers: number;
  /** To send the whole request, body included. */
  request: number;
  /** A kept-alive connection waiting for its next request. */
  keepAlive: number;
  /** Any socket with no traffic either way (the dev event stream pings well within it). */
  idle: number;
  /** How often the headers and request timeouts are checked. */
  checkInterval: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = { headers: 10_000, request: 30_000, keepAlive: 5_000, idle: 60_000, checkInterval: 1_000 };

/**
 * The HTTP server of `sitegen dev` and `sitegen preview`: a socket that sends half a request, or nothing,
 * is closed after the timeouts instead of being held open (Node's own defaults wait minutes).
 */
export function createServer(handler: http.RequestListener, timeouts: Partial<ServerTimeouts> = {}): http.Server {
  const t = { ...SERVER_TIMEOUTS, ...timeouts };
  const server = http.createServer({ connectionsCheckingInterval: t.checkInterval, headersTimeout: t.headers, requestTimeout: t.request, keepAliveTimeout: t.keepAlive }, handler);
  server.setTimeout(t.idle);
  return server;
}

export function listen(server: http.Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const a = server.address();
      const p = typeof a === 'object' && a ? a.port : port;
      resolve(`http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${p}`);
    });
  });
}
