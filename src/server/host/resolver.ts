// The one static host behind `sitegen preview` and `sitegen dev`: extra request handlers first (plugins,
// the local backend, dev endpoints), then the site's output from a file source, resolved as static hosts
// resolve it — the rules of _headers, the 301s of _redirects, GET/HEAD only, `/about` → 301 `/about/`
// for a folder page, `/about/` → 301 `/about` for a file page (about.html: trailingSlash 'never'),
// `/x` → x, x.html or x/index.html, and 404.html with status 404 for anything else. A site built with a
// base ("/repo/") is served under it, as GitHub Pages serves a project site: files are looked up without it,
// `/` and `/repo` redirect to `/repo/`, and anything else outside it is a 404. Before any of it, a request
// whose Host names another site (DNS rebinding: src/server/host/knownHost.ts) gets 421, whatever its path.
import type http from 'node:http';
import type { RequestHandler } from '../../site/plugins.ts';
import { encodePath, parseRequestPath, safeRedirectTarget, type RequestPath } from './requestPath.ts';
import { hostRules } from './rules.ts';
import { isKnownHost } from './knownHost.ts';
import { sendFile } from './send.ts';
import type { FileSource, OpenFile } from './source.ts';

export type Handler = RequestHandler;

export interface HostOptions {
  source: FileSource;
  /** Run in order before the static files; the first that returns true has answered the request. */
  handlers?: Handler[];
  /** Called with unexpected failures (a 500 was sent); defaults to console.error. */
  onError?: (error: unknown) => void;
  /** The site's base path ("/repo/"); a function when it may change (dev recompiles the config). Default "/". */
  base?: string | (() => string | undefined);
  /** The host the server listens on (--host): a Host header may name it besides loopback names. */
  listenHost?: string;
}

/** The base's segments; the request path without them, or null when the request is outside the base. */
function insideBase(p: RequestPath, base: string[]): RequestPath | null {
  if (!base.length) return p;
  if (p.segments.length < base.length || base.some((s, i) => p.segments[i] !== s)) return null;
  const segments = p.segments.slice(base.length);
  const trailingSlash = segments.length > 0 && p.trailingSlash;
  return { ...p, segments, trailingSlash, path: segments.length ? `/${segments.join('/')}${trailingSlash ? '/' : ''}` : '/' };
}

/** The candidates for a clean path, in the order sirv (with extensions ['html']) tries them. */
function candidates(p: RequestPath): string[] {
  const uri = p.segments.join('/');
  return uri ? [uri, `${uri}/index`, `${uri}.html`, `${uri}/index.html`] : ['index', 'index.html'];
}

/** Dotfiles stay private, as on static hosts (except /.well-known/). */
const hidden = (p: RequestPath) => p.segments.some((s, i) => s.startsWith('.') && !(i === 0 && s === '.well-known'));

function plain(res: http.ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Length': 0, ...headers });
  res.end();
}

export function createHost(opts: HostOptions): http.RequestListener {
  const { source } = opts;
  const rules = hostRules(source);
  const baseSegments = (): string[] => {
    const b = typeof opts.base === 'function' ? opts.base() : opts.base;
    return (b ?? '/').split('/').filter(Boolean);
  };
  const onError = opts.onError ?? ((e: unknown) => console.error(e));

  async function find(p: RequestPath): Promise<{ rel: string; file: OpenFile } | null> {
    if (hidden(p)) return null;
    for (const rel of candidates(p)) {
      const file = await source.open(rel);
      if (file) return { rel, file };
    }
    return null;
  }

  /** The 404 page nearest the path asked for (`fr/404.html` for /fr/nope/, a language's own), else the site's. */
  async function notFound(req: http.IncomingMessage, res: http.ServerResponse, p?: RequestPath | null): Promise<void> {
    const segments = p && !hidden(p) ? p.segments : [];
    for (let k = segments.length; k >= 0; k--) {
      const rel = k ? `${segments.slice(0, k).join('/')}/404.html` : '404.html';
      const page = await source.open(rel);
      if (page) { sendFile(req, res, rel, page, 404); return; }
    }
    const body = 'Not Found';
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const full = parseRequestPath(req.url);
    if (!full) { plain(res, 400); return; }
    // The host files' rules are written with the base (hostfiles.ts): matched against the full path.
    const current = await rules();
    for (const [k, v] of current.headersFor(full.path)) res.setHeader(k, v);
    const target = current.redirectFor(full.path);
    if (target) { plain(res, target.status, { Location: safeRedirectTarget(target.to) + full.search }); return; }
    if (req.method !== 'GET' && req.method !== 'HEAD') { plain(res, 405, { Allow: 'GET, HEAD' }); return; }
    const base = baseSegments();
    const p = insideBase(full, base);
    const at = (segments: string[], slash: boolean) => encodePath([...base, ...segments], slash) + full.search;
    if (!p || (base.length && !p.segments.length && !full.trailingSlash)) {
      // The site's root answers at the base, with its slash: `/` (dev and preview start there) and `/repo`.
      if (full.segments.length === 0 || (p && !p.segments.length)) { plain(res, 302, { Location: at([], true) }); return; }
      await notFound(req, res);
      return;
    }
    // A folder page has one URL, with its slash (relative links in it resolve against the folder).
    if (!p.trailingSlash && p.segments.length && !hidden(p) && await source.stat(`${p.segments.join('/')}/index.html`)) {
      plain(res, 301, { Location: at(p.segments, true) });
      return;
    }
    // A file page (trailingSlash 'never': about.html) has one URL, without the slash.
    if (p.trailingSlash && !hidden(p) && !await source.stat(`${p.segments.join('/')}/index.html`) && await source.stat(`${p.segments.join('/')}.html`)) {
      plain(res, 301, { Location: at(p.segments, false) });
      return;
    }
    const found = await find(p);
    if (found) sendFile(req, res, found.rel, found.file);
    else await notFound(req, res, p);
  }

  return async (req, res) => {
    if (!isKnownHost(req.headers.host, opts.listenHost)) {
      const body = 'Misdirected Request: this server answers only for localhost, 127.0.0.1 and [::1]'
        + (opts.listenHost ? ` (and ${opts.listenHost})` : '') + '. Open the address sitegen printed.\n';
      res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    try {
      for (const h of opts.handlers ?? []) if (await h(req, res)) return;
      await serveStatic(req, res);
    } catch (e) {
      onError(e);
      if (!res.headersSent) res.writeHead(500, { 'Content-Length': 0 });
      res.end();
    }
  };
}
