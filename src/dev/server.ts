// The dev server's request handler: the shared static host (src/server/host/) over the in-memory output, so dev
// answers every URL as `sitegen preview` does (same redirects, _headers, 404 page, ranges, ETags), with
// the dev features layered on as handlers in front of it: the endpoints under /__sitegen/ (client
// script, overlay stylesheet, event stream), the site's stylesheets (uncached: their dev URLs carry no hash), a placeholder page until the first build, and the dev
// client script injected into every generated page.
import type http from 'node:http';
import { createHost, memorySource, type Handler } from '../server/host/index.ts';
import type { FileSource } from '../server/host/source.ts';
import type { DevOutput } from './output.ts';
import type { EventHub } from './events.ts';
import type { Message } from '../core/types.ts';
import { clientErrorHandler, clientErrorText } from './clientErrors.ts';
import { MERGED_HOST_FILES } from '../output/hostfiles.ts';
import { contentType } from '../server/host/mime.ts';
import { attr } from '../core/htmlAttr.ts';

export interface DevHandlerOptions {
  output: DevOutput;
  events: EventHub;
  handlers?: Handler[];
  /** The compiled dev client (src/dev/client.ts) and the overlay stylesheet. */
  clientJs: string;
  overlayCss: string;
  /** Prints an island error the dev client reported (POST /__sitegen/error); default: stderr. */
  onClientError?: (m: Message) => void;
  /** The site's base path (site.base), read per request: the config may change while dev runs. */
  base?: () => string | undefined;
  /** The host the server listens on (--host): a Host header may name it besides loopback names. */
  listenHost?: string;
  /** Client files bundled ahead of a rebuild (hot updates), looked up before the committed ones. */
  hotAssets?: () => Map<string, Uint8Array> | undefined;
  /** An image variant by its base-less path ("/assets/img/…"), made on first request (images/store.ts); null: no such variant. */
  image?: (p: string) => Promise<{ bytes: Uint8Array } | { error: string } | null>;
}

/** Adds the dev client to a page: an external, deferred script, so script-src 'self' allows it. */
export function injectClient(html: string, route: string, version: number): string {
  const tag = `<script src="/__sitegen/client.js" data-route="${attr(route)}" data-version="${version}" defer></script>`;
  // First in <head> (after the charset): deferred and module scripts run in document order, so the client's
  // error hooks are in place before the islands runtime runs. At the end of <head>, an island whose module
  // threw while client.js was still downloading (a busy machine) was never reported.
  const head = html.indexOf('<head>');
  if (head < 0) return tag + html;
  const charset = html.slice(head).match(/^<head>\s*<meta charset="[^"]*"\/?>/i);
  const at = head + (charset ? charset[0].length : '<head>'.length);
  return html.slice(0, at) + tag + html.slice(at);
}

const PLACEHOLDER = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>sitegen dev</title></head>'
  + '<body><main><h1>The site has not built yet</h1><p>The problems are listed in the terminal and above; this page reloads when they are fixed.</p></main></body></html>';

/**
 * The output as a file source: a path finds what `sitegen build` would have written there (pages first,
 * then assets — the previous bundle's too, for pages loaded before a rebuild — static files, host files).
 */
export function devFileSource(output: DevOutput, version: () => number, hotAssets?: () => Map<string, Uint8Array> | undefined): FileSource {
  const memory = memorySource((rel) => {
    const page = output.pages.get(rel);
    // Only HTML documents get the client; a route's own file (a feed, JSON) is served as written.
    if (page) return /\.html?$/i.test(rel) ? injectClient(page.html, page.route, version()) : page.html;
    // (static/_redirects and static/_headers are merged into the host files of those names: pipeline/plan.ts)
    return hotAssets?.()?.get(rel) ?? output.assets.get(rel) ?? output.previousAssets.get(rel) ?? (MERGED_HOST_FILES.has(rel) ? undefined : output.statics.get(rel)) ?? output.hostFiles.get(rel);
  }, 'memory');
  // While a pass renders, a page still to render is rendered first (pass.ts): asked for, it is never stale.
  const ready = (rel: string) => output.ensure?.(rel);
  return {
    name: memory.name,
    async stat(rel) { await ready(rel); return memory.stat(rel); },
    async open(rel) { await ready(rel); return memory.open(rel); },
    async readText(rel) { await ready(rel); return memory.readText(rel); },
  };
}

