// check: every internal href/src in the output must resolve to a route, an alias or a file, and every
// `#fragment` link to a page must name an element id on that page (same-page `#x` and cross-page `/p/#x`).
// Links are extracted per page as it is rendered (small lists), and resolved once all outputs are known.
// A page's list carries its link targets (path, with the fragment when there is one) and its own element ids as
// `id:<id>` entries (a link with a URL scheme is never kept, so the two cannot be confused).
import type { Location } from '../core/types.ts';
import { nearPath, pageOfFile, pageOfName } from './linkNear.ts';
import { closest } from '../core/didYouMean.ts';

const ID = 'id:', TWICE = '\u0000twice'; // an id entry, and after one: more than one element of the page has it
/** Marks a page that has what a strict CSP blocks: `csp:style`, `csp:script`, `csp:handler`, and `csp:frame <origin>`,
 *  `csp:script <origin>`, `csp:img <origin>`, `csp:form <origin>` for a remote <iframe>, <script>, <img> or
 *  <form action> (cspWarnings.ts). */
export const CSP_MARK = 'csp:';
const WS = /\s/;

/**
 * Calls `fn` for each ` href="…"`, ` src="…"` and ` id="…"` of the HTML: exactly the matches of
 * /\s(href|src|id)="([^"]*)"/g, found from each `="` instead (indexOf runs several times faster than that
 * pattern's scan, which tried every character as the whitespace: at 10,000 pages the scan was two thirds
 * of the link extraction, itself as long as rendering the pages).
 */
export function forEachLinkAttr(html: string, fn: (name: 'href' | 'src' | 'id' | 'srcset' | 'action', value: string, at: number) => void, inline?: (kind: 'style' | 'handler') => void): void {
  for (let at = html.indexOf('="'); at >= 0;) {
    // The attribute names end in different letters, so at most one fits before this `="`.
    const last = html.charCodeAt(at - 1);
    const name = last === 102 /* f */ ? 'href' : last === 99 /* c */ ? 'src' : last === 100 /* d */ ? 'id' : last === 116 /* t */ ? 'srcset' : last === 110 /* n */ ? 'action' : null;
    // React writes srcset as "srcSet" (HTML attribute names are case-insensitive).
    const named = name === 'srcset' ? /^src[sS]et$/.test(html.slice(at - 6, at)) : !!name && html.startsWith(name, at - name.length);
    if (name && at > name.length && named && WS.test(html.charAt(at - name.length - 1))) {
      const end = html.indexOf('"', at + 2);
      if (end < 0) return; // no closing quote: neither this nor any later attribute can match
      fn(name, html.slice(at + 2, end), at);
      at = html.indexOf('="', end + 1);
    } else {
      if (inline) inlineAttr(html, at, last, inline);
      at = html.indexOf('="', at + 1);
    }
  }
}

/** Reports a ` style="` or an ` on…="` event handler attribute ending at `at` (its name read backwards, at most 24 letters). */
function inlineAttr(html: string, at: number, last: number, inline: (kind: 'style' | 'handler') => void): void {
  if (last === 101 /* e */ && at > 5 && html.startsWith('style', at - 5) && WS.test(html.charAt(at - 6))) { inline('style'); return; }
  let k = at - 1;
  for (let c; k >= 0 && at - k <= 24 && (c = html.charCodeAt(k)) >= 97 && c <= 122; k--);
  const start = k + 1;
  if (at - start > 2 && html.charCodeAt(start) === 111 /* o */ && html.charCodeAt(start + 1) === 110 /* n */ && WS.test(html.charAt(k))) inline('handler');
}

