// The dev server's request handler: the dev endpoints under /__sitegen/ (client script, overlay stylesheet,
// event stream), then any handlers in front (the local waitlist API), then the in-memory output served as
// `sitegen preview` serves dist/: the rules of _headers (so the strict CSP is active in dev too) and
// _redirects, 404.html with status 404. HTML pages get the dev client script, and only in dev.
import type http from 'node:http';
import type { Handler } from '../serve.ts';
import type { DevOutput, Found } from './output.ts';
import type { EventHub } from './events.ts';
import { contentType } from './mime.ts';

export interface DevHandlerOptions {
  output: DevOutput;
  events: EventHub;
  handlers?: Handler[];
  /** The compiled dev client (src/dev/client.ts) and the overlay stylesheet. */
  clientJs: string;
  overlayCss: string;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Adds the dev client to a page: an external, deferred script, so script-src 'self' allows it. */
export function injectClient(html: string, route: string, version: number): string {
  const tag = `<script src="/__sitegen/client.js" data-route="${attr(route)}" data-version="${version}" defer></script>`;
  const i = html.indexOf('</head>');
  return i >= 0 ? html.slice(0, i) + tag + html.slice(i) : tag + html;
}

const PLACEHOLDER = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>sitegen dev</title></head>'
  + '<body><main><h1>The site has not built yet</h1><p>The problems are listed in the terminal and above; this page reloads when they are fixed.</p></main></body></html>';

export function createDevHandler(opts: DevHandlerOptions): http.RequestListener {
  const { output, events } = opts;
  const send = (req: http.IncomingMessage, res: http.ServerResponse, status: number, type: string, body: string | Uint8Array) => {
    const buf = typeof body === 'string' ? Buffer.from(body) : body;
    if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-cache');
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': buf.length });
    res.end(req.method === 'HEAD' ? undefined : buf);
  };
  const page = (req: http.IncomingMessage, res: http.ServerResponse, status: number, found: Found) => {
    const body = found.route !== undefined && typeof found.body === 'string' ? injectClient(found.body, found.route, events.version) : found.body;
    send(req, res, status, contentType(found.rel), body);
  };

  return async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let pathname: string;
      try { pathname = decodeURIComponent(url.pathname); } catch { pathname = url.pathname; }
      if (pathname === '/__sitegen/events') { events.handle(req, res); return; }
      if (pathname === '/__sitegen/client.js') { send(req, res, 200, 'text/javascript; charset=utf-8', opts.clientJs); return; }
      if (pathname === '/__sitegen/overlay.css') { send(req, res, 200, 'text/css; charset=utf-8', opts.overlayCss); return; }
      for (const h of opts.handlers ?? []) if (await h(req, res)) return;
      for (const [k, v] of output.headersFor(pathname)) res.setHeader(k, v);
      const target = output.redirectFor(pathname);
      if (target) { res.writeHead(301, { Location: target + url.search }); res.end(); return; }
      if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405, { Allow: 'GET, HEAD' }); res.end(); return; }
      if (!output.built) {
        // Nothing good to show yet: a page that carries the client, so it shows the overlay and reloads when fixed.
        send(req, res, 503, 'text/html; charset=utf-8', injectClient(PLACEHOLDER, '*', events.version));
        return;
      }
      const found = output.find(pathname);
      if (found) { page(req, res, 200, found); return; }
      const notFound = output.find('/404.html');
      if (notFound) page(req, res, 404, notFound);
      else send(req, res, 404, 'text/html; charset=utf-8', 'Not Found');
    } catch (e) {
      console.error(e);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
}
