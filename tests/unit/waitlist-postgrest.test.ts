// The pure parts of the waitlist backend: keys, the PostgREST dialect, CSV.
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/waitlist/export.ts';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY, roleForKey } from '../../src/waitlist/keys.ts';
import {
  ApiError, insertSql, parseInsertColumns, parseOrder, parsePrefer, parseSelect, pgErrorToApi, selectSql, WAITLIST_COLUMNS,
} from '../../src/waitlist/postgrest.ts';

describe('local keys', () => {
  it('are JWT-shaped and map to their roles', () => {
    for (const [key, role] of [[LOCAL_ANON_KEY, 'anon'], [LOCAL_SERVICE_ROLE_KEY, 'service_role']] as const) {
      const parts = key.split('.');
      expect(parts).toHaveLength(3);
      for (const part of parts) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(JSON.parse(Buffer.from(parts[1]!, 'base64url').toString())).toEqual({ iss: 'sitegen-local', role });
      expect(roleForKey(key)).toBe(role);
    }
    expect(roleForKey(undefined)).toBeNull();
    expect(roleForKey('')).toBeNull();
    expect(roleForKey(LOCAL_ANON_KEY + 'x')).toBeNull();
  });
});

describe('toCsv', () => {
  it('guards every formula lead character and leaves other text alone', () => {
    const csv = toCsv([{ id: 1, email: '+1@x.io', utm_source: '-2', utm_medium: '@SUM(A1)', utm_campaign: '\tx', utm_term: 'plain', metadata: {} }]);
    expect(csv.split('\r\n')[1]).toBe(`1,,'+1@x.io,'-2,'@SUM(A1),'\tx,plain,,,,{}`);
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
    expect(pgErrorToApi({ code: '23505', message: 'dup', detail: 'd' }, 'anon').body).toEqual({ code: '23505', message: 'dup', details: 'd', hint: null });
  });
});