/** Whether the HTML has an inline <script> that runs (no src; no type, or a JavaScript or module type). */
const RUNS = new Set(['', 'module', 'importmap', 'text/javascript', 'application/javascript']);
function hasInlineScript(html: string): boolean {
  // '<scr' is found faster than '<script' (V8 scans a page for it in less than half the time).
  // Each tag is read once, up to its '>': a '<script' inside the tag before is not read again, so a page
  // of unclosed look-alikes costs one pass, not a pass each.
  let end = -1;
  for (let at = html.indexOf('<scr'); at >= 0; at = html.indexOf('<scr', at + 4)) {
    if (at < end || !html.startsWith('ipt', at + 4)) continue;
    end = html.indexOf('>', at);
    if (end < 0) return false;
    if (end > at + 7 && !WS.test(html.charAt(at + 7))) continue; // <scripts…>, not a script element
    const tag = html.slice(at + 7, end); // short: the attributes of the tag
    const src = tag.indexOf('src=');
    if (src > 0 && WS.test(tag.charAt(src - 1))) continue;
    const type = tag.indexOf('type="');
    if (type < 1 || !WS.test(tag.charAt(type - 1))) return true;
    const close = tag.indexOf('"', type + 6);
    if (RUNS.has(tag.slice(type + 6, close < 0 ? undefined : close).trim().toLowerCase())) return true;
  }
  return false;
}

