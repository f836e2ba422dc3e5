// Island errors thrown in the browser during `sitegen dev`: the dev client POSTs each uncaught error (its
// message and stack) to /__sitegen/error; this module maps the stack through the dev bundle's source maps
// (served from memory beside the chunks) to file:line:col of the island's source, prints it in the terminal
// as build errors are printed, and answers with the overlay's form of it so the page shows it too.
// Any web page the developer opens can try to post here, so a report is taken only from the dev server's
// own pages (a loopback Host, the same Origin, JSON, which a cross-site page cannot send without a
// preflight we never grant), small (413) and not too often (429); what it says reaches the terminal
// without control characters, so it cannot clear the screen, set the title or the clipboard, or fake lines.
import { SourceMap } from 'node:module';
import path from 'node:path';
import type http from 'node:http';
import type { RequestHandler } from '../site/plugins.ts';
import type { Location, Message } from '../core/types.ts';
import { catalogue, fileLocation, formatMessageLong, message } from '../core/errors.ts';
import { overlayErrors } from './events.ts';
import { hostHeaderName, isLoopbackHost } from '../server/host/knownHost.ts';
import { normaliseBase } from '../render/urls.ts';

/** What the dev client sends. */
export interface ClientErrorReport {
  message: string;
  stack?: string;
  /** The page the error happened on. */
  page?: string;
}

/** A bundle file by its output path ("assets/chunk-X.js", "assets/chunk-X.js.map"). */
export type AssetLookup = (rel: string) => Uint8Array | string | undefined;

export interface ClientErrorLimits {
  /** Largest request body, in bytes (413 beyond). */
  maxBody: number;
  /** At most `reports` reports in any `windowMs` (429 beyond): each may parse large source maps. */
  reports: number;
  windowMs: number;
}

export const CLIENT_ERROR_LIMITS: ClientErrorLimits = { maxBody: 64 * 1024, reports: 20, windowMs: 10_000 };

/**
 * Text from a report as it may reach a terminal: no escape sequences (CSI, OSC: screen, title, clipboard),
 * no other C0 control but newline and tab (no carriage return to overwrite a line), no C1, no bidi controls.
 */
export function terminalSafe(text: string): string {
  return text
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/g, '')
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

/**
 * The terminal form of an island error: control characters stripped, and each further line of the page's
 * message marked as its continuation, so a message cannot print a line that looks like sitegen's own.
 */
export function clientErrorText(m: Message): string {
  const body = terminalSafe(formatMessageLong({ ...m, text: m.text.replace(/\n/g, '\n  │ ') }));
  return `✗ ${body}  [${catalogue[m.id as 'IslandError' | 'ScriptError']?.title ?? catalogue.IslandError.title}]\n  hint: ${terminalSafe(m.hint ?? '')}\n`;
}

/** `http://host:port/assets/chunk-X.js:12:34` in a Chrome, Firefox or Safari stack line. */
export const FRAME = /(?:https?:\/\/[^/\s]+)(\/[^\s()]*?\.m?js)(?:\?[^\s():]*)?:(\d+):(\d+)/g;
const URL_START = /https?:\/\//g;

/** JavaScript's `\s`. */
const space = (c: number) => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
  || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;

/**
 * The frames FRAME finds in `stack` (path, line, column), found as its matchAll finds them but in linear
 * time: FRAME itself reads the rest of a long run again from every `http://` in it, and again after
 * every `.js?` (the body is the browser's, up to 64 KB). Held to FRAME by a differential test.
 */
