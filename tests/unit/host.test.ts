// The one static host (src/server/host/) that `sitegen preview` (disk) and `sitegen dev` (memory) share:
// what is on disk now is what is served, symlinks never lead outside the folder or crash it, every
// Location stays on the same origin, the host rules are re-read, and disk and memory answer alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { createStaticHandler, listen } from '../../src/server/serve.ts';
import { createHost, memorySource } from '../../src/server/host/index.ts';
import { request, isSameOrigin } from '../helpers/http.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const work = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-host-'));
const dist = path.join(work, 'dist');
const servers: http.Server[] = [];
let disk: string;
let memory: string;

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dist, rel)), { recursive: true });
  fs.writeFileSync(path.join(dist, rel), text);
};

/** The folder as a map, read at each request: what dev's in-memory output would hold. */
function folderLookup(rel: string): Uint8Array | null {
  try {
    const real = fs.realpathSync(path.join(dist, rel));
    return real.startsWith(fs.realpathSync(dist) + path.sep) && fs.statSync(real).isFile() ? fs.readFileSync(real) : null;
  } catch { return null; }
}

async function start(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  return listen(server, 0, '127.0.0.1');
}

beforeAll(async () => {
  write('index.html', '<!doctype html><title>home</title><link rel="stylesheet" href="/assets/site-AAAA.css">');
  write('assets/site-AAAA.css', 'body{color:red}');
  write('about/index.html', '<!doctype html><title>about</title>');
  write('legal/index.html', '<!doctype html><title>legal</title>');
  write('robots.txt', 'User-agent: *\nAllow: /\n');
  write('404.html', '<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>');
  write('fr/index.html', '<!doctype html><title>accueil</title>');
  write('fr/404.html', '<!doctype html><title>Page introuvable</title><h1>Page introuvable</h1>');
  write('_headers', "/*\n  Content-Security-Policy: default-src 'self'\n/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n");
  write('_redirects', '/old /about/ 301\n/twice //evil.example/ 301\n');
  fs.writeFileSync(path.join(work, 'secret.txt'), 'SECRET-OUTSIDE');
  fs.mkdirSync(path.join(work, 'outside'));
  fs.writeFileSync(path.join(work, 'outside/index.html'), 'SECRET-OUTSIDE-DIR');
  fs.symlinkSync('../secret.txt', path.join(dist, 'leak.txt'));
  fs.symlinkSync(path.join(work, 'outside'), path.join(dist, 'elsewhere'));
  fs.symlinkSync('index.html', path.join(dist, 'home.html'));
  // Symlink loops: one onto itself, one through a pair, one through a folder.
  fs.symlinkSync('self', path.join(dist, 'self'));
  fs.symlinkSync('ping', path.join(dist, 'pong'));
  fs.symlinkSync('pong', path.join(dist, 'ping'));
  fs.symlinkSync('.', path.join(dist, 'assets', 'again'));
  disk = await start(createStaticHandler({ dir: dist }));
  memory = await start(createHost({ source: memorySource(folderLookup) }));
});

afterAll(() => {
  for (const s of servers) { s.closeAllConnections(); s.close(); }
  fs.rmSync(work, { recursive: true, force: true });
});

describe('404 pages', () => {
  it("answers a missing path with the 404 page nearest it: a folder's own (a language's), else the site's", async () => {
    for (const base of [disk, memory]) {
      for (const [p, title] of [['/fr/nope/', 'Page introuvable'], ['/fr/deep/er/page', 'Page introuvable'], ['/nope/', 'Page Not Found'], ['/frx/', 'Page Not Found']] as const) {
        const r = await request(base, p);
        expect([r.status, r.body.match(/<title>([^<]*)/)?.[1]], `${base}${p}`).toEqual([404, title]);
      }
    }
  });
});

