// The waitlist's `config` hook: what a build compiles into public JavaScript (the Supabase URL and anon
// key, as island defines), the CSP source that lets forms reach Supabase, the notice saying where forms
// post, and the guards that stop a build from shipping a secret or a half-configured project.
// Pure: reads only the environment it is given. No Node APIs (compiled into the site module).
import type { ConfigContribution, Message, PluginContext } from 'sitegen-islands';
import { LOCAL_ANON_KEY } from './keys.ts';

const configError = (text: string, hint: string): Message => ({ id: 'ConfigError', text, location: null, notes: [], hint });

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** One base64url segment (RFC 7515: no padding, no whitespace). */
const B64URL = /^[A-Za-z0-9_-]+$/;

/** A segment's JSON object, or null when it does not decode to one. */
function jsonSegment(segment: string): Record<string, unknown> | null {
  if (!B64URL.test(segment) || segment.length % 4 === 1) return null;
  try {
    const binary = atob(segment.replace(/-/g, '+').replace(/_/g, '/'));
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The role claimed by a JWT ("header.payload.signature", each part base64url, header and payload JSON
 * objects); null when it is one without a string role; undefined when the value is not exactly one JWT.
 */
export function jwtRole(key: string): string | null | undefined {
  const parts = key.split('.');
  if (parts.length !== 3 || !parts.every((part) => B64URL.test(part))) return undefined;
  const [header, payload] = [jsonSegment(parts[0]!), jsonSegment(parts[1]!)];
  if (!header || !payload) return undefined;
  return typeof payload.role === 'string' ? payload.role : null;
}

/** A whole publishable key: the prefix, then only the characters Supabase keys are made of. */
const PUBLISHABLE = /^sb_publishable_[A-Za-z0-9_-]+$/;

/**
 * Why this value must not be published, or null when it may: it must be EXACTLY one publishable key
 * (sb_publishable_…) or one JWT whose role is anon. Looking at the start only is not enough: a value
 * like "sb_publishable_x sb_secret_…" would compile the secret into public JavaScript. The messages
 * never repeat the value (it may hold a secret), only where the problem is.
 */
export function anonKeyProblem(key: string): string | null {
  const secret = key.search(/sb_secret_/i);
  if (secret === 0) return 'looks like a Supabase secret key (sb_secret_…)';
  if (secret > 0) return `holds a Supabase secret key (sb_secret_…) at character ${secret + 1}`;
  const space = key.search(/\s/);
  if (space >= 0) return `holds whitespace at character ${space + 1}: it must be exactly one key, with nothing before or after it`;
  if (key.startsWith('sb_publishable_')) {
    if (key.indexOf('sb_publishable_', 1) > 0) return 'holds more than one publishable key: it must be exactly one key';
    if (!PUBLISHABLE.test(key)) {
      const bad = key.slice('sb_publishable_'.length).search(/[^A-Za-z0-9_-]/);
      return bad < 0 ? 'is an empty publishable key (nothing after sb_publishable_)'
        : `is not a publishable key: character ${'sb_publishable_'.length + bad + 1} is not a letter, digit, "_" or "-"`;
    }
    return null;
  }
  if (/^sb_/i.test(key)) return 'is neither a JWT nor a publishable key (sb_publishable_…, lower case)';
  const role = jwtRole(key);
  if (role === undefined) return 'is neither a JWT (three base64url parts holding JSON) nor a publishable key (sb_publishable_…)';
  if (role === null) return 'is a JWT without a readable role';
  if (role !== 'anon') return `is a JWT for the role "${role.slice(0, 40)}", not "anon"`;
  return null;
}

export function waitlistConfig(ctx: Pick<PluginContext, 'env' | 'mode'>): ConfigContribution {
  const url = ctx.env.SUPABASE_URL?.trim() || '';
  const key = ctx.env.SUPABASE_ANON_KEY?.trim() || '';
  if (!url) {
    const warnings: Message[] = [];
    if (ctx.mode === 'build' && ctx.env.CI === 'true') {
      warnings.push({
        id: 'ConfigError', location: null, notes: [],
        text: 'SUPABASE_URL IS NOT SET IN CI: this build\'s waitlist forms post to the LOCAL backend (the same origin), which exists only under `sitegen dev`/`sitegen preview`; on a real host every sign-up will fail',
        hint: 'Set SUPABASE_URL and SUPABASE_ANON_KEY in the CI environment for a production build.',
      });
    }
    return {
      define: { __WAITLIST_URL__: JSON.stringify(''), __WAITLIST_ANON_KEY__: JSON.stringify(LOCAL_ANON_KEY) },
      notices: ['SUPABASE_URL is not set: waitlist forms write to the same origin with the local anon key (served by `sitegen preview` and `sitegen dev`)'],
      warnings,
    };
  }
  const errors: Message[] = [];
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    errors.push(configError(`SUPABASE_URL "${url.slice(0, 200)}" is not a URL`, 'Set it to your project URL, e.g. https://<project>.supabase.co'));
  }
  if (parsed && parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && LOOPBACK.test(parsed.hostname))) {
    errors.push(configError(`SUPABASE_URL must be an https:// URL (http only for localhost), not "${url.slice(0, 200)}"`, 'Forms would send sign-ups in clear text; use the https URL of your Supabase project.'));
  }
  if (!key) {
    errors.push(configError('SUPABASE_URL is set but SUPABASE_ANON_KEY is not: every sign-up would fail in the browser', 'Set SUPABASE_ANON_KEY to the project\'s anon (publishable) key, or unset SUPABASE_URL to use the local backend.'));
  } else {
    const problem = anonKeyProblem(key);
    if (problem) {
      errors.push(configError(`SUPABASE_ANON_KEY ${problem}; refusing to compile it into public JavaScript`,
        'Use the project\'s anon (publishable) key. A service-role or secret key belongs only in SUPABASE_SERVICE_ROLE_KEY on the owner\'s machine; if it was ever published, rotate it.'));
    }
  }
  if (errors.length || !parsed) return { errors };
  return {
    define: { __WAITLIST_URL__: JSON.stringify(url), __WAITLIST_ANON_KEY__: JSON.stringify(key) },
    csp: { 'connect-src': [parsed.origin] },
    notices: [`waitlist forms write to Supabase at ${url}`],
  };
}
