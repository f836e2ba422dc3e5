// Sends one opened file: Content-Type by extension, Content-Length, a validator (ETag, 304 on a match),
// one plain byte range (206/416), HEAD without a body. Headers already set on the response (the rules
// of _headers) win over the defaults. Ranges are parsed strictly: `bytes=5-2`, suffix ranges, lists and
// other units are ignored (a 200 with the whole file) rather than answered with a broken 206.
import type http from 'node:http';
import { pipeline } from 'node:stream';
import { contentType } from './mime.ts';
import type { OpenFile } from './source.ts';

function plainRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const m = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(header.trim());
  if (!m) return null;
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  return start >= size ? 'unsatisfiable' : { start, end };
}

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const weak = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || weak(t) === weak(etag));
}

export function sendFile(req: http.IncomingMessage, res: http.ServerResponse, rel: string, file: OpenFile, status = 200): void {
  const setDefault = (name: string, value: string | number) => { if (!res.hasHeader(name)) res.setHeader(name, value); };
  setDefault('Content-Type', contentType(rel));
  // Pages change with every build: caches revalidate (cheaply, by ETag) unless _headers says otherwise.
  setDefault('Cache-Control', 'no-cache');
  if (status === 200) {
    res.setHeader('ETag', file.etag);
    if (file.lastModified) res.setHeader('Last-Modified', file.lastModified.toUTCString());
    res.setHeader('Accept-Ranges', 'bytes');
    if (matches(req.headers['if-none-match'], file.etag)) {
      void file.close();
      res.writeHead(304);
      res.end();
      return;
    }
  }
  // If-Range with another (or a weak) validator: the client's partial copy is stale, send everything.
  const ifRange = req.headers['if-range'];
  const range = status === 200 && (ifRange === undefined || (ifRange === file.etag && !file.etag.startsWith('W/')))
    ? plainRange(req.headers.range, file.size) : null;
  if (range === 'unsatisfiable') {
    void file.close();
    res.writeHead(416, { 'Content-Range': `bytes */${file.size}`, 'Content-Length': 0 });
    res.end();
    return;
  }
  const { start, end } = range ?? { start: 0, end: file.size - 1 };
  if (range) res.setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`);
  res.writeHead(range ? 206 : status, { 'Content-Length': end - start + 1 });
  if (req.method === 'HEAD' || end < start) {
    void file.close();
    res.end();
    return;
  }
  // pipeline destroys the file stream if the client goes away, and the response if the read fails.
  pipeline(file.stream(start, end), res, () => {});
}
