// The PostgREST dialect the local backend speaks, as pure functions: reading
// query parameters and Prefer headers, building the (parameterised) SQL for
// the one table it serves, and turning Postgres errors into PostgREST's
// JSON and status codes. No I/O here; backend.ts does the HTTP side.
//
// Only the subset supabase-js uses for a waitlist is supported. Anything else
// is refused with a 4xx rather than guessed at: identifiers in the SQL come
// only from WAITLIST_COLUMNS, values only travel as bind parameters.

import type { WaitlistRole } from './keys.ts';

export const WAITLIST_TABLE = 'waitlist';

/** Every column of public.waitlist, in table order: the identifier whitelist. */
export const WAITLIST_COLUMNS = [
  'id', 'created_at', 'email',
  'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content',
  'referrer', 'user_agent', 'metadata',
] as const;
export type WaitlistColumn = (typeof WAITLIST_COLUMNS)[number];

const isColumn = (name: string): name is WaitlistColumn =>
  (WAITLIST_COLUMNS as readonly string[]).includes(name);

/** The error body PostgREST (or, for key and size errors, the API gateway) sends. */
export interface ApiErrorBody {
  code?: string | null;
  message: string;
  details?: string | null;
  hint?: string | null;
}

/** A refusal that is the caller's doing: sent as-is, never logged as a bug. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: ApiErrorBody, readonly headers: Record<string, string> = {}) {
    super(body.message);
  }
}

/** An error in PostgREST's shape, all four keys present as PostgREST does. */
export function restError(status: number, code: string, message: string, details: string | null = null, hint: string | null = null): ApiError {
  return new ApiError(status, { code, details, hint, message });
}

const queryParseError = (message: string, details: string | null = null) =>
  restError(400, 'PGRST100', message, details);

export const unknownColumn = (name: string) =>
  restError(400, 'PGRST204', `Could not find the '${name}' column of '${WAITLIST_TABLE}' in the schema cache`);

/** `select=*` or `select=a,b`; embeds, casts, renames and JSON paths are refused. */
export function parseSelect(param: string | null): WaitlistColumn[] {
  if (param === null || param.trim() === '' || param.trim() === '*') return [...WAITLIST_COLUMNS];
  return param.split(',').map((raw) => {
    const name = raw.trim();
    if (name === '*') throw queryParseError('Failed to parse the select parameter', 'Mixing * with other columns is not supported');
    if (!isColumn(name)) throw queryParseError('Failed to parse the select parameter', `Unsupported select item: ${name.slice(0, 100)}`);
    return name;
  });
}

export interface OrderTerm {
  column: WaitlistColumn;
  descending: boolean;
  nulls: 'first' | 'last' | null;
}

/** `order=created_at.asc,id.desc.nullslast` */
export function parseOrder(param: string | null): OrderTerm[] {
  if (param === null || param.trim() === '') return [];
  return param.split(',').map((raw) => {
    const [column = '', ...modifiers] = raw.trim().split('.');
    if (!isColumn(column)) throw queryParseError('Failed to parse the order parameter', `Unsupported order column: ${column.slice(0, 100)}`);
    const term: OrderTerm = { column, descending: false, nulls: null };
    for (const modifier of modifiers) {
      if (modifier === 'asc' || modifier === 'desc') term.descending = modifier === 'desc';
      else if (modifier === 'nullsfirst' || modifier === 'nullslast') term.nulls = modifier === 'nullsfirst' ? 'first' : 'last';
      else throw queryParseError('Failed to parse the order parameter', `Unsupported order modifier: ${modifier.slice(0, 100)}`);
    }
    return term;
  });
}

/** A non-negative whole number, or null when absent. */
export function parseCount(name: string, param: string | null): number | null {
  if (param === null) return null;
  if (!/^\d{1,15}$/.test(param)) throw queryParseError(`Failed to parse the ${name} parameter`, `${name} must be a non-negative integer`);
  return Number(param);
}

/** The `columns` parameter supabase-js adds to array inserts: `"email","utm_source"`. */
export function parseInsertColumns(param: string | null): WaitlistColumn[] | null {
  if (param === null) return null;
  return param.split(',').map((raw) => {
    const name = raw.trim().replace(/^"(.*)"$/, '$1');
    if (!isColumn(name)) throw unknownColumn(name.slice(0, 100));
    return name;
  });
}

export interface Preferences {
  returnRepresentation: boolean;
  countExact: boolean;
  missingDefault: boolean;
}

