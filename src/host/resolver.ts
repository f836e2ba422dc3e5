// The one static host behind `sitegen preview` and `sitegen dev`: extra request handlers first (plugins,
// the local backend, dev endpoints), then the site's output from a file source, resolved as static hosts
// resolve it — the rules of _headers, the 301s of _redirects, GET/HEAD only, `/about` → 301 `/about/`
// for a folder page, `/x` → x, x.html or x/index.html, and 404.html with status 404 for anything else.
import type http from 'node:http';
import type { RequestHandler } from '../plugins.ts';
import { encodePath, parseRequestPath, safeRedirectTarget, type RequestPath } from './requestPath.ts';
import { hostRules } from './rules.ts';
import { sendFile } from './send.ts';
import type { FileSource, OpenFile } from './source.ts';

export type Handler = RequestHandler;

export interface HostOptions {
  source: FileSource;
  /** Run in order before the static files; the first that returns true has answered the request. */
  handlers?: Handler[];
  /** Called with unexpected failures (a 500 was sent); defaults to console.error. */
  onError?: (error: unknown) => void;
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
  const onError = opts.onError ?? ((e: unknown) => console.error(e));

  async function find(p: RequestPath): Promise<{ rel: string; file: OpenFile } | null> {
    if (hidden(p)) return null;
    for (const rel of candidates(p)) {
      const file = await source.open(rel);
      if (file) return { rel, file };
    }
    return null;
  }

  async function notFound(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const page = await source.open('404.html');
    if (page) { sendFile(req, res, '404.html', page, 404); return; }
    const body = 'Not Found';
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const p = parseRequestPath(req.url);
    if (!p) { plain(res, 400); return; }
    const current = await rules();
    for (const [k, v] of current.headersFor(p.path)) res.setHeader(k, v);
    const target = current.redirectFor(p.path);
    if (target) { plain(res, 301, { Location: safeRedirectTarget(target) + p.search }); return; }
    if (req.method !== 'GET' && req.method !== 'HEAD') { plain(res, 405, { Allow: 'GET, HEAD' }); return; }
    // A folder page has one URL, with its slash (relative links in it resolve against the folder).
    if (!p.trailingSlash && p.segments.length && !hidden(p) && await source.stat(`${p.segments.join('/')}/index.html`)) {
      plain(res, 301, { Location: encodePath(p.segments, true) + p.search });
      return;
    }
    const found = await find(p);
    if (found) sendFile(req, res, found.rel, found.file);
    else await notFound(req, res);
  }

  return async (req, res) => {
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
