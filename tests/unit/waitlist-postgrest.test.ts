// The pure parts of the waitlist backend: keys, the PostgREST dialect, CSV.
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../plugins/waitlist/export.ts';
import { LOCAL_ANON_KEY } from '../../plugins/waitlist/keys.ts';
import { newServiceKey } from '../../plugins/waitlist/serviceKey.ts';
import { anonKeyProblem, waitlistConfig } from '../../plugins/waitlist/guards.ts';
import {
  ApiError, insertSql, parseInsertColumns, parseOrder, parsePrefer, parseSelect, pgErrorToApi, selectSql, WAITLIST_COLUMNS,
} from '../../plugins/waitlist/postgrest.ts';

const jwt = (payload: object) => `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

describe('local keys', () => {
  it('the anon key is a JWT-shaped constant for the anon role; the service key is random each time', () => {
    const parts = LOCAL_ANON_KEY.split('.');
    expect(parts).toHaveLength(3);
    expect(JSON.parse(Buffer.from(parts[1]!, 'base64url').toString())).toEqual({ iss: 'sitegen-local', role: 'anon' });
    const [a, b] = [newServiceKey(), newServiceKey()];
    expect(a).not.toBe(b);
    expect(JSON.parse(Buffer.from(a.split('.')[1]!, 'base64url').toString())).toEqual({ iss: 'sitegen-local', role: 'service_role' });
    expect(a.split('.')[2]!.length).toBeGreaterThanOrEqual(43); // 256 random bits
  });
});

describe('build guards (the waitlist plugin\'s config hook)', () => {
  const env = (vars: Record<string, string>) => ({ mode: 'build' as const, env: vars });
  it('refuses a service-role JWT or a secret key as SUPABASE_ANON_KEY, and accepts anon and publishable keys', () => {
    expect(anonKeyProblem(jwt({ role: 'service_role' }))).toContain('"service_role"');
    expect(anonKeyProblem('sb_secret_abc123')).toContain('secret key');
    expect(anonKeyProblem(jwt({ role: 'anon' }))).toBeNull();
    expect(anonKeyProblem('sb_publishable_abc123')).toBeNull();
    const refused = waitlistConfig(env({ SUPABASE_URL: 'https://p.supabase.co', SUPABASE_ANON_KEY: jwt({ role: 'service_role' }) }));
    expect(refused.errors?.[0]?.text).toMatch(/SUPABASE_ANON_KEY is a JWT for the role "service_role".*refusing/);
    expect(refused.define).toBeUndefined();
    const ok = waitlistConfig(env({ SUPABASE_URL: 'https://p.supabase.co', SUPABASE_ANON_KEY: jwt({ role: 'anon' }) }));
    expect(ok.errors ?? []).toEqual([]);
    expect(ok.csp).toEqual({ 'connect-src': ['https://p.supabase.co'] });
  });

  it('refuses SUPABASE_URL without a key, one that is not a URL, and plain http to another machine', () => {
    expect(waitlistConfig(env({ SUPABASE_URL: 'https://p.supabase.co' })).errors?.[0]?.text).toContain('SUPABASE_ANON_KEY is not');
    const key = jwt({ role: 'anon' });
    expect(waitlistConfig(env({ SUPABASE_URL: 'not a url', SUPABASE_ANON_KEY: key })).errors?.[0]?.text).toContain('is not a URL');
    expect(waitlistConfig(env({ SUPABASE_URL: 'http://p.supabase.co', SUPABASE_ANON_KEY: key })).errors?.[0]?.text).toContain('must be an https:// URL');
    expect(waitlistConfig(env({ SUPABASE_URL: 'http://127.0.0.1:54321', SUPABASE_ANON_KEY: key })).errors ?? []).toEqual([]);
  });

  it('warns loudly in CI when a build has no SUPABASE_URL', () => {
    expect(waitlistConfig(env({ CI: 'true' })).warnings?.[0]?.text).toContain('SUPABASE_URL IS NOT SET IN CI');
    expect(waitlistConfig(env({})).warnings).toEqual([]);
    expect(waitlistConfig({ mode: 'dev', env: { CI: 'true' } }).warnings).toEqual([]);
  });
});

describe('toCsv', () => {
  it('guards every formula lead character and leaves other text alone', () => {
    const csv = toCsv([{ id: 1, email: '+1@x.io', utm_source: '-2', utm_medium: '@SUM(A1)', utm_campaign: '\tx', utm_term: 'plain', metadata: {} }]);
    expect(csv.split('\r\n')[1]).toBe(`1,,'+1@x.io,'-2,'@SUM(A1),'\tx,plain,,,,{}`);
    // Quoted when it holds a `;`: semicolon-locale spreadsheets split cells there.
    expect(toCsv([{ id: 2, email: 'a;=cmd()@x.io' }]).split('\r\n')[1]).toBe('2,,"a;=cmd()@x.io",,,,,,,,');
    expect(toCsv([])).toBe('id,created_at,email,utm_source,utm_medium,utm_campaign,utm_term,utm_content,referrer,user_agent,metadata\r\n');
  });
});

describe('PostgREST dialect', () => {
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (error instanceof ApiError) return [error.status, error.body.code];
      throw error;
    }
    return 'accepted';
  };

  it('accepts only whitelisted columns in select, order and columns', () => {
    expect(parseSelect(null)).toEqual([...WAITLIST_COLUMNS]);
    expect(parseSelect('*')).toEqual([...WAITLIST_COLUMNS]);
    expect(parseSelect('email, created_at')).toEqual(['email', 'created_at']);
    for (const bad of ['*,x:pg_shadow(*)', 'email,"email"', 'alias:email', 'email->>0', 'pg_sleep(10)', 'email,']) {
      expect(refusal(() => parseSelect(bad))).toEqual([400, 'PGRST100']);
    }
    expect(parseOrder('created_at.desc.nullsfirst,id')).toEqual([
      { column: 'created_at', descending: true, nulls: 'first' }, { column: 'id', descending: false, nulls: null },
    ]);
    expect(refusal(() => parseOrder('created_at.desc;select'))).toEqual([400, 'PGRST100']);
    expect(refusal(() => parseOrder('random()'))).toEqual([400, 'PGRST100']);
    expect(parseInsertColumns('"email","utm_source"')).toEqual(['email', 'utm_source']);
    expect(refusal(() => parseInsertColumns('"email","oid"'))).toEqual([400, 'PGRST204']);
  });

  it('builds SQL whose only identifiers are quoted whitelisted columns', () => {
    expect(selectSql(['email'], [{ column: 'created_at', descending: false, nulls: null }]))
      .toBe(`select coalesce(json_agg(t), '[]')::text as body, count(*)::int as n from (select "email" from public.waitlist order by "created_at" asc limit $1::bigint offset $2::bigint) t`);
    expect(insertSql(['email', 'metadata'], null))
      .toBe('insert into public.waitlist ("email", "metadata") select "email", "metadata" from jsonb_populate_recordset(null::public.waitlist, $1::jsonb)');
  });

  it('reads Prefer from one list or several headers', () => {
    expect(parsePrefer('return=representation, count=exact')).toEqual({ returnRepresentation: true, countExact: true, missingDefault: false });
    expect(parsePrefer(['return=minimal', 'missing=default'])).toEqual({ returnRepresentation: false, countExact: false, missingDefault: true });
    expect(parsePrefer(undefined)).toEqual({ returnRepresentation: false, countExact: false, missingDefault: false });
  });

  it('maps Postgres errors to PostgREST statuses', () => {
    const status = (code: string, role: 'anon' | 'service_role' = 'anon') => pgErrorToApi({ code, message: 'm' }, role).status;
    expect([status('23505'), status('23514'), status('22001'), status('22P02'), status('23502')]).toEqual([409, 400, 400, 400, 400]);
    expect([status('42501', 'anon'), status('42501', 'service_role')]).toEqual([401, 403]);
    // Storage trouble is the server's: internal (XX) and system (58) errors are 5xx, never a client 400.
    expect([status('XX000'), status('XX001'), status('58P01'), status('58030')]).toEqual([500, 500, 500, 500]);
    expect(pgErrorToApi({ code: '23505', message: 'dup', detail: 'd' }, 'anon').body).toEqual({ code: '23505', message: 'dup', details: 'd', hint: null });
  });
});