export function stackFrames(stack: string): [path: string, line: number, column: number][] {
  const n = stack.length, frames: [string, number, number][] = [];
  const at = (i: number) => stack.charCodeAt(i);
  // `[^\s()]` and `[^\s():]` end at these.
  const pathEnd = (c: number) => c === 40 || c === 41 || space(c);
  /** `:(\d+):(\d+)` at i: [line, column, end] or null (the last answer is kept: candidates share it). */
  let tailAt = -1, tail: [number, number, number] | null = null;
  const tailFrom = (i: number) => {
    if (i === tailAt) return tail;
    tailAt = i; tail = null;
    if (at(i) !== 58) return null;
    let j = i + 1;
    while (at(j) >= 48 && at(j) <= 57) j++;
    if (j === i + 1 || at(j) !== 58) return null;
    let k = j + 1;
    while (at(k) >= 48 && at(k) <= 57) k++;
    if (k === j + 1) return null;
    return (tail = [Number(stack.slice(i + 1, j)), Number(stack.slice(j + 1, k)), k]);
  };
  /** Where a query from i (`[^\s():]*`) ends; one scan serves every query that ends at the same place. */
  let queryFrom = -1, queryEnd = -1;
  const queryEndFrom = (i: number) => {
    if (i >= queryFrom && i <= queryEnd) return queryEnd;
    let j = i;
    while (j < n && at(j) !== 58 && !pathEnd(at(j))) j++;
    queryFrom = i;
    return (queryEnd = j);
  };
  // A path run [p, deadEnd) that held no frame: a later URL whose path starts inside it holds none either.
  let deadEnd = -1;
  URL_START.lastIndex = 0;
  for (let m; (m = URL_START.exec(stack)) !== null;) {
    const start = m.index;
    URL_START.lastIndex = start + 1;
    let p = start + m[0].length;
    while (p < n && at(p) !== 47 && !space(at(p))) p++; // the host: [^/\s]+
    if (p === start + m[0].length || at(p) !== 47 || p < deadEnd) continue;
    let found = false;
    let j = p + 1;
    for (; j < n && !pathEnd(at(j)); j++) {
      if (at(j) !== 46) continue;
      const e = stack.startsWith('js', j + 1) ? j + 3 : stack.startsWith('mjs', j + 1) ? j + 4 : -1;
      if (e < 0) continue;
      const t = at(e) === 63 ? tailFrom(queryEndFrom(e + 1)) : tailFrom(e);
      if (!t) continue;
      frames.push([stack.slice(p, e), t[0], t[1]]);
      URL_START.lastIndex = t[2];
      found = true;
      break;
    }
    if (!found) deadEnd = j;
  }
  return frames;
}
/** Where esbuild writes the dev bundle, relative to the site root (the maps' sources are relative to it). */
const OUT_DIR = '.sitegen/client';

interface ParsedMap { map: SourceMap; sources: string[]; contents: (string | null)[]; lines: (string[] | undefined)[] }

/** Parsed maps by the map file's bytes (a rebuild makes new ones): a large map is parsed once, not per report. */
const parsedMaps = new WeakMap<Uint8Array, ParsedMap | null>();