describe('the disk source', () => {
  it('serves what is on disk now: a rebuilt page with its new length and a new hashed asset', async () => {
    expect((await request(disk, '/')).body).toContain('site-AAAA.css');
    const page = '<!doctype html><title>home</title><link rel="stylesheet" href="/assets/site-BBBB.css"><p>' + 'rebuilt '.repeat(500);
    write('index.html', page);
    write('assets/site-BBBB.css', 'body{color:blue}');
    const res = await request(disk, '/');
    expect([res.status, res.headers['content-length'], res.body]).toEqual([200, String(Buffer.byteLength(page)), page]);
    const css = await request(disk, '/assets/site-BBBB.css');
    expect([css.status, css.body, css.headers['content-type']]).toEqual([200, 'body{color:blue}', 'text/css; charset=utf-8']);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('never serves a symlink whose target is outside the folder, and answers symlink loops with the 404 page', async () => {
    for (const p of ['/leak.txt', '/elsewhere/', '/elsewhere/index.html', '/elsewhere']) {
      const res = await request(disk, p);
      expect(res.status, p).toBe(404);
      expect(res.body, p).not.toContain('SECRET-OUTSIDE');
    }
    for (const p of ['/self', '/ping', '/pong/', '/assets/again/again/site-AAAA.css'.replace('site-AAAA', 'x')]) {
      const res = await request(disk, p);
      expect([res.status, res.body.includes('Page Not Found')], p).toEqual([404, true]);
    }
    // A symlink that stays inside is followed like any file.
    expect((await request(disk, '/home.html')).status).toBe(200);
  });

  it('re-reads _redirects and _headers when they change', async () => {
    expect((await request(disk, '/new-alias')).status).toBe(404);
    write('_redirects', '/old /about/ 301\n/new-alias /legal/ 301\n');
    write('_headers', "/*\n  Content-Security-Policy: default-src 'none'\n");
    const res = await request(disk, '/new-alias?ref=x');
    expect([res.status, res.headers.location]).toEqual([301, '/legal/?ref=x']);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    write('_redirects', '/old /about/ 301\n/twice //evil.example/ 301\n');
    write('_headers', "/*\n  Content-Security-Policy: default-src 'self'\n/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n");
  });

  it('validates with ETags and serves one plain range', async () => {
    const first = await request(disk, '/robots.txt');
    expect(first.headers.etag).toBeTruthy();
    expect((await request(disk, '/robots.txt', { headers: { 'If-None-Match': first.headers.etag! } })).status).toBe(304);
    const part = await request(disk, '/robots.txt', { headers: { Range: 'bytes=0-9' } });
    expect([part.status, part.body, part.headers['content-range']]).toEqual([206, 'User-agent', `bytes 0-9/${first.body.length}`]);
    expect((await request(disk, '/robots.txt', { headers: { Range: 'bytes=5-2' } })).status).toBe(200);
    expect((await request(disk, '/robots.txt', { headers: { Range: 'bytes=999-' } })).status).toBe(416);
  });
});

describe('disk and memory answer alike', () => {
  const cases: [string, string, number, string | undefined][] = [
    ['GET', '/about', 301, '/about/'],
    ['GET', '/about?x=1&y=2', 301, '/about/?x=1&y=2'],
    ['GET', '/about/', 200, undefined],
    ['HEAD', '/about/', 200, undefined],
    ['GET', '/old', 301, '/about/'],
    ['GET', '/no/such/page', 404, undefined],
    ['POST', '/about/', 405, undefined],
    // Open-redirect attempts: every Location is one same-origin path.
    ['GET', '/%2F%2Flegal', 301, '/legal/'],
    ['GET', '/%2F%2Flegal?q=1', 301, '/legal/?q=1'],
    ['GET', '//legal', 301, '/legal/'],
    ['GET', '/\\legal', 301, '/legal/'],
    ['GET', '/%5C%5Clegal', 301, '/legal/'],
    ['GET', '/%5C/legal', 301, '/legal/'],
    ['GET', '//evil.com', 404, undefined],
    ['GET', '/\\evil.com', 404, undefined],
    ['GET', '/%5C%5Cevil.com', 404, undefined],
    ['GET', '/%2F%2Fevil.com/', 404, undefined],
    ['GET', '/twice', 301, '/evil.example/'],
    ['GET', '/../secret.txt', 400, undefined],
    ['GET', '/.hidden', 404, undefined],
  ];

  it.each(cases)('%s %s → %d %s', async (method, p, status, location) => {
    for (const origin of [disk, memory]) {
      const res = await request(origin, p, { method });
      expect([res.status, res.headers.location], `${origin === disk ? 'disk' : 'memory'} ${p}`).toEqual([status, location]);
      expect(isSameOrigin(res.headers.location)).toBe(true);
      if (status !== 400) expect(res.headers['content-security-policy']).toBe("default-src 'self'");
      if (status === 404 && method === 'GET') expect(res.body).toContain('<h1>Page Not Found</h1>');
    }
  });

  it('sends the same body, type and length for pages and assets', async () => {
    for (const p of ['/', '/about/', '/robots.txt', '/assets/site-AAAA.css', '/index.html']) {
      const [a, b] = [await request(disk, p), await request(memory, p)];
      expect([b.status, b.body, b.headers['content-type'], b.headers['content-length']], p).toEqual([a.status, a.body, a.headers['content-type'], a.headers['content-length']]);
    }
  });
});
