// A supabase-js client fit for Node 20 scripts and tests: no session, no realtime socket. Kept out of the
// plugin's runtime path (the export speaks plain fetch), so no command loads supabase-js for nothing.
import { createClient, type SupabaseClient, type WebSocketLikeConstructor } from '@supabase/supabase-js';

/**
 * supabase-js builds a realtime client at createClient and, on Node 20 (no global WebSocket), throws
 * unless given a transport. Nothing here subscribes to anything, so the transport is a stub that fails loudly.
 */
class RealtimeNotUsed {
  constructor() {
    throw new Error('sitegen does not use Supabase Realtime');
  }
}

export function createWaitlistClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: RealtimeNotUsed as unknown as WebSocketLikeConstructor },
  });
}