/** Maps one bundle position (1-based line and column) to the original source, relative to the site root. */
function mapFrame(rel: string, line: number, column: number, assets: AssetLookup, maps: Map<string, ParsedMap | null>): Location | null {
  let parsed = maps.get(rel);
  if (parsed === undefined) {
    parsed = null;
    const raw = assets(`${rel}.map`);
    const known = raw !== undefined && typeof raw !== 'string' ? parsedMaps.get(raw) : undefined;
    if (known !== undefined) parsed = known;
    else if (raw !== undefined) {
      try {
        const payload = JSON.parse(typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8'));
        parsed = { map: new SourceMap(payload), sources: payload.sources ?? [], contents: payload.sourcesContent ?? [], lines: [] };
      } catch { parsed = null; }
      if (typeof raw !== 'string') parsedMaps.set(raw, parsed);
    }
    maps.set(rel, parsed);
  }
  if (!parsed) return null;
  const entry = parsed.map.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
  if (entry.originalSource === undefined || entry.originalLine === undefined) return null;
  // Node may hand the source back resolved to a URL; the map's own list says what esbuild wrote.
  const index = parsed.sources.findIndex((s) => s === entry.originalSource || entry.originalSource!.endsWith(s.replace(/^(\.\.\/)+/, '')));
  const source = index >= 0 ? parsed.sources[index] : entry.originalSource;
  const file = path.posix.normalize(path.posix.join(OUT_DIR, path.posix.dirname(rel), source));
  const text = index >= 0 ? parsed.contents[index] : null;
  const lines = text ? (parsed.lines[index] ??= text.split(/\r?\n/)) : [];
  const lineText = lines[entry.originalLine] ?? '';
  return fileLocation(file, entry.originalLine + 1, (entry.originalColumn ?? 0) + 1, lineText);
}

/** True for a source that is the site's own code (not a package, not the engine's hydration runtime). */
function isSiteFile(file: string): boolean {
  return !file.startsWith('../') && !file.includes('node_modules/') && !file.startsWith(OUT_DIR);
}

/**
 * The error as a located Message (an island's, or another script's when no frame maps: ScriptError): at the first stack frame in the site's own sources, when one maps (an
 * island's frames come before React's and the hydration runtime's, which sit in node_modules or outside
 * the site); the site's further frames are notes.
 */
export function locateClientError(report: ClientErrorReport, assets: AssetLookup, base = '/'): Message {
  const maps = new Map<string, ParsedMap | null>();
  // Under a base ("/repo/"), the page loads its chunks from /repo/assets/…; the bundle knows them as assets/….
  const prefix = normaliseBase(base);
  const mapped: Location[] = [];
  // Frames are short lines: a long line is cut before it is scanned, and only the first 100 are read.
  const stackLines = (report.stack ?? '').split('\n', 100).map((l) => l.slice(0, 1000));
  const frames = stackFrames(stackLines.join('\n'));
  for (const [file, line, column] of frames) {
    const rel = file.startsWith(prefix) ? file.slice(prefix.length) : file.replace(/^\//, '');
    const loc = mapFrame(rel, line, column, assets, maps);
    if (loc) mapped.push(loc);
  }
  const where = mapped.find((l) => isSiteFile(l.file)) ?? null;
  // An island's stack holds frames of the islands bundle (its own, React's, the hydration runtime's). A stack
  // whose frames are none of them is another script's (static/, another site's, an extension's), named by its
  // first frame; so is the browser's "Script error." (a script of another origin, its details withheld). An
  // error with no stack at all (a thrown string) may be an island's, and is said as one.
  // (a frame line of any script: "at …" in Chrome, "fn@url" in Firefox and Safari, an extension's or an inline one)
  const frameLines = stackLines.map((l) => l.trim()).filter((l) => l.startsWith('at ') || l.includes('@'));
  const other = !mapped.length && (frameLines.length > 0 || report.message === 'Script error.');
  const [file, line] = frames[0] ?? [];
  const first = file ? `${file}:${line}` : frameLines[0]?.replace(/^at /, '').slice(0, 120);
  const text = `${report.message || 'Uncaught error'}${other && first ? ` (in ${terminalSafe(first)})` : ''}${report.page ? ` (on ${report.page})` : ''}`;
  const notes = mapped.filter((l) => l !== where && isSiteFile(l.file)).slice(0, 5).map((l) => ({ text: 'called from here', location: l }));
  return message(other ? 'ScriptError' : 'IslandError', text, where, { notes });
}

/** The request body as text, or 'too large' as soon as it passes maxBody (the rest is drained unread). */
function readBody(req: http.IncomingMessage, maxBody: number): Promise<string | null | 'too large'> {
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxBody) chunks.push(c);
      else { chunks.length = 0; resolve('too large'); }
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

/** Why a request is not a report from the dev server's own page: [status, reason], or null when it is. */
function refusal(req: http.IncomingMessage): [number, string] | null {
  const host = hostHeaderName(req.headers.host);
  if (host === null || !isLoopbackHost(host)) return [421, 'reports are taken at a loopback address only'];
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${String(req.headers.host).toLowerCase()}`) return [403, 'reports are taken from the dev server\'s own pages only'];
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return [403, 'reports are taken from the dev server\'s own pages only'];
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return [415, 'a report is sent as application/json'];
  return null;
}

/**
 * POST /__sitegen/error: locate, print (onError), answer with the overlay's entries. `base` is the site's
 * base path (site.base), read per report: the config may change while dev runs.
 */
export function clientErrorHandler(assets: AssetLookup, onError: (m: Message) => void, limits: Partial<ClientErrorLimits> = {}, base: () => string | undefined = () => '/'): RequestHandler {
  const { maxBody, reports, windowMs } = { ...CLIENT_ERROR_LIMITS, ...limits };
  const recent: number[] = [];
  const refuse = (res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache', ...headers }).end(`${text}\n`);
    return true;
  };
  return async (req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/__sitegen/error') return false;
    if (req.method !== 'POST') { res.writeHead(405, { Allow: 'POST' }).end(); return true; }
    const refused = refusal(req);
    if (refused) return refuse(res, refused[0], refused[1], { Connection: 'close' });
    const now = Date.now();
    while (recent.length && recent[0]! <= now - windowMs) recent.shift();
    if (recent.length >= reports) return refuse(res, 429, 'too many reports; later ones are dropped', { 'Retry-After': String(Math.ceil(windowMs / 1000)) });
    recent.push(now);
    const body = await readBody(req, maxBody);
    if (body === 'too large') return refuse(res, 413, 'report too large', { Connection: 'close' });
    let report: ClientErrorReport | null = null;
    try { report = body ? JSON.parse(body) as ClientErrorReport : null; } catch { report = null; }
    if (!report || typeof report.message !== 'string') { res.writeHead(400).end(); return true; }
    const m = locateClientError({
      message: terminalSafe(report.message.slice(0, 2000)),
      stack: terminalSafe(String(report.stack ?? '').slice(0, 20_000)),
      page: typeof report.page === 'string' ? terminalSafe(report.page.slice(0, 500)) : undefined,
    }, assets, base() ?? '/');
    onError(m);
    const json = JSON.stringify(overlayErrors([m]));
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' }).end(json);
    return true;
  };
}