/** Prefer may come as several headers or one comma-separated list; unknown tokens are ignored, as PostgREST does by default. */
export function parsePrefer(header: string | string[] | undefined): Preferences {
  const tokens = [header ?? []].flat().flatMap((value) => value.split(',')).map((token) => token.trim().toLowerCase());
  return {
    returnRepresentation: tokens.includes('return=representation'),
    countExact: tokens.includes('count=exact'),
    missingDefault: tokens.includes('missing=default'),
  };
}

const ident = (column: WaitlistColumn) => `"${column}"`;

/**
 * One statement that returns the selected rows as a JSON array text (`body`),
 * formatted by Postgres exactly as PostgREST would, and their number (`n`).
 * Binds $1 = limit, $2 = offset (NULL means none).
 */
export function selectSql(columns: WaitlistColumn[], order: OrderTerm[]): string {
  const orderBy = order.length === 0 ? '' : ' order by ' + order
    .map((term) => `${ident(term.column)} ${term.descending ? 'desc' : 'asc'}${term.nulls ? ` nulls ${term.nulls}` : ''}`)
    .join(', ');
  return `select coalesce(json_agg(t), '[]')::text as body, count(*)::int as n from (` +
    `select ${columns.map(ident).join(', ')} from public.waitlist${orderBy} limit $1::bigint offset $2::bigint) t`;
}

export const COUNT_SQL = 'select count(*)::text as total from public.waitlist';

/**
 * Inserts the rows of a JSON array bound as $1. Keys a row lacks become NULL
 * unless the statement is built per row (missing=default), matching PostgREST.
 * With `returning`, the inserted rows come back as a JSON array text, which
 * needs SELECT privilege: as anon this fails with 42501, as in production.
 */
export function insertSql(columns: WaitlistColumn[], returning: WaitlistColumn[] | null): string {
  const list = columns.map(ident).join(', ');
  const insert = columns.length === 0
    ? 'insert into public.waitlist default values'
    : `insert into public.waitlist (${list}) select ${list} from jsonb_populate_recordset(null::public.waitlist, $1::jsonb)`;
  if (returning === null) return insert;
  return `with inserted as (${insert} returning ${returning.map(ident).join(', ')}) ` +
    `select coalesce(json_agg(inserted), '[]')::text as body from inserted`;
}

/** The fields of a Postgres error that PostgREST passes on. */
export interface PgErrorLike {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

export function isPgError(error: unknown): error is PgErrorLike {
  if (!(error instanceof Error)) return false;
  const code: unknown = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** PostgREST's status for a SQLSTATE, for the codes this table can raise. */
export function statusForPgCode(code: string, role: WaitlistRole): number {
  if (code === '23505' || code === '23503') return 409;
  // PostgREST: a permission error means "log in" to anon, "forbidden" to anyone else.
  if (code === '42501') return role === 'anon' ? 401 : 403;
  if (code === '42P01' || code === '42883') return 404;
  if (code.startsWith('53') || code.startsWith('57')) return 503;
  // Internal (XX) and system (58: I/O, missing file) errors are the database's fault, never the client's:
  // a damaged database must not look like a bad request.
  if (code.startsWith('XX') || code.startsWith('58')) return 500;
  return 400;
}

export function pgErrorToApi(error: PgErrorLike, role: WaitlistRole): ApiError {
  return restError(statusForPgCode(error.code, role), error.code, error.message, error.detail ?? null, error.hint ?? null);
}

/** A request body's row (an object). */
export type Row = Record<string, unknown>;

/** Unknown parameters would be PostgREST filters or options we do not implement; silently ignoring one could widen a query. */
export function allowOnly(url: URL, names: string[]): void {
  for (const name of url.searchParams.keys()) {
    if (!names.includes(name)) {
      throw restError(400, 'PGRST100', `Unsupported query parameter: ${name.slice(0, 100)}`, null,
        `The local waitlist backend accepts only: ${names.join(', ')}`);
    }
  }
}

/**
 * The rows as the JSON text bound to the insert. JSON.stringify recurses, so
 * metadata nested a few thousand levels deep (it fits in a 16 KB body, and
 * JSON.parse accepts it) throws RangeError; that is the client's doing.
 */
export function rowsParam(rows: Row[]): string {
  try {
    return JSON.stringify(rows);
  } catch {
    throw restError(400, 'PGRST102', 'The JSON body is nested too deeply');
  }
}

/** Without ?columns, PostgREST takes the payload's keys, each of which must be a column. */
export function payloadColumns(rows: Row[]): WaitlistColumn[] {
  const keys = new Set(rows.flatMap((row) => Object.keys(row)));
  for (const key of keys) {
    if (!(WAITLIST_COLUMNS as readonly string[]).includes(key)) throw unknownColumn(key.slice(0, 100));
  }
  return WAITLIST_COLUMNS.filter((column) => keys.has(column));
}
