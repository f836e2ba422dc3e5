// The local stand-in for a hosted Supabase project's data API: a
// PostgREST-compatible handler for /rest/v1/waitlist, backed by PGlite, for
// `sitegen dev` and `sitegen preview`. It sits in front of the static file
// server and answers only paths under /rest/v1/.
//
// Every request runs in its own transaction as the role its key stands for
// (set_config('role', …, true), as PostgREST does), so the migration's
// grants, RLS policy and constraints decide exactly as in production.
//
// Only this machine may use it: requests must name a loopback host (or the
// --host it was started with), and the service-role key is honoured only
// from a loopback peer (http.ts).
//
// In:  options (dataDir, migrations, service key, host, body cap, logger).
// Out: handle(req, res) -> whether it answered; open() (starts the database, when openLater); ready
//      (database started); close().

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { openWaitlistDb } from './db.ts';
import type { WaitlistRole } from './keys.ts';
import {
  allowOnly, ApiError, COUNT_SQL, insertSql, isPgError, parseCount, parseInsertColumns, parseOrder, parsePrefer,
  parseSelect, payloadColumns, pgErrorToApi, restError, rowsParam, selectSql, WAITLIST_TABLE, type Row,
} from './postgrest.ts';
import { corsHeaders, parseJson, readBody, requireJsonBody, requireKnownHost, roleFromRequest, sendError, sendJson } from './http.ts';
import { newServiceKey } from './serviceKey.ts';

export interface WaitlistBackendOptions {
  /** Where the database lives (created if missing). */
  dataDir: string;
  /** The folder of .sql migrations applied at every start (the site's supabase/migrations). */
  migrationsDir: string;
  /** The service-role key this database accepts (local.ts keeps it beside the database); default: a new random one. */
  serviceKey?: string;
  /** The host the server was told to listen on (`--host`): accepted in the Host header besides loopback names. */
  host?: string;
  /** Largest request body accepted, in bytes. Default 16384. */
  maxBodyBytes?: number;
  /** Receives start-up news and internal errors. Default: console.error. */
  log?: (line: string) => void;
  /** Opens the database only when open() is called or a request needs it, not at once: opening it holds the
   *  thread for about half a second, which the caller may want to spend serving pages first. */
  openLater?: boolean;
}

export interface WaitlistBackend {
  /** Answers requests under /rest/v1/ and resolves true; resolves false, untouched, for any other path. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Starts opening the database, if nothing has yet; returns `ready`. */
  open(): Promise<void>;
  /** Settles when the database is open (it takes seconds); rejects if it failed to start. */
  ready: Promise<void>;
  /** Lets requests in progress finish, then closes the database. */
  close(): Promise<void>;
  /** The service-role key requests must carry to read rows (from this machine only). */
  serviceKey: string;
}

const API_PREFIX = '/rest/v1/';
const TABLE_PATH = `${API_PREFIX}${WAITLIST_TABLE}`;
/** The service role may insert in batches (imports); at most this many rows a request. */
export const MAX_ROWS_PER_INSERT = 100;
/** The text of the migration's waitlist_one_row_per_insert trigger. */
export const ANON_ONE_ROW_MESSAGE = 'the public key may add one row per request';
const OBJECT_MEDIA_TYPE = 'application/vnd.pgrst.object+json';

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

