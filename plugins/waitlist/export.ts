// `sitegen waitlist export`: reads the whole waitlist through the data API
// (hosted Supabase or the local backend) with the service-role key, and
// formats it as CSV or JSON.
//
// The key reads every row, so where it goes is checked first: only https,
// except to this machine (the local backend); never across a redirect; and
// the export fails unless it got exactly the number of rows the server counts.
//
// In:  the project URL, a service-role key, a format. Out: the file's text.
// A refusal (wrong key, unreachable project, unsafe URL) is a
// WaitlistExportError whose message is meant for the terminal, without a stack.

import type { WaitlistRow as WaitlistInsert } from '../../templates/lib/waitlist.ts';
import { WAITLIST_COLUMNS } from './postgrest.ts';
import { isLoopbackHost } from './http.ts';

/** A stored row: what a form inserts (templates/lib/waitlist.ts), plus what the database adds. */
export interface WaitlistRow extends Omit<WaitlistInsert, 'metadata'> {
  id: number;
  created_at: string;
  metadata: Record<string, unknown>;
}

export interface ExportWaitlistOptions {
  url: string;
  serviceKey: string;
  format: 'csv' | 'json';
}

export class WaitlistExportError extends Error {
  override name = 'WaitlistExportError';
}

/** Rows asked for per request; the server may send fewer (its max-rows), and paging goes on from there. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * The project URL, if a service-role key may be sent to it: https, or http to this machine only
 * (localhost, 127.0.0.0/8, [::1]). Anything else is refused before a byte is sent.
 */
export function checkExportUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WaitlistExportError(`"${raw}" is not a URL (expected e.g. https://<project>.supabase.co)`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new WaitlistExportError(`refusing to send the service-role key over plain http to ${url.host}: use https:// (http is accepted only for this machine: localhost, 127.0.0.1, [::1])`);
  }
  throw new WaitlistExportError(`"${raw}" is not an http(s) URL`);
}

export async function exportWaitlist({ url, serviceKey, format }: ExportWaitlistOptions): Promise<string> {
  const rows = await fetchAllRows(checkExportUrl(url), serviceKey);
  return format === 'csv' ? toCsv(rows) : JSON.stringify(rows, null, 2) + '\n';
}

/** "0-999/2500" or "*\/0" → 2500 / 0; null when the server sent no exact count. */
function totalOf(contentRange: string | null): number | null {
  const m = contentRange?.match(/\/(\d+)\s*$/);
  return m ? Number(m[1]) : null;
}

async function fetchAllRows(base: URL, serviceKey: string): Promise<WaitlistRow[]> {
  const rows: WaitlistRow[] = [];
  const endpoint = new URL('rest/v1/waitlist', base.href.endsWith('/') ? base : `${base.href}/`);
  let total: number | null = null;
  // Offset paging is safe here because new sign-ups only append at the end of
  // this order (created_at, then id breaks ties within one batch insert).
  for (;;) {
    endpoint.search = new URLSearchParams({
      select: WAITLIST_COLUMNS.join(','), order: 'created_at.asc,id.asc',
      offset: String(rows.length), limit: String(EXPORT_PAGE_SIZE),
    }).toString();
    let res: Response;
    try {
      res = await fetch(endpoint, {
        // Never follow a redirect: fetch would resend apikey and Authorization to wherever it points.
        redirect: 'manual',
        headers: { apikey: serviceKey, Authorization: `Bearer ${serviceKey}`, Accept: 'application/json', Prefer: 'count=exact' },
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new WaitlistExportError(`cannot reach ${base.origin}: ${cause ?? (error instanceof Error ? error.message : String(error))}`);
    }
    if (res.status >= 300 && res.status < 400 || res.type === 'opaqueredirect') {
      await res.body?.cancel();
      throw new WaitlistExportError(`${base.origin} answered with a redirect (${res.status}${res.headers.get('location') ? ` to ${res.headers.get('location')}` : ''}); not following it with the service-role key. Use the final URL with --url or SUPABASE_URL.`);
    }
    const text = await res.text();
    if (!res.ok) {
      let detail = text.slice(0, 300);
      try { const body = JSON.parse(text); detail = `${body.code ? `(${body.code}) ` : ''}${body.message ?? detail}`; } catch { /* not JSON */ }
      throw new WaitlistExportError(`reading the waitlist from ${base.origin} failed with status ${res.status}: ${detail}`);
    }
    let page: WaitlistRow[];
    try {
      page = JSON.parse(text);
      if (!Array.isArray(page)) throw new Error('not a list');
    } catch {
      throw new WaitlistExportError(`${base.origin} did not answer with a list of rows`);
    }
    total ??= totalOf(res.headers.get('content-range'));
    if (total === null) throw new WaitlistExportError(`${base.origin} sent no exact row count (Content-Range), so a complete export cannot be confirmed`);
    rows.push(...page);
    if (rows.length >= total) return rows;
    if (page.length === 0) {
      throw new WaitlistExportError(`${base.origin} counts ${total} rows but sent only ${rows.length}; the export is incomplete and was not written`);
    }
  }
}

/**
 * RFC 4180 CSV: a header row, CRLF line ends, fields holding a comma, semicolon,
 * quote or line break wrapped in quotes with inner quotes doubled; null is an empty
 * field and metadata is its JSON text.
 *
 * Spreadsheet formula injection: anyone can put text in the waitlist, and
 * Excel/Sheets/LibreOffice run a cell starting with = + - @ (or a tab or CR)
 * as a formula. Such a field is prefixed with a single quote, which the
 * spreadsheet shows as text. This alters those values (an email like
 * "+me@x.io" exports as "'+me@x.io"); use the JSON format for exact data.
 */
export function toCsv(rows: readonly object[]): string {
  const lines = [WAITLIST_COLUMNS.join(',')];
  for (const row of rows) {
    const fields = row as Partial<Record<string, unknown>>;
    lines.push(WAITLIST_COLUMNS.map((column) => csvField(fields[column])).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  // `;` too: spreadsheets in locales whose list separator is `;` split there, so an unquoted
  // `a;=cmd()` would start a new cell with a formula the guard above never saw.
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