// Most values hold no character reference: they are returned as they are (a tenth of the link check's
// time at 10,000 pages went to replace() calls that found nothing).
const decodeAttr = (s: string) => (s.includes('&') ? s.replace(/&(amp|quot|lt|gt|#39);/g, (_m, e: string) => ({ amp: '&', quot: '"', lt: '<', gt: '>', '#39': "'" })[e] ?? '') : s);
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The elements whose remote `src` a strict CSP blocks unless its directive names the origin. */
const REMOTE_KINDS: Record<string, 'frame' | 'script' | 'img' | 'form'> = { iframe: 'frame', script: 'script', img: 'img', form: 'form' };

/** Internal link targets of one page (query dropped, fragment kept), external and special schemes skipped,
 *  plus the page's element ids as `id:<id>` and what a strict CSP blocks on it as `csp:<kind>`. */
export function extractLinks(html: string): string[] {
  const out = new Set<string>();
  let nextOpen = -2, lastOpen = -1; // remote(): the first '<' not yet passed (-2: not looked for), the last passed
  forEachLinkAttr(html, (name, value, at) => {
    if (name === 'id') { if (value) { const id = ID + decodeAttr(value); out.add(out.has(id) ? id + TWICE : id); } return; } // (a second one: marked)
    // Each candidate of a srcset ("a.avif 640w, b.avif 1280w") is a link of its own.
    if (name === 'srcset') { for (const c of decodeAttr(value).split(',')) addLink(c.trim().split(/\s/, 1)[0]); return; }
    if (name === 'src' && (value.startsWith('//') || /^https?:/i.test(value))) { remote(decodeAttr(value), at); return; }
    // A form's action: a remote one is marked for the CSP (form-action); a local one may be a server's endpoint, not a page.
    if (name === 'action') { if (value.startsWith('//') || /^https?:/i.test(value)) remote(decodeAttr(value), at); return; }
    addLink(decodeAttr(value));
  }, (kind) => out.add(CSP_MARK + kind));
  if (hasInlineScript(html)) out.add(CSP_MARK + 'script');
  return [...out];

  /** A remote `src` of an <iframe>, <script> or <img>, or `action` of a <form>: `csp:<kind> <origin>`, for the CSP to allow or warn. */
  function remote(url: string, at: number): void {
    // The tag's '<': the last one before `at`. The attributes come in order, so the '<'s are read forward
    // once for the whole page, each found once (the next one past `at` is kept for the next call).
    if (nextOpen === -2) nextOpen = html.indexOf('<');
    while (nextOpen >= 0 && nextOpen < at) { lastOpen = nextOpen; nextOpen = html.indexOf('<', nextOpen + 1); }
    const open = lastOpen;
    if (open < 0) return;
    let end = open + 1;
    while (end < at && end - open <= 7 && /[a-zA-Z]/.test(html.charAt(end))) end++;
    const kind = REMOTE_KINDS[html.slice(open + 1, end).toLowerCase()];
    if (!kind) return;
    try { out.add(`${CSP_MARK}${kind} ${new URL(url.startsWith('//') ? `https:${url}` : url).origin}`); } catch { /* not a URL */ }
  }

  function addLink(raw: string): void {
    // (no array or pattern per link where a character answers: a docs sidebar is 1,000,000 links at 1,000 pages)
    if (!raw || (raw.charCodeAt(0) === 47 ? raw.charCodeAt(1) === 47 : SCHEME.test(raw))) return; // '//host', 'x:'
    const hash = raw.indexOf('#'), query = raw.indexOf('?');
    const cut = query >= 0 && (hash < 0 || query < hash) ? query : hash;
    const p = cut < 0 ? raw : raw.slice(0, cut);
    const fragment = hash < 0 ? '' : raw.slice(hash + 1);
    // "#" and "#top" scroll to the top in every browser; ":~:" is a text fragment, not an id.
    const checked = fragment && fragment !== 'top' && !fragment.startsWith(':~:');
    if (p || checked) out.add(checked ? `${p}#${fragment}` : p);
  }
}

export interface LinkTargets {
  /** Every URL path that resolves: route paths, alias paths, files in the output (base-less). */
  has(p: string): boolean;
  /** The site's base ("/repo/"): links must start with it, and it is taken off before `has`. */
  base?: string;
  /** The route and alias paths (base-less), for a broken link's did-you-mean. */
  paths?: () => Iterable<string>;
  /** The drafts the build left out, file by slug: a broken link whose last part is one is told so. */
  drafts?: ReadonlyMap<string, string>;
  /** The path of the page made from a content file (the first route whose source it is). */ pageOf?: (file: string) => string | undefined;
}

export interface PageLinks {
  page: string;
  source: string | null;
  links: string[];
}

/** One page's use of a broken link: the link as the page has it, and where its source writes it (once
 *  located: pipeline/links.ts). */
export interface LinkUse { page: string; source: string | null; link: string; at?: Location; /** The link as its source writes it, when that is without the site's base (Markdown's "/x/", a template's href('/x'), served as "/repo/x/"). */ written?: string; /** Later places of its source that write it too. */ also?: Location[] }

/** What would fix a broken path: the site's base in front, the other trailing-slash form, the URL of the page
 *  whose Markdown file it names, or a page path a typo away (linkNear.ts). */
export type LinkFix = { kind: 'base'; base: string } | { kind: 'draft'; file: string } | { kind: 'slash'; to: string } | { kind: 'noSlash'; to: string } | { kind: 'page' | 'near' | 'relative' | 'twice'; to: string } | { kind: 'named'; to: string; file: string };

/**
 * A broken link, as data: a path that is no route, alias or file (`resolved`: the base-less path it names,
 * `outside`: under a base, it misses the base), or a `#fragment` that names no id on its page. Messages
 * are made from it at the end (linkMessages.ts), after the uses are located in their sources.
 */
export type BrokenLink =
  | { kind: 'path'; resolved: string; fix: LinkFix | null; uses: LinkUse[]; /** The site's base, which a fix's path has. */ base?: string }
  | { kind: 'fragment'; target: string; fragment: string; uses: LinkUse[]; /** The id is there, on more than one element. */ twice?: true; /** An id of the page a typo away. */ near?: string; /** Else the page's first few ids, to choose from. */ ids?: string[] };

/**
 * A link as a base-less site path (how routes and targets are written). Under a base, a link resolves only
 * inside it (relative links against the page's served URL); one outside it comes back marked with a leading
 * NUL, so it never matches and its report can say why.
 */
function resolve(pg: PageLinks, link: string, base = '/'): string {
  const served = link.startsWith('/') ? link : new URL(link, `http://x${base}${pg.page.slice(1)}`).pathname;
  return base === '/' ? served : served.startsWith(base) ? served.slice(base.length - 1) : `\0${served}`;
}

const useOf = (pg: PageLinks, link: string): LinkUse => ({ page: pg.page, source: pg.source, link });

/** A relative link written as if from the page's folder (`./faq/` on /reference/api/, meaning /reference/faq/):
 *  page URLs end with "/", so it resolves one folder deeper. The page it meant, when that is one. */
function folderUp(use: LinkUse, targets: LinkTargets, base: string): LinkFix | null {
  if (use.link.startsWith('/') || !use.page.endsWith('/') || use.page === '/') return null;
  const parent = use.page.slice(0, use.page.slice(0, -1).lastIndexOf('/') + 1);
  const meant = resolve({ page: parent, source: null, links: [] }, use.link, base);
  return !meant.startsWith('\0') && answers(targets, meant) ? { kind: 'relative', to: meant } : null;
}

/** Whether an entry of a links list is a link with a path (not an id, a same-page fragment or a CSP mark). */
export const hasPath = (entry: string): boolean => !(entry.startsWith(ID) || entry.startsWith('#') || entry.startsWith(CSP_MARK));

/** Whether a target answers a resolved path, as written or decoded. */
function answers(targets: LinkTargets, abs: string): boolean {
  if (targets.has(abs)) return true; // most links: no decoding needed
  try { return targets.has(decodeURI(abs)); } catch { return false; }
}

/** The page a fragment link (its `#` at `hash`) names, as a base-less path. */
const fragmentTarget = (pg: PageLinks, entry: string, hash: number, base: string): string =>
  hash === 0 ? pg.page : resolve(pg, entry.slice(0, hash), base).replace(/index\.html$/, '');

/** Links whose path is no route, alias or file; with `hints` false, without what would fix them (a yes-or-no check). */
export function brokenPaths(pages: PageLinks[], targets: LinkTargets, hints = true): BrokenLink[] {
  const broken = new Map<string, { pages: Set<PageLinks>; uses: LinkUse[] }>();
  const base = targets.base ?? '/';
  for (const pg of pages) {
    for (const entry of pg.links) {
      if (!hasPath(entry)) continue;
      const hash = entry.indexOf('#');
      const link = hash < 0 ? entry : entry.slice(0, hash);
      const abs = resolve(pg, link, base);
      if (answers(targets, abs)) continue;
      let b = broken.get(abs);
      if (!b) broken.set(abs, (b = { pages: new Set(), uses: [] }));
      if (!b.pages.has(pg)) { b.pages.add(pg); b.uses.push(useOf(pg, link)); }
    }
  }
  const budget = { typos: hints ? 10 : 0 };
  return [...broken].map(([abs, { uses }]): BrokenLink => {
    // The base twice ("/repo/repo/x/"): the path without one of them is a page (href() given a URL that had it).
    const once = base !== '/' && abs.startsWith(base) ? abs.slice(base.length - 1) : null;
    // A root link without the base: the base is the fix when the path names a page under it; else a path a
    // typo away, if any (adding the base alone would leave the link broken).
    const fix: LinkFix | null = abs.startsWith('\0') ? (answers(targets, abs.slice(1)) ? { kind: 'base', base } : nearPath(abs.slice(1), targets, budget))
      : once && answers(targets, once) ? { kind: 'twice', to: once }
      : !abs.endsWith('/') && targets.has(abs + '/') ? { kind: 'slash', to: `${abs}/` }
      : abs.endsWith('/') && abs.length > 1 && targets.has(abs.slice(0, -1)) ? { kind: 'noSlash', to: abs.slice(0, -1) }
      : folderUp(uses[0]!, targets, base) ?? pageOfFile(uses[0]!, targets) ?? pageOfName(uses[0]!, abs, targets) ?? nearPath(abs, targets, budget);
    // A path to link to, as it is served: under a base, with it (a Markdown link written so keeps it as it is).
    if (fix && 'to' in fix && base !== '/') fix.to = base + fix.to.slice(1);
    return { kind: 'path', resolved: abs, fix, uses, base };
  });
}

/** `#fragment` links that name no element id on their page: same-page (`#x`) and to another page of `pages`
 *  (`/post/#x`, `../post/#x`, `/post/index.html#x`), with the id a typo away when there is one. Links to other
 *  files or aliases are not checked (their ids are unknown), nor are pages outside `pages`. */
export function brokenAnchors(pages: PageLinks[], base = '/'): BrokenLink[] {
  const ids = new Map<string, Set<string>>();
  for (const pg of pages) ids.set(pg.page, anchorsOf(pg.links).ids);
  const broken = new Map<string, BrokenLink & { kind: 'fragment' }>(); let typos = 20; // (ids a typo away: for the first few)
  for (const pg of pages) {
    for (const entry of anchorsOf(pg.links).fragmentLinks) {
      const hash = entry.indexOf('#');
      const target = fragmentTarget(pg, entry, hash, base);
      const have = ids.get(target) ?? ids.get(safeDecode(target));
      if (!have) continue;
      const fragment = entry.slice(hash + 1);
      const id = have.has(fragment) ? fragment : have.has(safeDecode(fragment)) ? safeDecode(fragment) : null;
      if (id !== null && !have.has(id + TWICE)) continue; // (an id two elements have: a browser goes to the first)
      const key = `${target}#${fragment}`;
      let b = broken.get(key);
      const near = !b && id === null && have.size <= 2_000 && typos-- > 0 ? closest(safeDecode(fragment), [...have].filter((x) => !x.endsWith(TWICE))) : undefined;
      const some = !b && id === null && !near ? firstIds(have) : [];
      if (!b) broken.set(key, (b = { kind: 'fragment', target, fragment, uses: [], ...(id !== null ? { twice: true as const } : {}), ...(near ? { near } : {}), ...(some.length ? { ids: some } : {}) }));
      b.uses.push(useOf(pg, entry));
    }
  }
  return [...broken.values()];
}
/** A page's first seven ids in its order (one an id two elements have once), for a hint to choose from. */
function firstIds(have: Set<string>): string[] { const out: string[] = []; for (const x of have) { if (!x.endsWith(TWICE)) out.push(x); if (out.length === 7) break; } return out; }

/** Whether a link of a page that passed the last check may fail now: its path answers no target, or its
 *  fragment names a page in `changed` (whose ids may differ). */
export function linkMayFail(pg: PageLinks, entry: string, targets: LinkTargets, changed: Set<string>): boolean {
  const hash = entry.indexOf('#');
  const abs = resolve(pg, hash < 0 ? entry : entry.slice(0, hash), targets.base ?? '/');
  if (!answers(targets, abs)) return true;
  if (hash < 0) return false;
  const target = abs.replace(/index\.html$/, '');
  return changed.has(target) || changed.has(safeDecode(target));
}

/** The pages a page's fragment links name (base-less paths, as brokenAnchors finds them). */
export function fragmentTargets(pg: PageLinks, base = '/'): string[] {
  return anchorsOf(pg.links).fragmentLinks.flatMap((entry) => {
    const target = fragmentTarget(pg, entry, entry.indexOf('#'), base);
    return [target, safeDecode(target)];
  });
}

/** A page's ids and its links with a fragment, worked out once per links list (dev keeps lists of
 *  unchanged pages, so a rebuild only splits the lists of pages that changed). */
const anchorCache = new WeakMap<string[], { ids: Set<string>; fragmentLinks: string[] }>();
function anchorsOf(links: string[]) {
  let a = anchorCache.get(links);
  if (!a) {
    a = { ids: new Set(), fragmentLinks: [] };
    for (const l of links) {
      if (l.startsWith(ID)) a.ids.add(l.slice(ID.length));
      else if (l.includes('#')) a.fragmentLinks.push(l);
    }
    anchorCache.set(links, a);
  }
  return a;
}

export function safeDecode(s: string): string {
  try { return decodeURIComponent(s); } catch { return s; }
}