export function createWaitlistBackend(options: WaitlistBackendOptions): WaitlistBackend {
  const maxBodyBytes = options.maxBodyBytes ?? 16384;
  const serviceKey = options.serviceKey ?? newServiceKey();
  // Default to stderr: a 500 or a failed start must never be silent.
  const log = options.log ?? ((line: string) => console.error(line));
  let db: PGlite | null = null;
  let closing: Promise<void> | null = null;
  const inFlight = new Set<Promise<unknown>>();

  // Started now (or, with openLater, by open() or the first request), awaited only by requests: the site is
  // served meanwhile.
  let settle!: { resolve: () => void; reject: (e: unknown) => void };
  const ready = new Promise<void>((resolve, reject) => { settle = { resolve, reject }; });
  ready.catch((error: unknown) => log(`waitlist: database failed to start: ${describe(error)}`));
  let opening = false;
  function open(): Promise<void> {
    if (opening || closing) return ready;
    opening = true;
    const started = Date.now();
    openWaitlistDb({ dataDir: options.dataDir, migrationsDir: options.migrationsDir }).then((opened) => {
      db = opened;
      log(`waitlist: database ready in ${Date.now() - started} ms (${options.dataDir})`);
    }).then(settle.resolve, settle.reject);
    return ready;
  }
  if (!options.openLater) void open();

  async function database(): Promise<PGlite> {
    try {
      await open();
    } catch {
      throw new ApiError(503, { message: 'The local waitlist database failed to start; see the server log.' });
    }
    if (closing || db === null) throw new ApiError(503, { message: 'The local waitlist database is shutting down.' });
    return db;
  }

  /**
   * PGlite has one connection; its transaction() holds a mutex that every
   * other query and transaction also takes, so concurrent requests queue
   * there and their statements can never interleave.
   */
  async function runAs<T>(role: WaitlistRole, work: (tx: Transaction) => Promise<T>): Promise<T> {
    const pg = await database();
    return pg.transaction(async (tx) => {
      await tx.query(`select set_config('role', $1, true)`, [role]);
      return work(tx);
    });
  }

  async function select(req: IncomingMessage, res: ServerResponse, url: URL, role: WaitlistRole): Promise<void> {
    allowOnly(url, ['select', 'order', 'limit', 'offset']);
    const columns = parseSelect(url.searchParams.get('select'));
    const order = parseOrder(url.searchParams.get('order'));
    const limit = parseCount('limit', url.searchParams.get('limit'));
    const offset = parseCount('offset', url.searchParams.get('offset')) ?? 0;
    const prefer = parsePrefer(req.headers.prefer);
    const { body, n, total } = await runAs(role, async (tx) => {
      const rows = await tx.query<{ body: string; n: number }>(selectSql(columns, order), [limit, offset]);
      const counted = prefer.countExact ? (await tx.query<{ total: string }>(COUNT_SQL)).rows[0]!.total : '*';
      return { ...rows.rows[0]!, total: counted };
    });
    const range = n === 0 ? `*/${total}` : `${offset}-${offset + n - 1}/${total}`;
    sendRows(req, res, 200, body, { 'Content-Range': range });
  }

  async function insert(req: IncomingMessage, res: ServerResponse, url: URL, role: WaitlistRole): Promise<void> {
    allowOnly(url, ['columns', 'select']);
    requireJsonBody(req);
    const payload = parseJson(await readBody(req, maxBodyBytes));
    const rows = Array.isArray(payload) ? payload : [payload];
    // The migration's statement trigger refuses more than one row per anon insert. This backend may split
    // a request into one statement per row (missing=default), so it applies the same rule per request,
    // with the database's own error, to stay exactly as strict as the hosted project.
    if (role === 'anon' && rows.length > 1) throw restError(400, '23514', ANON_ONE_ROW_MESSAGE);
    if (rows.length > MAX_ROWS_PER_INSERT) {
      throw restError(400, 'PGRST102', `Too many rows in one request: ${rows.length} (at most ${MAX_ROWS_PER_INSERT})`);
    }
    if (!rows.every(isRow)) throw restError(400, 'PGRST102', 'Every row must be a JSON object');
    const prefer = parsePrefer(req.headers.prefer);
    const returning = prefer.returnRepresentation ? parseSelect(url.searchParams.get('select')) : null;
    const columns = parseInsertColumns(url.searchParams.get('columns')) ?? payloadColumns(rows);
    // missing=default: a key a row lacks takes the column default, so each
    // row gets a statement naming only its own keys.
    const batches = prefer.missingDefault || columns.length === 0
      ? rows.map((row) => ({ columns: columns.filter((c) => Object.hasOwn(row, c)), rows: [row] }))
      : rows.length === 0 ? [] : [{ columns, rows }];
    // Serialised before the transaction, where a refusal is a 400, not a 500 (see rowsParam).
    const statements = batches.map((batch) => ({
      sql: insertSql(batch.columns, returning),
      params: batch.columns.length === 0 ? [] : [rowsParam(batch.rows)],
    }));
    const inserted = await runAs(role, async (tx) => {
      const out: unknown[] = [];
      for (const { sql, params } of statements) {
        const result = await tx.query<{ body: string }>(sql, params);
        if (returning) out.push(...(JSON.parse(result.rows[0]!.body) as unknown[]));
      }
      // Checked before COMMIT so a refused .single() insert leaves no rows, as in PostgREST.
      if (returning && wantsObject(req) && out.length !== 1) throw notSingle(out.length);
      return out;
    });
    if (returning === null) sendJson(req, res, 201, null, { 'Content-Range': '*/*' });
    else sendRows(req, res, 201, JSON.stringify(inserted), { 'Content-Range': '*/*' });
  }

  /** Honours `.single()` / `.maybeSingle()` (Accept: vnd.pgrst.object+json): exactly one row, as an object. */
  function sendRows(req: IncomingMessage, res: ServerResponse, status: number, arrayJson: string, headers: Record<string, string>): void {
    if (!wantsObject(req)) {
      sendJson(req, res, status, arrayJson, headers);
      return;
    }
    const rows = JSON.parse(arrayJson) as unknown[];
    if (rows.length !== 1) throw notSingle(rows.length);
    sendJson(req, res, status, JSON.stringify(rows[0]), headers);
  }

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    requireKnownHost(req, options.host);
    if (req.method === 'OPTIONS') {
      // Preflights carry no key; answering them grants nothing by itself.
      res.writeHead(204, corsHeaders(req));
      res.end();
      return;
    }
    const role = roleFromRequest(req, serviceKey);
    if (url.pathname !== TABLE_PATH && url.pathname !== `${TABLE_PATH}/`) {
      const name = url.pathname.slice(API_PREFIX.length).slice(0, 100) || '(none)';
      throw restError(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`);
    }
    requirePublicSchema(req);
    if (req.method === 'GET' || req.method === 'HEAD') return select(req, res, url, role);
    if (req.method === 'POST') return insert(req, res, url, role);
    throw new ApiError(405, { code: 'PGRST117', message: `Unsupported HTTP method: ${String(req.method).slice(0, 20)}`, details: null, hint: null },
      { Allow: 'GET, HEAD, POST, OPTIONS' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(API_PREFIX)) return false;
    const done = answer(req, res, url);
    inFlight.add(done);
    try {
      await done;
    } finally {
      inFlight.delete(done);
    }
    return true;
  }

  /** Never rejects: the caller is a plain http server with no error handling of its own. */
  async function answer(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      await route(req, res, url);
    } catch (error) {
      let refusal: ApiError;
      if (error instanceof ApiError) refusal = error;
      else if (isPgError(error)) {
        refusal = pgErrorToApi(error, safeRole(req, serviceKey));
        if (refusal.status >= 500) log(`waitlist: ${req.method} ${url.pathname}: database error ${error.code}: ${error.message}`);
      } else {
        log(`waitlist: ${req.method} ${url.pathname} failed: ${describe(error)}`);
        refusal = new ApiError(500, { code: null, message: 'Internal error in the local waitlist backend', details: null, hint: null });
      }
      // Half-written or abandoned responses cannot carry an error body.
      if (res.headersSent || res.destroyed || req.socket.destroyed) res.destroy();
      else sendError(req, res, refusal);
    }
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      // Never opened: nothing to close. Settled before waiting for the requests in flight, which may be waiting
      // for it (a POST still reading its body): they answer 503.
      if (!opening) settle.resolve();
      await Promise.allSettled([...inFlight]);
      if (!opening) return;
      try {
        await ready;
      } catch {
        return;
      }
      if (db && !db.closed) await db.close();
    })();
    return closing;
  }

  return { handle, open, ready, close, serviceKey };
}

const wantsObject = (req: IncomingMessage) => (req.headers.accept ?? '').includes(OBJECT_MEDIA_TYPE);

const notSingle = (count: number) =>
  restError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${count} rows`);

/** Only called once the key was already accepted, so the fallback is unreachable in practice. */
function safeRole(req: IncomingMessage, serviceKey: string): WaitlistRole {
  try {
    return roleFromRequest(req, serviceKey);
  } catch {
    return 'anon';
  }
}

/** supabase-js names the schema in Accept-Profile / Content-Profile; only public exists here. */
function requirePublicSchema(req: IncomingMessage): void {
  for (const header of ['accept-profile', 'content-profile'] as const) {
    const value = req.headers[header];
    if (value !== undefined && value !== 'public') {
      throw restError(406, 'PGRST106', `Invalid schema: ${String(value).slice(0, 100)}`, null,
        'Only the following schemas are exposed: public');
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
