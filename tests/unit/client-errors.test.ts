// The dev server's island-error endpoint (src/dev/clientErrors.ts) without a browser: a stack from a real
// esbuild dev bundle maps to file:line:col of the island source with its line for the code frame; frames
// in packages are skipped; requests that are not a report are refused. (tests/e2e/island-errors.test.ts
// drives the same path from Chromium.)
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { clientErrorHandler, clientErrorText, locateClientError } from '../../src/dev/clientErrors.ts';
import { overlayErrors } from '../../src/dev/events.ts';
import type { Message } from '../../src/core/types.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const root = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-client-errors-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const ISLAND = `export function helper(n: number): number {
  if (n > 2) throw new RangeError('too many: ' + n);
  return n;
}

export default function Island({ n }: { n: number }) {
  return helper(n);
}
`;
fs.mkdirSync(path.join(root, 'templates/islands'), { recursive: true });
fs.writeFileSync(path.join(root, 'templates/islands/Island.tsx'), ISLAND);

/** Bundles the island as dev does (linked maps, unminified), in memory; returns the outputs by URL path. */
async function bundle(): Promise<Map<string, Uint8Array>> {
  const r = await esbuild.build({
    entryPoints: [path.join(root, 'templates/islands/Island.tsx')], bundle: true, format: 'esm', write: false, sourcemap: 'linked', sourcesContent: true,
    outdir: path.join(root, '.sitegen/client/assets'), entryNames: '[name]-[hash]', logLevel: 'silent',
  });
  const base = path.join(root, '.sitegen/client');
  return new Map(r.outputFiles.map((f) => [path.relative(base, f.path).split(path.sep).join('/'), f.contents]));
}

/** A Chrome-style stack whose top frame is at `needle` in the bundled chunk. */
function stackAt(files: Map<string, Uint8Array>, needle: string): string {
  const [rel, bytes] = [...files].find(([p]) => p.endsWith('.js'))!;
  const lines = Buffer.from(bytes).toString('utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  return `RangeError: too many: 3\n    at helper (http://127.0.0.1:5173/${rel}:${i + 1}:${lines[i]!.indexOf(needle) + 1})\n    at renderWithHooks (http://127.0.0.1:5173/assets/chunk-REACT.js:100:20)`;
}

describe('locating an island error', () => {
  it('maps the top frame of a dev bundle to the island source, with the line for the code frame', async () => {
    const files = await bundle();
    const m = locateClientError({ message: 'RangeError: too many: 3', stack: stackAt(files, 'new RangeError'), page: '/posts/a/' }, (rel) => files.get(rel));
    expect(m.id).toBe('IslandError');
    expect(m.text).toBe('RangeError: too many: 3 (on /posts/a/)');
    expect(m.location).toEqual({ file: 'templates/islands/Island.tsx', line: 2, column: ISLAND.split('\n')[1]!.indexOf('new RangeError') + 1, lineText: "  if (n > 2) throw new RangeError('too many: ' + n);" });
  });

  it('reports the message without a location when no frame maps (no maps, another origin), as another script\'s error', () => {
    const m = locateClientError({ message: 'Script error.', stack: '' }, () => undefined);
    expect(m.id).toBe('ScriptError');
    expect(m.location).toBeNull();
    expect(m.text).toBe('Script error.');
    expect(clientErrorText(m)).toContain('[A script of the page threw in the browser]');
  });

  it('titles an error whose stack is all in a script of static/ as that script\'s, not an island\'s', async () => {
    const files = await bundle();
    const stack = 'TypeError: x is undefined\n    at track (http://127.0.0.1:5173/analytics.js:3:9)';
    const m = locateClientError({ message: 'TypeError: x is undefined', stack, page: '/' }, (rel) => files.get(rel));
    expect([m.id, m.location, m.text]).toEqual(['ScriptError', null, 'TypeError: x is undefined (in /analytics.js:3) (on /)']);
    // An extension's or an inline script's frame is another script's too, named by its first frame.
    const ext = locateClientError({ message: 'Error: boom', stack: 'Error: boom\n    at run (chrome-extension://abcdef/content.js:3:9)' }, (rel) => files.get(rel));
    expect([ext.id, ext.text]).toEqual(['ScriptError', 'Error: boom (in run (chrome-extension://abcdef/content.js:3:9))']);
    // A thrown string has no stack: it may be an island's, and is said as one, as before.
    expect(locateClientError({ message: 'quota exceeded', stack: '' }, (rel) => files.get(rel)).id).toBe('IslandError');
    expect(overlayErrors([m])[0]).toMatchObject({ id: 'ScriptError', title: 'A script of the page threw in the browser' });
    // An island's error keeps its title, in the terminal too.
    const island = locateClientError({ message: 'RangeError: too many: 3', stack: stackAt(files, 'new RangeError') }, (rel) => files.get(rel));
    expect(clientErrorText(island)).toContain('[An island threw in the browser]');
  });
});

describe('POST /__sitegen/error', () => {
  async function serve(onError: (m: Message) => void) {
    const files = await bundle();
    const handler = clientErrorHandler((rel) => files.get(rel), onError);
    const server = http.createServer(async (req, res) => { if (!(await handler(req, res))) res.writeHead(404).end(); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/__sitegen/error`;
    return { files, url, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  it('prints the located error and answers with the overlay entry', async () => {
    const printed: Message[] = [];
    const { files, url, close } = await serve((m) => printed.push(m));
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'RangeError: too many: 3', stack: stackAt(files, 'new RangeError'), page: '/' }) });
      expect(res.status).toBe(200);
      const [entry] = await res.json() as { title: string; file: string; line: number; frame: string }[];
      expect(entry).toMatchObject({ title: 'An island threw in the browser', file: 'templates/islands/Island.tsx', line: 2 });
      expect(entry!.frame).toContain("2 |   if (n > 2) throw new RangeError('too many: ' + n);");
      expect(printed.map((m) => m.location?.file)).toEqual(['templates/islands/Island.tsx']);
    } finally { await close(); }
  });

  it('refuses what is not a report: another method, bad JSON, no message, an oversized body', async () => {
    const printed: Message[] = [];
    const { url, close } = await serve((m) => printed.push(m));
    try {
      expect((await fetch(url)).status).toBe(405);
      const json = { 'Content-Type': 'application/json' };
      expect((await fetch(url, { method: 'POST', headers: json, body: '{nope' })).status).toBe(400);
      expect((await fetch(url, { method: 'POST', headers: json, body: JSON.stringify({ stack: 'x' }) })).status).toBe(400);
      expect((await fetch(url, { method: 'POST', headers: json, body: JSON.stringify({ message: 'x'.repeat(100_000) }) })).status).toBe(413);
      expect(printed).toEqual([]);
    } finally { await close(); }
  });
});
