// redirectRules: _redirects as Netlify and Cloudflare Pages read it, for the preview and dev servers
// (server/host/rules.ts): exact paths, whole-segment placeholders and a last splat, the first matching rule
// winning with its status. hostfiles.ts writes the file; this reads it.

/** A redirect of _redirects: where to, and its status (the third column, 301 when none or not a redirect's). */
export interface Redirect { to: string; status: 301 | 302 | 303 | 307 | 308 }
const STATUSES = new Set([301, 302, 303, 307, 308]);

/** How one rule of _redirects reads a path. */
type RuleMatch = { kind: 'exact'; from: string } | { kind: 'pattern'; segments: string[]; splat: boolean };

/** A rule's `from`: a path, or a pattern of whole-segment placeholders (`:year`) and a last `*` (the splat). */
function ruleMatch(from: string): RuleMatch | null {
  const segments = from.split('/');
  const splat = segments[segments.length - 1] === '*';
  if (splat) segments.pop();
  const placeholders = segments.some((x) => x.startsWith(':') && x.length > 1);
  if (segments.some((x) => x.includes('*'))) return null; // a star inside a path: no host agrees on it
  return splat || placeholders ? { kind: 'pattern', segments, splat } : { kind: 'exact', from };
}

/** A rule's target: a path or a URL (`/x/`, `https://…`), not a query condition (`id=:id`). */
const isTarget = (t: string) => t.startsWith('/') || /^[a-z][a-z0-9+.-]*:\/\//i.test(t);

/** One line of _redirects: its old path, target and status (301 when none; "302!" forced is 302), and whether
 *  it has conditions (a query's before the target, `/store id=:id /blog/:id`; others after the status,
 *  `Country=au`), which make it apply to some requests of its path only; null for a blank line or a comment. */
export interface Rule { from: string; to: string; status: number; conditions: boolean }
export function readRule(line: string): Rule | null {
  const t = line.trim();
  if (!t || t.startsWith('#')) return null;
  const [from, to, code, ...rest] = t.split(/\s+/);
  if (!from || !to) return null;
  const conditions = !isTarget(to) || rest.length > 0 || (code !== undefined && code.includes('='));
  return { from, to, status: code === undefined ? 301 : Number(code.endsWith('!') ? code.slice(0, -1) : code), conditions };
}

/** Whether a status is a redirect's (a rule of another, a 200 rewrite or a 404, is no redirect). */
export const isRedirect = (status: number): status is Redirect['status'] => STATUSES.has(status);

/** Whether a rule's path is one path, not a pattern of placeholders or a splat (as the host matches it). */
export const isExactPath = (p: string) => ruleMatch(p)?.kind === 'exact';

/** The values a pattern takes from `path` (its placeholders, and `splat`), or null. Segment by segment: linear. */
function matchPattern(m: Extract<RuleMatch, { kind: 'pattern' }>, path: string): Map<string, string> | null {
  const parts = path.split('/');
  // (/news/2024 and /news/2024/ are one path to a pattern without a splat, as hosts match them)
  if (!m.splat && parts.length === m.segments.length + 1 && parts[parts.length - 1] === '') parts.pop();
  if (m.splat ? parts.length < m.segments.length : parts.length !== m.segments.length) return null;
  const values = new Map<string, string>();
  for (let i = 0; i < m.segments.length; i++) {
    const want = m.segments[i]!, got = parts[i]!;
    if (want.startsWith(':') && want.length > 1) { if (!got) return null; values.set(want.slice(1), got); }
    else if (want !== got) return null;
  }
  if (m.splat) values.set('splat', parts.slice(m.segments.length).join('/'));
  return values;
}

/** `to` with each `:name` the match has replaced by its value (others left as written). */
function fillTarget(to: string, values: Map<string, string>): string {
  let out = '';
  for (let i = 0; i < to.length;) {
    if (to[i] === ':') {
      let j = i + 1;
      while (j < to.length && /[A-Za-z0-9_]/.test(to[j]!)) j++;
      const v = j > i + 1 ? values.get(to.slice(i + 1, j)) : undefined;
      if (v !== undefined) { out += v; i = j; continue; }
    }
    out += to[i++];
  }
  return out;
}

/** _redirects as hosts read it: for a path, the first rule that matches it wins, with its status (301 when
 *  none; "302!" forced is 302). A rule matches its path exactly, or is a pattern of whole-segment placeholders
 *  (`/news/:year/:slug`) and a last `*` (`/blog/*`), whose values `to` takes (`:year`, `:splat`). A rule of
 *  another status (a 200 rewrite, a 404) is no redirect here, but a later rule still does not apply to what it
 *  matches; a rule with conditions (a query's, a country's) is passed over, as it applies to some requests only. */
export function parseRedirectsFile(text: string): { get(path: string): Redirect | undefined; exact: Map<string, Redirect> } {
  const exact = new Map<string, Redirect>();
  const first = new Map<string, number>(); // each exact path's first rule (a rewrite's too)
  const patterns: { at: number; match: Extract<RuleMatch, { kind: 'pattern' }>; to: string; status: number }[] = [];
  text.split('\n').forEach((line, at) => {
    const r = readRule(line);
    // (a rule with conditions is not served, and takes no path from later rules)
    const m = r && !r.conditions ? ruleMatch(r.from) : null;
    if (!r || !m) return;
    if (m.kind === 'pattern') { patterns.push({ at, match: m, to: r.to, status: r.status }); return; }
    if (first.has(r.from)) return;
    first.set(r.from, at);
    if (isRedirect(r.status)) exact.set(r.from, { to: r.to, status: r.status });
  });
  return {
    exact,
    get(path) {
      const at = first.get(path) ?? Infinity;
      for (const p of patterns) {
        if (p.at > at) break;
        const values = matchPattern(p.match, path);
        if (values) return isRedirect(p.status) ? { to: fillTarget(p.to, values), status: p.status } : undefined;
      }
      return exact.get(path);
    },
  };
}
