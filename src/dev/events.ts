// Live reload over server-sent events (GET /__sitegen/events). Each open page holds one connection and
// gets: `hello` (this server's id), `errors` (the current problems, [] when fixed), `reload` (the route
// paths and asset URLs that changed) and `rebuilt` after every rebuild (for tools and tests; pages ignore
// it). A page says which route and build version it shows, so a change that happened between serving the
// page and its connecting is not missed.
import type http from 'node:http';
import type { Message } from '../core/types.ts';
import type { HotChange } from './hmr.ts';
import { catalogue, codeFrame, formatMessage, formatMessageLong, messageText, noteText } from '../core/errors.ts';

/** A problem as the overlay shows it. */
export interface OverlayError {
  /** The catalogue id (IslandError, ScriptError, a build error's). */
  id: string;
  title: string;
  /** `file:line:col field: message`, the one-line form the terminal prints. */
  text: string;
  file: string | null;
  line: number;
  column: number;
  /** The message with its code frame and notes (what the terminal prints). */
  frame: string;
  /** What the overlay shows, in parts: the message (its field first), which wraps; the source line and its
   *  caret, which do not, a long line starting a little before the caret so that a phone shows it; the notes. */
  message: string;
  code: string;
  notes: string[];
  hint: string | null;
}

/** A source line longer than 80 characters is shown from 24 characters before the caret. */
const CODE_WINDOW = { wide: 80, lead: 24 };

export function overlayErrors(list: Message[]): OverlayError[] {
  return list.map((m) => ({
    id: m.id,
    title: catalogue[m.id as keyof typeof catalogue]?.title ?? m.id,
    text: formatMessage(m), file: m.location?.file ?? null, line: m.location?.line ?? 0, column: m.location?.column ?? 0,
    frame: formatMessageLong(m),
    message: messageText(m),
    code: codeFrame(m, CODE_WINDOW).join('\n'),
    notes: m.notes.map((note) => noteText(m, note)),
    hint: m.hint ?? null,
  }));
}

export interface Reload {
  /** Route paths whose HTML changed ("/about/", "/404"); "*" stands for every page. */
  paths: string[];
  /** URLs of changed static files and assets: a page reloads when it references one. */
  assets: string[];
  /** What open pages can apply without reloading (src/dev/hmr.ts); absent: reload what is listed. */
  hot?: HotChange;
  /** Route paths told already, ahead of this event (a rebuild's open pages): not again, though "*" lists them. */
  except?: string[];
  /** The new HTML of listed pages, by route path: an open page applies it without asking the server again
   *  (which may be busy rendering the rest of the site). */
  html?: Record<string, string>;
}

export interface EventHub {
  /** The build version pages are stamped with; rises with every commit. */
  readonly version: number;
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** The routes of the pages connected now (what a rebuild renders first). */
  openRoutes(): Set<string>;
  /** Records a commit and tells every page; pages whose route is listed reload themselves. */
  reload(change: Reload): void;
  setErrors(list: Message[]): void;
  /** Announces that a rebuild finished, whatever it changed. */
  rebuilt(info: { what: string; ok: boolean; rendered: number; ms: number }): void;
  close(): void;
}

export function createEventHub(): EventHub {
  const id = `${process.pid}-${Date.now().toString(36)}`;
  /** Each connected page, with the route it shows ("" when it did not say). */
  const clients = new Map<http.ServerResponse, string>();
  /** Route path → version of the last commit that changed it ("*" for all pages). */
  const changedAt = new Map<string, number>();
  let version = 1;
  let errors: OverlayError[] = [];
  let errorsJson = '[]';
  const send = (res: http.ServerResponse, event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  // A comment line now and then keeps proxies and idle timeouts from closing quiet connections.
  const keepAlive = setInterval(() => { for (const c of clients.keys()) c.write(': ping\n\n'); }, 15_000);
  keepAlive.unref();

  return {
    get version() { return version; },
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const route = url.searchParams.get('route');
      const seen = Number(url.searchParams.get('v') ?? version);
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' });
      res.write('retry: 300\n\n');
      send(res, 'hello', { id, version });
      send(res, 'errors', errors);
      const since = Math.max(changedAt.get('*') ?? 0, route ? changedAt.get(route) ?? 0 : 0);
      if (route && since > seen) send(res, 'reload', { paths: [route], assets: [] });
      clients.set(res, route ?? '');
      req.on('close', () => clients.delete(res));
    },
    openRoutes: () => new Set([...clients.values()].filter(Boolean)),
    reload(change) {
      version++;
      for (const p of change.paths) changedAt.set(p, version);
      const hot = change.hot && (change.hot.css.length || Object.keys(change.hot.islands).length);
      if (!change.paths.length && !change.assets.length && !hot) return;
      for (const c of clients.keys()) send(c, 'reload', change);
    },
    setErrors(list) {
      const next = overlayErrors(list);
      const json = JSON.stringify(next);
      if (json === errorsJson) return;
      errors = next;
      errorsJson = json;
      for (const c of clients.keys()) send(c, 'errors', errors);
    },
    rebuilt(info) {
      for (const c of clients.keys()) send(c, 'rebuilt', info);
    },
    close() {
      clearInterval(keepAlive);
      for (const c of clients.keys()) c.end();
      clients.clear();
    },
  };
}
