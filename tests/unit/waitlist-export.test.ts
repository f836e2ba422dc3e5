// `sitegen waitlist export`'s reader against stand-in PostgREST servers: it sends the service-role key
// only over https (or http to this machine), never across a redirect, and pages until the server's exact
// count, whatever the server's max-rows.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { exportWaitlist } from '../../plugins/waitlist/export.ts';

describe('export: where the key may go, and completeness', () => {
  /** A stand-in PostgREST that serves `total` rows, at most `maxRows` per response (its max-rows). */
  async function fakeServer(handler: http.RequestListener): Promise<{ url: string; server: http.Server }> {
    const server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  }
  const closeServer = (server: http.Server) => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  const rowsServer = (total: number, maxRows: number, stopAt = total) => fakeServer((req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams;
    const offset = Number(q.get('offset') ?? 0);
    const n = Math.max(0, Math.min(maxRows, Number(q.get('limit')), stopAt - offset));
    const rows = Array.from({ length: n }, (_, i) => ({ id: offset + i + 1, email: `r${offset + i + 1}@x.io`, metadata: {} }));
    const count = req.headers.prefer?.includes('count=exact') ? String(total) : '*';
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Range': n ? `${offset}-${offset + n - 1}/${count}` : `*/${count}` });
    res.end(JSON.stringify(rows));
  });

  it('pages until the exact count even when the server sends fewer rows than asked (max-rows 500 < page 1000)', async () => {
    const { url, server } = await rowsServer(2500, 500);
    try {
      const rows = JSON.parse(await exportWaitlist({ url, serviceKey: 'k', format: 'json' }));
      expect(rows).toHaveLength(2500);
      expect(new Set(rows.map((r: { id: number }) => r.id)).size).toBe(2500);
    } finally {
      await closeServer(server);
    }
  });

  it('fails, writing nothing, when the server stops short of its own count', async () => {
    const { url, server } = await rowsServer(2500, 500, 1500);
    try {
      await expect(exportWaitlist({ url, serviceKey: 'k', format: 'csv' })).rejects.toThrow(/counts 2500 rows but sent only 1500/);
    } finally {
      await closeServer(server);
    }
  });

  it('never follows a redirect with the key: the second server never sees it', async () => {
    const seen: (string | undefined)[] = [];
    const second = await fakeServer((req, res) => { seen.push(req.headers.apikey as string | undefined, req.headers.authorization); res.writeHead(200, { 'Content-Range': '*/0' }); res.end('[]'); });
    const first = await fakeServer((req, res) => { res.writeHead(302, { Location: `${second.url}${req.url}` }); res.end(); });
    try {
      await expect(exportWaitlist({ url: first.url, serviceKey: 'secret-service-key', format: 'json' })).rejects.toThrow(/redirect \(302 to http:\/\/127\.0\.0\.1:\d+\/rest\/v1\/waitlist/);
      expect(seen).toEqual([]);
    } finally {
      await Promise.all([closeServer(first.server), closeServer(second.server)]);
    }
  });

  it('sends the key only over https, except to this machine', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      for (const url of ['http://project.supabase.example', 'http://192.168.1.5:3000', 'ftp://x.example', 'not a url']) {
        await expect(exportWaitlist({ url, serviceKey: 'secret', format: 'json' })).rejects.toThrow(/plain http|not an http|is not a URL/);
      }
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
