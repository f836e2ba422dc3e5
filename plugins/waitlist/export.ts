// `sitegen waitlist export`: reads the whole waitlist through the data API
// (hosted Supabase or the local backend) with the service-role key, and
// formats it as CSV or JSON.
//
// In:  the project URL, a service-role key, a format. Out: the file's text.
// A refusal (wrong key, unreachable project) is a WaitlistExportError whose
// message is meant for the terminal, without a stack trace.

import { createClient, type SupabaseClient, type WebSocketLikeConstructor } from '@supabase/supabase-js';
import { WAITLIST_COLUMNS } from './postgrest.ts';

export interface WaitlistRow {
  id: number;
  created_at: string;
  email: string;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  referrer: string | null;
  user_agent: string | null;
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

/** PostgREST's usual max-rows, so one page is never silently truncated by the server. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * supabase-js builds a realtime client at createClient and, on Node 20
 * (no global WebSocket), throws unless given a transport. The export never
 * subscribes to anything, so the transport is a stub that fails loudly if
 * that ever changes, instead of a `ws` dependency that would never run.
 */
class RealtimeNotUsed {
  constructor() {
    throw new Error('sitegen waitlist export does not use Supabase Realtime');
  }
}

/** A supabase-js client fit for Node 20 scripts: no session, no realtime socket. */
export function createWaitlistClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: RealtimeNotUsed as unknown as WebSocketLikeConstructor },
  });
}

export async function exportWaitlist({ url, serviceKey, format }: ExportWaitlistOptions): Promise<string> {
  const rows = await fetchAllRows(url, serviceKey);
  return format === 'csv' ? toCsv(rows) : JSON.stringify(rows, null, 2) + '\n';
}

async function fetchAllRows(url: string, serviceKey: string): Promise<WaitlistRow[]> {
  let client: SupabaseClient;
  try {
    client = createWaitlistClient(url, serviceKey);
  } catch (error) {
    throw new WaitlistExportError(`cannot use ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const rows: WaitlistRow[] = [];
  // Offset paging is safe here because new sign-ups only append at the end of
  // this order (created_at, then id breaks ties within one batch insert).
  for (let from = 0; ; from += EXPORT_PAGE_SIZE) {
    const { data, error, status } = await client
      .from('waitlist')
      .select(WAITLIST_COLUMNS.join(','))
      .order('created_at', { ascending: true })
      .order('id', { ascending: true })
      .range(from, from + EXPORT_PAGE_SIZE - 1);
    if (error) {
      const code = error.code ? ` (${error.code})` : '';
      throw new WaitlistExportError(`reading the waitlist from ${url} failed with status ${status}${code}: ${error.message}`);
    }
    const page = (data ?? []) as unknown as WaitlistRow[];
    rows.push(...page);
    if (page.length < EXPORT_PAGE_SIZE) return rows;
  }
}

/**
 * RFC 4180 CSV: a header row, CRLF line ends, fields holding a comma, quote
 * or line break wrapped in quotes with inner quotes doubled; null is an empty
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
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
