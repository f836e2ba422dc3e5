// Browser side of the waitlist: builds the row from the page (utm, referrer, user agent) and inserts it with
// supabase-js, loaded on first use so no page pays for it up front. Maps failures to the spec's messages, and
// tells apart the one failure that is the visitor's input (the database refused the email's shape or length)
// from failures that are not (network, key, server): only the former marks the field invalid.
import type { SupabaseClient } from '@supabase/supabase-js';
import { UTM_KEYS, utmFor, type UtmValues } from './utm.ts';

declare const __WAITLIST_URL__: string;
declare const __WAITLIST_ANON_KEY__: string;

export type WaitlistOutcome = 'success' | 'duplicate' | 'invalid' | 'auth' | 'generic';

export interface WaitlistRow {
  email: string;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  referrer: string | null;
  user_agent: string | null;
  metadata: Record<string, string>;
}

export type UtmDefaults = UtmValues;

/** What a sign-up came to: the message to show, and whether the email itself was refused (aria-invalid). */
export interface JoinResult { outcome: WaitlistOutcome; invalidEmail: boolean }

let client: Promise<SupabaseClient> | null = null;

/** Starts loading supabase-js (called when a visitor first focuses or hovers a form). */
export function warmWaitlistClient(): Promise<SupabaseClient> {
  client ??= import('@supabase/supabase-js').then(({ createClient }) => {
    const url = (typeof __WAITLIST_URL__ !== 'undefined' && __WAITLIST_URL__) || window.location.origin;
    const key = typeof __WAITLIST_ANON_KEY__ !== 'undefined' ? __WAITLIST_ANON_KEY__ : '';
    return createClient(url, key, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });
  });
  client.catch(() => { client = null; }); // a failed load (offline) may be retried on the next submit
  return client;
}

/** The row for one sign-up: utm values by the rule in lib/utm.ts (this page's query, else first touch, else defaults). */
export function buildRow(email: string, form: string, defaults: UtmDefaults = {}): WaitlistRow {
  const clip = (v: string | null | undefined, n: number) => (v ? v.slice(0, n) : null);
  const values = utmFor(defaults);
  const utm = Object.fromEntries(UTM_KEYS.map((k) => [k, clip(values[k], 256)])) as Pick<WaitlistRow, (typeof UTM_KEYS)[number]>;
  return {
    email: email.trim(),
    ...utm,
    referrer: clip(document.referrer, 2048),
    user_agent: clip(navigator.userAgent, 1024),
    metadata: { page: window.location.pathname, form },
  };
}

export function classifyError(error: { code?: string; message?: string } | null, status: number): WaitlistOutcome {
  if (!error) return 'success';
  if (error.code === '23505') return 'duplicate';
  if (status === 401 || /JWT|401|API key/i.test(error.message ?? '')) return 'auth';
  return 'generic';
}

/** A CHECK (23514) or length (22001) violation: the row's only visitor-typed value is the email. */
export const isInputError = (error: { code?: string } | null): boolean => error?.code === '23514' || error?.code === '22001';

// The waitlist table's checks on email (supabase/migrations/*_waitlist.sql), asked in the form first so an
// address the browser's type="email" accepts but the database refuses (a@b, x@y.z) gets its own message
// before anything is sent: local@domain.tld with no whitespace, control character or second @, a final
// label of 2+ characters, no bidi or zero-width character, at most 254 characters. Linear: no nested
// quantifiers; the domain run gives back to each of its dots once, and the final run stops at the next dot.
const EMAIL_SHAPE = /^[^\s\p{Cc}@]+@[^\s\p{Cc}@]+\.[^\s\p{Cc}@.]{2,}$/u;
const INVISIBLE = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]/u;

/** Whether the waitlist would take this (trimmed) address. */
export function acceptableEmail(email: string): boolean {
  return [...email].length <= 254 && EMAIL_SHAPE.test(email) && !INVISIBLE.test(email);
}

export async function joinWaitlist(row: WaitlistRow): Promise<JoinResult> {
  try {
    const supabase = await warmWaitlistClient();
    // No .select(): the anon role may insert but not read the list back (return=minimal).
    const { error, status } = await supabase.from('waitlist').insert(row);
    const outcome = classifyError(error, status);
    // The database refused the email itself: say so, as the form's own check would have.
    if (outcome === 'generic' && isInputError(error)) return { outcome: 'invalid', invalidEmail: true };
    return { outcome, invalidEmail: false };
  } catch {
    return { outcome: 'generic', invalidEmail: false };
  }
}
