// The waitlist's `config` hook: what a build compiles into public JavaScript (the Supabase URL and anon
// key, as island defines), the CSP source that lets forms reach Supabase, the notice saying where forms
// post, and the guards that stop a build from shipping a secret or a half-configured project.
// Pure: reads only the environment it is given. No Node APIs (compiled into the site module).
import type { ConfigContribution, Message, PluginContext } from 'sitegen';
import { LOCAL_ANON_KEY } from './keys.ts';

const configError = (text: string, hint: string): Message => ({ id: 'ConfigError', text, location: null, notes: [], hint });

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The role claimed by a JWT-shaped key ("header.payload.signature"), or undefined when it is not one. */
export function jwtRole(key: string): string | null | undefined {
  const parts = key.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(atob(parts[1]!.replace(/-/g, '+').replace(/_/g, '/')));
    return typeof payload?.role === 'string' ? payload.role : null;
  } catch {
    return null;
  }
}

/** Why this key must not be published, or null when it may (a JWT with role anon, or a publishable key). */
export function anonKeyProblem(key: string): string | null {
  if (/^sb_secret_/i.test(key)) return 'looks like a Supabase secret key (sb_secret_…)';
  if (/^sb_publishable_/i.test(key)) return null;
  const role = jwtRole(key);
  if (role === undefined) return 'is neither a JWT nor a publishable key (sb_publishable_…)';
  if (role === null) return 'is a JWT without a readable role';
  if (role !== 'anon') return `is a JWT for the role "${role}", not "anon"`;
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
