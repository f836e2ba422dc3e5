// A static host in a few lines, for `sitegen preview` and `sitegen dev`: sirv for files, the rules of the
// output's _headers and _redirects, 404.html with status 404, and optional handlers in front (the waitlist API).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import sirv from 'sirv';
import { parseHeadersFile, parseRedirectsFile } from './hostfiles.ts';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean> | boolean;

export interface StaticServerOptions {
  dir: string;
  handlers?: Handler[];
}

export function hostRules(dir: string) {
  const read = (f: string) => { try { return fs.readFileSync(path.join(dir, f), 'utf8'); } catch { return ''; } };
  return { headers: parseHeadersFile(read('_headers')), redirects: parseRedirectsFile(read('_redirects')) };
}

export function createStaticHandler(opts: StaticServerOptions): http.RequestListener {
  const rules = hostRules(opts.dir);
  const files = sirv(opts.dir, { dev: false, etag: true, extensions: ['html'], dotfiles: false });
  return async (req, res) => {
    try {
      for (const h of opts.handlers ?? []) if (await h(req, res)) return;
      const url = new URL(req.url ?? '/', 'http://localhost');
      let pathname: string;
      try { pathname = decodeURIComponent(url.pathname); } catch { pathname = url.pathname; }
      for (const rule of rules.headers) if (rule.pattern.test(pathname)) for (const [k, v] of rule.headers) res.setHeader(k, v);
      const target = rules.redirects.get(pathname);
      if (target) { res.writeHead(301, { Location: target + url.search }); res.end(); return; }
      if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405, { Allow: 'GET, HEAD' }); res.end(); return; }
      // sirv trusts Range: `bytes=5-2` gets a 206 with Content-Length -2 and then throws mid-response, and a
      // suffix range (`bytes=-5`) gets the first bytes. Honour one plain `start-end` range; ignore any other.
      if (req.headers.range !== undefined && !isPlainRange(req.headers.range)) delete req.headers.range;
      // A page URL without its slash redirects to the one canonical form, as static hosts do (sirv would
      // serve the folder's index.html under both URLs).
      if (!pathname.endsWith('/') && !pathname.split('/').includes('..') && !pathname.includes('\0') && isDirectoryPage(opts.dir, pathname)) {
        res.writeHead(301, { Location: encodeURI(pathname) + '/' + url.search }); res.end(); return;
      }
      files(req, res, () => {
        let body: Buffer;
        try { body = fs.readFileSync(path.join(opts.dir, '404.html')); } catch { body = Buffer.from('Not Found'); }
        res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-cache' });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    } catch (e) {
      console.error(e);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
}

function isPlainRange(header: string): boolean {
  const m = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(header.trim());
  return m !== null && (m[2] === '' || Number(m[1]) <= Number(m[2]));
}

function isDirectoryPage(dir: string, pathname: string): boolean {
  const target = path.join(dir, pathname);
  if (!target.startsWith(path.resolve(dir) + path.sep)) return false;
  try { return fs.statSync(path.join(target, 'index.html')).isFile(); } catch { return false; }
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
