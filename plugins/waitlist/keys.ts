// The API keys of the local waitlist backend, and which database role each
// one stands for.
//
// These are public, documented, local-only keys: they are baked into sites
// built without SUPABASE_URL and accepted only by src/waitlist/backend.ts.
// They are JWT-shaped so supabase-js treats them like hosted keys, but the
// signature is a fixed text, not an HMAC: no hosted project accepts them, and
// the local backend recognises them by exact match, never by decoding.
// This module is imported by browser code too, so it must stay free of Node APIs.

/** Payload {"iss":"sitegen-local","role":"anon"}: may insert into the waitlist, nothing else. */
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
  '.eyJpc3MiOiJzaXRlZ2VuLWxvY2FsIiwicm9sZSI6ImFub24ifQ' +
  '.c2l0ZWdlbiBsb2NhbCBhbm9uIGtleSwgcHVibGljLCBub3QgYSBzZWNyZXQ';

/** Payload {"iss":"sitegen-local","role":"service_role"}: full access, used by `sitegen waitlist export`. */
export const LOCAL_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
  '.eyJpc3MiOiJzaXRlZ2VuLWxvY2FsIiwicm9sZSI6InNlcnZpY2Vfcm9sZSJ9' +
  '.c2l0ZWdlbiBsb2NhbCBzZXJ2aWNlX3JvbGUga2V5LCBwdWJsaWMsIG5vdCBhIHNlY3JldA';

export type WaitlistRole = 'anon' | 'service_role';

/** The role a request runs as, or null when the key is missing or not one of ours. */
export function roleForKey(key: string | undefined): WaitlistRole | null {
  if (key === LOCAL_ANON_KEY) return 'anon';
  if (key === LOCAL_SERVICE_ROLE_KEY) return 'service_role';
  return null;
}
