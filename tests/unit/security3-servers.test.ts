// Security of the dev and preview servers against other web pages and slow clients: the island-error
// endpoint takes reports only from the dev server's own pages and prints nothing a terminal would obey;
// no route answers a Host that names another site (DNS rebinding); the watcher does not follow a link out
// of the site; a socket that never finishes its request is closed. All on loopback addresses.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { createServer, createStaticHandler, listen, SERVER_TIMEOUTS } from '../../src/server/serve.ts';
import { startDevServer, type DevServer } from '../../src/dev/index.ts';
import { clientErrorHandler, locateClientError } from '../../src/dev/clientErrors.ts';
import { watchSite } from '../../src/dev/watch.ts';
import type { FileChange } from '../../src/dev/devSite.ts';
import { until } from './dev-fixture.ts';
import { copyFixture, removeCopy, SCRATCH } from '../helpers/scratch.ts';

interface Answer { status: number; headers: http.IncomingHttpHeaders; body: string }

/** One request with exactly these headers (Host included: fetch would not let a test set it). */
function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'GET', headers: { Host: u.host, ...opts.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => { chunks.push(c); if (res.headers['content-type']?.startsWith('text/event-stream')) req.destroy(); });
      const done = () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.on('end', done);
      res.on('close', done);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

let dir: string;
let dev: DevServer;
let devServer: http.Server;
let devUrl: string;

beforeAll(async () => {
  dir = copyFixture('basic');
  dev = await startDevServer({ root: dir });
  devServer = http.createServer(dev.handler);
  devUrl = await listen(devServer, 0, '127.0.0.1');
});
afterAll(async () => {
  await dev?.close();
  devServer?.closeAllConnections();
  devServer?.close();
  removeCopy(dir);
});

describe('POST /__sitegen/error takes reports from the dev server\'s own pages only', () => {
  const report = JSON.stringify({ message: 'TypeError: x is undefined', stack: '', page: '/' });

  it('answers a report from its own origin, as JSON', async () => {
    const ok = await send(`${devUrl}/__sitegen/error`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: devUrl }, body: report });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)[0].text).toContain('TypeError: x is undefined');
  });

  it('refuses another origin (403), a page on a rebound name (421) and a body that is not JSON (415)', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const port = new URL(devUrl).port;
      const other = await send(`${devUrl}/__sitegen/error`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' }, body: report });
      expect(other.status).toBe(403);
      const crossSite = await send(`${devUrl}/__sitegen/error`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' }, body: report });
      expect(crossSite.status).toBe(403);
      const rebound = await send(`${devUrl}/__sitegen/error`, { method: 'POST', headers: { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}`, 'Content-Type': 'application/json' }, body: report });
      expect(rebound.status).toBe(421);
      // text/plain is what a cross-site form or fetch may send without a preflight.
      for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const plain = await send(`${devUrl}/__sitegen/error`, { method: 'POST', headers: { 'Content-Type': type, Origin: devUrl }, body: report });
        expect(plain.status, type).toBe(415);
      }
      expect(write).not.toHaveBeenCalled();
    } finally { write.mockRestore(); }
  });

  it('prints a report without escape sequences, C0/C1 or bidi controls, and cannot fake a line of its own', async () => {
    const printed: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => { printed.push(String(chunk)); return true; });
    const hostile = 'boom\x1b[2J\x1b[H\x1b]0;pwned title\x07\x1b]52;c;ZWNobyBwd25lZA==\x07\r\n✓ built 12 pages in memory in 5 ms\x9b31m\u202eevil\u2066\x00\x08';
    try {
      const res = await send(`${devUrl}/__sitegen/error`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: devUrl }, body: JSON.stringify({ message: hostile, stack: '', page: '/\x1b[31mred' }) });
      expect(res.status).toBe(200);
    } finally { write.mockRestore(); }
    const out = printed.join('');
    expect(out).toContain('boom');
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(out).not.toContain('pwned title');
    expect(out).not.toContain('ZWNobyBwd25lZA==');
    // The page's second line is marked as part of the report, never at the start of a terminal line.
    expect(out.split('\n').filter((l) => /^\s*✓/.test(l))).toEqual([]);
  });

  it('refuses a body over the cap (413) and reports beyond the rate (429)', async () => {
    const handler = clientErrorHandler(() => undefined, () => {}, { maxBody: 1024, reports: 3, windowMs: 60_000 });
    const server = http.createServer(async (req, res) => { if (!(await handler(req, res))) res.writeHead(404).end(); });
    const url = await listen(server, 0, '127.0.0.1');
    try {
      const post = (body: string) => send(`${url}/__sitegen/error`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: url }, body });
      expect((await post(JSON.stringify({ message: 'x'.repeat(2000) }))).status).toBe(413);
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await post(report)).status);
      expect(statuses).toEqual([200, 200, 429, 429, 429]);
    } finally { server.closeAllConnections(); server.close(); }
  });

  it('parses a large source map once, not on every report pointing into it', async () => {
    // A bundle's map as esbuild writes it (one segment a line), for a 50,000-line island source.
    const lines = 50_000;
    const content = Array.from({ length: lines }, (_, i) => `  if (x === ${i}) throw new Error('e${i}');`).join('\n');
    const map = JSON.stringify({ version: 3, sources: ['../../../templates/islands/Big.tsx'], sourcesContent: [content], names: [], mappings: `AAAA${';AACA'.repeat(lines - 1)}` });
    const js = 'assets/chunk-BIG.js';
    const files = new Map([[js, Buffer.from('x')], [`${js}.map`, Buffer.from(map)]]);
    expect(map.length).toBeGreaterThan(1_500_000);
    const stack = [1000, 20_000, 40_000, 49_000].map((l) => `    at f (http://127.0.0.1:5173/${js}:${l}:10)`).join('\n');
    // A first map of the same text warms the parser up, so the timings below compare like with like.
    locateClientError({ message: 'Error: e', stack }, (rel) => (rel === js ? files.get(js) : Buffer.from(map)));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const m = locateClientError({ message: 'Error: e', stack }, (rel) => files.get(rel));
      times.push(performance.now() - t0);
      expect(m.location).toMatchObject({ file: 'templates/islands/Big.tsx', line: 1000, lineText: "  if (x === 999) throw new Error('e999');" });
    }
    // The first report parses the map; the next four together cost less than half of it.
    expect(times.slice(1).reduce((a, b) => a + b, 0)).toBeLessThan(times[0]! / 2);
  });

  it('has sane limits on the dev server: a burst of reports is cut off', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        statuses.push((await send(`${devUrl}/__sitegen/error`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: devUrl }, body: JSON.stringify({ message: `e${i}` }) })).status);
      }
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(5);
    } finally { write.mockRestore(); }
  });
});

