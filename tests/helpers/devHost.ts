// What the dev server serves, asked through the host it serves with (src/server/host/ over the in-memory output,
// dev/server.ts createDevHandler) on a real socket: tests of the dev engine read pages, redirects and
// headers exactly as a browser gets them, not through a lookup of their own.
import type { Server } from 'node:http';
import type { DevSite } from '../../src/dev/devSite.ts';
import { createDevHandler } from '../../src/dev/server.ts';
import { devImage } from '../../src/dev/index.ts';
import { createEventHub } from '../../src/dev/events.ts';
import { createServer, listen } from '../../src/server/serve.ts';
import { request, type PlainResponse } from './http.ts';

export interface DevHostClient {
  url: string;
  /** The raw response for a path (never follows a redirect). */
  get(path: string, opts?: { method?: string }): Promise<PlainResponse>;
  /** The body of a 200 response, else null (a 404, a redirect). */
  text(path: string): Promise<string | null>;
  close(): Promise<void>;
}

/** Serves a dev site's output on 127.0.0.1 (a free port) through the dev server's own handler; with `root`,
 *  its image variants too, as `sitegen dev` serves them. */
export async function hostOf(site: Pick<DevSite, 'output' | 'config'>, root?: string): Promise<DevHostClient> {
  const events = createEventHub();
  const handler = createDevHandler({ output: site.output, events, clientJs: '', overlayCss: '', base: () => site.config()?.site?.base, ...(root ? { image: (p: string) => devImage(root, p) } : {}) });
  const server: Server = createServer(handler);
  const url = await listen(server, 0, '127.0.0.1');
  const get = (path: string, opts: { method?: string } = {}) => request(url, path, opts);
  return {
    url, get,
    async text(path) {
      const r = await get(path);
      return r.status === 200 ? r.body : null;
    },
    async close() {
      events.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
