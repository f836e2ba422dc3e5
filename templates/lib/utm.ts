// First-touch UTM attribution for the session. The rule: the utm_* values of the page a visitor lands on are
// kept in sessionStorage (first touch: a later page with other utm values does not replace them); a sign-up
// stores the current page's utm values if its URL has any, else the session's first-touch values, else the
// form's own defaults. rememberUtm() runs on every page (from the header's script); utmFor() at sign-up.
export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];
export type UtmValues = Partial<Record<UtmKey, string>>;
const KEY = 'gg-utm';

function fromQuery(): UtmValues | null {
  const query = new URLSearchParams(window.location.search);
  const found = Object.fromEntries(UTM_KEYS.filter((k) => query.get(k)).map((k) => [k, query.get(k)!.slice(0, 256)]));
  return Object.keys(found).length ? found : null;
}

function stored(): UtmValues | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (!parsed || typeof parsed !== 'object') return null;
    return Object.fromEntries(UTM_KEYS.filter((k) => typeof (parsed as any)[k] === 'string').map((k) => [k, (parsed as any)[k] as string]));
  } catch { return null; }
}

/** Keeps the landing page's utm values for the session, unless an earlier page already did. */
export function rememberUtm(): void {
  const here = fromQuery();
  if (!here || stored()) return;
  try { sessionStorage.setItem(KEY, JSON.stringify(here)); } catch { /* storage off: the current page still counts */ }
}

/** The utm values a sign-up on this page stores (see the rule above). */
export function utmFor(defaults: UtmValues = {}): UtmValues {
  return fromQuery() ?? stored() ?? defaults;
}