describe('a Host that names another site is refused on every route (DNS rebinding)', () => {
  const foreign = (port: string) => [`evil.example:${port}`, `localhost.evil.example:${port}`, `192.168.1.20:${port}`];

  it('dev: the pages, the event stream, the client, the islands and their source maps', async () => {
    const port = new URL(devUrl).port;
    const chunk = [...dev.site.output.assets.keys()].find((k) => k.endsWith('.js.map'));
    expect(chunk).toBeTruthy();
    const paths = ['/', '/items/alpha/', '/__sitegen/events', '/__sitegen/client.js', '/__sitegen/overlay.css', `/${chunk}`, `/${chunk!.replace(/\.map$/, '')}`, '/no/such/page/'];
    for (const p of paths) {
      expect((await send(devUrl + p)).status, p).not.toBe(421);
      for (const host of foreign(port)) {
        const res = await send(devUrl + p, { headers: { Host: host } });
        expect(res.status, `${host} ${p}`).toBe(421);
        expect(res.body).not.toContain('sourcesContent');
      }
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `127.9.9.9:${port}`, `[::1]:${port}`]) {
      expect((await send(`${devUrl}/`, { headers: { Host: host } })).status, host).toBe(200);
    }
  });

  it('preview: every file of dist/, and the host it listens on (--host) besides loopback names', async () => {
    const out = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-sec3-preview-'));
    fs.writeFileSync(path.join(out, 'index.html'), '<!DOCTYPE html><title>home</title>');
    fs.mkdirSync(path.join(out, 'assets'));
    fs.writeFileSync(path.join(out, 'assets/a.js.map'), '{"sourcesContent":["secret"]}');
    const servers: http.Server[] = [];
    const start = async (listenHost?: string) => {
      const s = http.createServer(createStaticHandler({ dir: out, listenHost }));
      servers.push(s);
      return listen(s, 0, '127.0.0.1');
    };
    try {
      const url = await start();
      const port = new URL(url).port;
      for (const p of ['/', '/assets/a.js.map', '/missing']) {
        for (const host of foreign(port)) expect((await send(url + p, { headers: { Host: host } })).status, `${host} ${p}`).toBe(421);
      }
      expect((await send(`${url}/assets/a.js.map`)).status).toBe(200);
      // --host devbox.lan: that name is answered too, no other.
      const named = await start('devbox.lan');
      expect((await send(`${named}/`, { headers: { Host: `devbox.lan:${port}` } })).status).toBe(200);
      expect((await send(`${named}/`, { headers: { Host: `evil.example:${port}` } })).status).toBe(421);
      // --host 0.0.0.0 (every interface): an IP address cannot be rebound, a name still can.
      const all = await start('0.0.0.0');
      expect((await send(`${all}/`, { headers: { Host: `192.168.1.20:${port}` } })).status).toBe(200);
      expect((await send(`${all}/`, { headers: { Host: `evil.example:${port}` } })).status).toBe(421);
      // No Host at all (HTTP/1.0) is no name of this machine either.
      const noHost = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(new URL(all).port), '127.0.0.1', () => socket.write('GET / HTTP/1.0\r\n\r\n'));
        let text = '';
        socket.on('data', (c) => { text += c; });
        socket.on('close', () => resolve(text));
      });
      expect(noHost).toMatch(/^HTTP\/1\.1 421 /);
    } finally {
      for (const s of servers) { s.closeAllConnections(); s.close(); }
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('the dev watcher does not follow a link out of the site', () => {
  it('reports no change made in a folder a link in content/ leads to', async () => {
    const root = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-sec3-watch-'));
    const outside = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-sec3-outside-'));
    for (const d of ['content', 'templates', 'static']) fs.mkdirSync(path.join(root, d));
    fs.writeFileSync(path.join(root, 'content/a.yaml'), 'v: 0\n');
    fs.mkdirSync(path.join(outside, 'deep'));
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(outside, `deep/f${i}.md`), `# ${i}\n`);
    fs.symlinkSync(outside, path.join(root, 'content/linked'), 'dir');
    const batches: FileChange[][] = [];
    const watcher = await watchSite({ root, debounceMs: 10, async onBatch(changes) { batches.push(changes); } });
    try {
      // Until the watcher reports a new file inside, it may still be settling (a link found at start is
      // reported late, and a file added meanwhile can go unseen whether or not the link is followed).
      let probe = 0;
      await until(() => {
        fs.writeFileSync(path.join(root, `content/probe${probe++}.yaml`), 'v: 0\n');
        return batches.flat().some((c) => c.file.includes('probe'));
      }, 10_000, 'the watcher to report a file');
      await watcher.idle();
      batches.length = 0;
      // New files (an edit within the mtime's granularity of the last write may go unseen either way).
      fs.writeFileSync(path.join(outside, 'deep/new.md'), '# new\n');
      fs.writeFileSync(path.join(outside, 'new.md'), '# new\n');
      fs.writeFileSync(path.join(root, 'content/b.yaml'), 'v: 1\n');
      await until(() => batches.flat().some((c) => c.file.endsWith('b.yaml')), 10_000, 'the change inside the site');
      // The outside writes came first; give a late event of theirs the time the inside one took.
      await new Promise((r) => setTimeout(r, 200));
      await watcher.idle();
      expect(batches.flat().filter((c) => c.file.includes(`${path.sep}linked${path.sep}`))).toEqual([]);
    } finally {
      await watcher.close();
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('a socket that never finishes its request is closed', () => {
  /** Opens a raw socket, writes `head`, and resolves with the ms until the server closes it (or null after `ms`). */
  function closedAfter(url: string, head: string, ms: number): Promise<number | null> {
    const u = new URL(url);
    return new Promise((resolve) => {
      const t0 = Date.now();
      const socket = net.connect(Number(u.port), u.hostname, () => { if (head) socket.write(head); });
      const timer = setTimeout(() => { socket.destroy(); resolve(null); }, ms);
      socket.on('data', () => {});
      socket.on('error', () => {});
      socket.on('close', () => { clearTimeout(timer); resolve(Date.now() - t0); });
    });
  }

  it('drops half-sent headers, a silent socket and a half-sent body within the configured timeouts', async () => {
    const server = createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')); }, { headers: 300, request: 600, keepAlive: 300, idle: 800, checkInterval: 50 });
    const url = await listen(server, 0, '127.0.0.1');
    try {
      const [partial, silent, body] = await Promise.all([
        closedAfter(url, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a', 1500),
        closedAfter(url, '', 1500),
        closedAfter(url, 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc', 1500),
      ]);
      expect(partial).not.toBeNull();
      expect(silent).not.toBeNull();
      expect(body).not.toBeNull();
    } finally { server.closeAllConnections(); server.close(); }
  });

  it('keeps sane defaults: headers within 10 s, never Node\'s minutes', () => {
    const server = createServer(() => {});
    expect(server.headersTimeout).toBe(SERVER_TIMEOUTS.headers);
    expect(SERVER_TIMEOUTS.headers).toBeLessThanOrEqual(10_000);
    expect(server.requestTimeout).toBeLessThanOrEqual(60_000);
    expect(server.keepAliveTimeout).toBeLessThanOrEqual(10_000);
    expect(server.timeout).toBeGreaterThan(15_000); // the dev event stream pings every 15 s
    expect(server.timeout).toBeLessThanOrEqual(120_000);
  });
});