function send(req: http.IncomingMessage, res: http.ServerResponse, status: number, type: string, body: string): true {
  const buf = Buffer.from(body);
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': buf.length, 'Cache-Control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : buf);
  return true;
}

function printClientError(m: Message): void {
  process.stderr.write(clientErrorText(m));
}

export function createDevHandler(opts: DevHandlerOptions): http.RequestListener {
  const { output, events } = opts;
  const endpoints: Handler = (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === '/__sitegen/events') { events.handle(req, res); return true; }
    if (pathname === '/__sitegen/client.js') return send(req, res, 200, 'text/javascript; charset=utf-8', opts.clientJs);
    if (pathname === '/__sitegen/overlay.css') return send(req, res, 200, 'text/css; charset=utf-8', opts.overlayCss);
    // The site's stylesheets keep their URL in dev (src/islands/bundle.ts): served uncached, never as immutable.
    const css = output.manifest?.css.find((u) => pathname === u || pathname.endsWith(u));
    const bytes = css && (opts.hotAssets?.()?.get(css.slice(1)) ?? output.assets.get(css.slice(1)));
    if (bytes && (req.method === 'GET' || req.method === 'HEAD')) return send(req, res, 200, 'text/css; charset=utf-8', Buffer.from(bytes).toString('utf8'));
    return false;
  };
  // Nothing good to show yet: a page that carries the client, so it shows the overlay and reloads when fixed.
  const placeholder: Handler = (req, res) => !output.built && (req.method === 'GET' || req.method === 'HEAD')
    && send(req, res, 503, 'text/html; charset=utf-8', injectClient(PLACEHOLDER, '*', events.version));
  // Island errors from open pages, mapped through the dev bundle's source maps (src/dev/clientErrors.ts).
  // (a bundle made ahead of its rebuild too: an island it updated may throw before the rebuild commits)
  const islandErrors = clientErrorHandler((rel) => opts.hotAssets?.()?.get(rel) ?? output.assets.get(rel) ?? output.previousAssets.get(rel), opts.onClientError ?? printClientError, {}, opts.base);
  // Image variants are made when the browser first asks for one, and kept in the build cache.
  const images: Handler = async (req, res) => {
    if (!opts.image || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const base = opts.base?.() ?? '/';
    const prefix = `${base === '/' ? '/' : `/${base.replace(/^\/+|\/+$/g, '')}/`}assets/img/`;
    const pathname = (req.url ?? '/').split('?')[0];
    if (!pathname.startsWith(prefix)) return false;
    const made = await opts.image(`/assets/img/${pathname.slice(prefix.length)}`);
    if (!made) return false;
    if ('error' in made) return send(req, res, 500, 'text/plain; charset=utf-8', made.error);
    res.writeHead(200, { 'Content-Type': contentType(pathname), 'Content-Length': made.bytes.length, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : made.bytes);
    return true;
  };
  const host = createHost({
    source: devFileSource(output, () => events.version, opts.hotAssets),
    handlers: [endpoints, islandErrors, images, ...(opts.handlers ?? []), placeholder],
    base: opts.base,
    listenHost: opts.listenHost,
  });
  // Counted while answered, so a pass rendering the rest of the site in the background gives way (pass.ts).
  return (req, res) => {
    if ((req.url ?? '').startsWith('/__sitegen/events')) return host(req, res);
    output.inflight++;
    let open = true;
    const done = () => { if (open) { open = false; output.inflight--; } };
    res.once('finish', done);
    res.once('close', done);
    return host(req, res);
  };
}
