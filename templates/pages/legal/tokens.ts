// Fills {token} placeholders in legal copy with shared facts (company name, emails, dates, figures), so a
// fact written once in site.yaml or a page's front fields is never retyped in the prose.
// Inputs: any JSON-like content value and a map of token values. Output: the same shape, filled.
// Values are looked up as own properties only: {constructor} or {toString} is an unknown token (reported
// by validate()), never a function's source. Filled strings are rendered as text by React, which escapes them.

export type TokenValues = Record<string, string | number>;

/** Any {name} an author may mean as a token, `_` and `$` included, so {__proto__} is reported too. */
const TOKEN = /\{([A-Za-z_$][\w$]*)\}/g;

const known = (vars: TokenValues, name: string) => Object.hasOwn(vars, name);

/** Deep-copies a content value, replacing every {token} in its strings. Unknown tokens are left as written. */
export function fillTokens<T>(value: T, vars: TokenValues): T {
  if (typeof value === 'string') return value.replace(TOKEN, (m, name: string) => (known(vars, name) ? String(vars[name]) : m)) as T;
  if (Array.isArray(value)) return value.map((v) => fillTokens(v, vars)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTokens(v, vars)])) as T;
  return value;
}

/** Every {token} that `vars` does not know, with the field path it sits at (for validate()). */
export function unknownTokens(value: unknown, vars: TokenValues, path: (string | number)[] = []): { path: (string | number)[]; token: string }[] {
  if (typeof value === 'string') return [...value.matchAll(TOKEN)].filter((m) => !known(vars, m[1])).map((m) => ({ path, token: m[1] }));
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownTokens(v, vars, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => unknownTokens(v, vars, [...path, k]));
  return [];
}
