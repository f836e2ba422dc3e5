// Fills {tokens} in company copy with facts from content/site.yaml, so a launch wording, price or response time
// is written once and every page that mentions it stays in step. Input: validated page data and the site;
// output: the same data with tokens replaced, or the list of tokens nobody knows (reported by validate()).
// Facts are looked up as own properties only: {constructor} or {toString} is an unknown token, never a
// function's source. Into rendered HTML (the manifesto body) values go HTML-escaped: site.yaml is data.
import type { Site } from '../../schemas/site.ts';
import { launchTokens } from '../../lib/launch.ts';

/** Any {name} an author may mean as a token, `_` and `$` included, so {__proto__} is reported too. */
const TOKEN = /\{([A-Za-z_$][\w$]*)\}/g;

const known = (facts: Record<string, string>, name: string) => Object.hasOwn(facts, name);

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** The facts copy may refer to, by token name. */
export function factsOf(site: Site): Record<string, string> {
  return {
    name: site.name,
    company: site.company,
    ...launchTokens(site),
    premiumPrice: site.premiumPrice,
    supportPaid: site.supportResponse.paid,
    supportFreemium: site.supportResponse.freemium,
  };
}

/** Replaces tokens in every string of a value (objects and lists are copied, never changed in place). */
export function fillFacts<T>(value: T, facts: Record<string, string>): T {
  if (typeof value === 'string') return value.replace(TOKEN, (m, name: string) => (known(facts, name) ? facts[name] : m)) as T;
  if (Array.isArray(value)) return value.map((v) => fillFacts(v, facts)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillFacts(v, facts)])) as T;
  }
  return value;
}

/** Replaces tokens in rendered HTML (a Markdown body), each value escaped so it stays text. */
export function fillFactsHtml(html: string, facts: Record<string, string>): string {
  return html.replace(TOKEN, (m, name: string) => (known(facts, name) ? escapeHtml(String(facts[name])) : m));
}

/** Every token with no fact behind it, with the field path where it was written. */
export function unknownTokens(value: unknown, facts: Record<string, string>, path: (string | number)[] = []): { path: (string | number)[]; token: string }[] {
  if (typeof value === 'string') return [...value.matchAll(TOKEN)].filter((m) => !known(facts, m[1])).map((m) => ({ path, token: m[0] }));
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownTokens(v, facts, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => unknownTokens(v, facts, [...path, k]));
  return [];
}
