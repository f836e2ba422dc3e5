// The request target as the host sees it: the decoded path, cleaned to '/'-separated segments (empty and
// '.' segments dropped, backslashes read as slashes as browsers read them, '..' and NUL refused), and the
// query. Every Location the host sends is built from these segments, so it is always one same-origin
// path: `/%2F%2Flegal` → `/legal/`, never `//legal/` (which a browser reads as another host).

export interface RequestPath {
  /** Clean decoded path: starts with exactly one '/', keeps a trailing '/' ("/about/", "/robots.txt", "/"). */
  path: string;
  segments: string[];
  trailingSlash: boolean;
  /** The raw query with its '?', or ''. */
  search: string;
}

/** Parses a request target; null when it cannot name a file (malformed encoding, '..', NUL, `*`). */
export function parseRequestPath(target: string | undefined): RequestPath | null {
  let raw = target ?? '/';
  if (!raw.startsWith('/')) {
    // Absolute form (`GET http://host/path`), which HTTP/1.1 servers must accept; anything else is not a path.
    if (!/^https?:\/\//i.test(raw)) return null;
    try { const u = new URL(raw); raw = u.pathname + u.search; } catch { return null; }
  }
  const q = raw.search(/[?#]/);
  const search = q >= 0 && raw[q] === '?' ? raw.slice(q).split('#')[0] : '';
  let decoded: string;
  try { decoded = decodeURIComponent(q >= 0 ? raw.slice(0, q) : raw); } catch { return null; }
  if (decoded.includes('\0')) return null;
  decoded = decoded.replace(/\\/g, '/');
  const segments = decoded.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return null;
  const trailingSlash = segments.length > 0 && decoded.endsWith('/');
  return { path: joinPath(segments, trailingSlash, (s) => s), segments, trailingSlash, search };
}

function joinPath(segments: string[], trailingSlash: boolean, encode: (s: string) => string): string {
  return segments.length ? '/' + segments.map(encode).join('/') + (trailingSlash ? '/' : '') : '/';
}

/** The URL-encoded form of a clean path, for a Location header. */
export function encodePath(segments: string[], trailingSlash: boolean): string {
  return joinPath(segments, trailingSlash, encodeURIComponent);
}

/**
 * A redirect target from _redirects, made safe to send: a path keeps exactly one leading slash (no
 * protocol-relative `//host`, no `/\host`); an absolute http(s) URL the site's author wrote is kept.
 */
export function safeRedirectTarget(target: string): string {
  if (/^https?:\/\//i.test(target)) return target;
  return '/' + target.replace(/^[/\\]+/, '');
}
