// The API keys of the local waitlist backend, and which database role each one stands for.
//
// The anon key is a published constant on purpose: it is baked into sites built without SUPABASE_URL,
// and anon may only insert (one row per statement), exactly as on a hosted project. The service-role key
// is NOT a constant: it is random per database (serviceKey.ts), because it reads every row.
// Both are JWT-shaped so supabase-js treats them like hosted keys; the local backend recognises them by
// exact match, never by decoding. This module is imported by browser code too: no Node APIs here.

/** Payload {"iss":"sitegen-local","role":"anon"}: may insert into the waitlist, nothing else. */
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
  '.eyJpc3MiOiJzaXRlZ2VuLWxvY2FsIiwicm9sZSI6ImFub24ifQ' +
  '.c2l0ZWdlbiBsb2NhbCBhbm9uIGtleSwgcHVibGljLCBub3QgYSBzZWNyZXQ';

export type WaitlistRole = 'anon' | 'service_role';
