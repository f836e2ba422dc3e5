// {token} placeholders: the one rule for every page group's copy, YAML and Markdown alike. A token is
// `{name}` (letters, digits, `_`, `$`; not starting with a digit), filled from the facts the page group
// passes (site.yaml's launch date, company name, response times, a legal page's own fields). Facts are
// looked up as own properties only, so {constructor}, {toString} or {__proto__} are unknown tokens, never a
// function's source. An unknown token is an error for validate() at the field that holds it (YAML) or at
// its text (Markdown); it is never published as written.
// In Markdown a token is one piece of text (`tokenMarkdown`): without it, {__proto__} would render as
// "{<strong>proto</strong>}" and escape both the filling and the unknown-token check.
import type { MarkedExtension } from 'marked';

export type TokenValues = Record<string, string | number>;

/** Any {name} an author may mean as a token, `_` and `$` included, so {__proto__} is reported too. */
const TOKEN = /\{([A-Za-z_$][\w$]*)\}/g;

const known = (vars: TokenValues, name: string) => Object.hasOwn(vars, name);

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** Deep-copies a content value, replacing every known {token} in its strings (React escapes them on render). */
export function fillTokens<T>(value: T, vars: TokenValues): T {
  if (typeof value === 'string') return value.replace(TOKEN, (m, name: string) => (known(vars, name) ? String(vars[name]) : m)) as T;
  if (Array.isArray(value)) return value.map((v) => fillTokens(v, vars)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTokens(v, vars)])) as T;
  return value;
}

/** Replaces tokens in rendered HTML (a Markdown body), each value escaped so it stays text. */
export function fillTokensHtml(html: string, vars: TokenValues): string {
  return html.replace(TOKEN, (m, name: string) => (known(vars, name) ? escapeHtml(String(vars[name])) : m));
}

export interface UnknownToken {
  /** The field path where it was written ([] for a Markdown body or a plain string). */
  path: (string | number)[];
  /** As written: "{nope}". */
  token: string;
}

/** Every token with no value behind it, with the field path where it was written. */
export function unknownTokens(value: unknown, vars: TokenValues, path: (string | number)[] = []): UnknownToken[] {
  if (typeof value === 'string') return [...value.matchAll(TOKEN)].filter((m) => !known(vars, m[1])).map((m) => ({ path, token: m[0] }));
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownTokens(v, vars, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => unknownTokens(v, vars, [...path, k]));
  return [];
}

/** A marked extension: `{name}` in a Markdown body is text as written, whatever Markdown it looks like. */
export const tokenMarkdown: MarkedExtension = {
  extensions: [{
    name: 'siteToken',
    level: 'inline',
    start(src: string) { const i = src.indexOf('{'); return i < 0 ? undefined : i; },
    tokenizer(src: string) {
      const m = /^\{[A-Za-z_$][\w$]*\}/.exec(src);
      return m ? { type: 'siteToken', raw: m[0], text: m[0] } : undefined;
    },
    renderer(token) { return token.text as string; },
  }],
};
