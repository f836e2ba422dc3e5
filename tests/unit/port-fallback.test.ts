// The default port taken (another dev server, a preview left running): dev and preview take the next free
// one of the ten after it and say so, as Vite does; a port given with --port is used or refused.
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { DEV_PORT, listenOrStop, movedNote, ServerStartError } from '../../src/server/preview.ts';

const open: http.Server[] = [];
afterEach(async () => { await Promise.all(open.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(() => r(null)); }))); });

/** A server holding a free port, and that port. */
async function taken(): Promise<number> {
  const s = http.createServer();
  open.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return (s.address() as { port: number }).port;
}

describe('a taken port', () => {
  it('the default one: the next free port after it', async () => {
    const port = await taken();
    const next = http.createServer();
    open.push(next);
    let stopped = false;
    const url = await listenOrStop(next, port, '127.0.0.1', async () => { stopped = true; }, true);
    expect(Number(new URL(url).port)).toBeGreaterThan(port);
    expect(Number(new URL(url).port)).toBeLessThanOrEqual(port + 10);
    expect(stopped).toBe(false);
  });

  it('the address line says when the default port was taken, and only then', () => {
    expect(movedNote('http://127.0.0.1:5174', undefined, DEV_PORT)).toBe(' (5173 is in use)');
    expect(movedNote('http://127.0.0.1:5173', undefined, DEV_PORT)).toBe('');
    expect(movedNote('http://127.0.0.1:5174', 5174, DEV_PORT)).toBe('');
  });

  it('one given: refused, saying how to get another, and what the server started is stopped', async () => {
    const port = await taken();
    let stopped = false;
    const err = await listenOrStop(http.createServer(), port, '127.0.0.1', async () => { stopped = true; }, false).catch((e) => e);
    expect(err).toBeInstanceOf(ServerStartError);
    expect(err.message).toBe(`cannot listen on 127.0.0.1:${port}: the port is in use (pass another --port, or none for the next free one)`);
    expect(stopped).toBe(true);
  });
});
