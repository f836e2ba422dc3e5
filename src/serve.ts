// `sitegen preview`'s server: the shared static host (src/host/) over the output folder on disk, read as
// it is at each request, with optional handlers in front (the local backend, plugins); and `listen`,
// shared with `sitegen dev`.
import type http from 'node:http';
import { createHost, diskSource, type Handler } from './host/index.ts';

export type { Handler } from './host/index.ts';

export interface StaticServerOptions {
  dir: string;
  handlers?: Handler[];
  /** The site's base path (site.base): the site is served under it. */
  base?: string;
}

export function createStaticHandler(opts: StaticServerOptions): http.RequestListener {
  return createHost({ source: diskSource(opts.dir), handlers: opts.handlers, base: opts.base });
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
