// check: every internal href/src in the output must resolve to a route, an alias or a file.
// Links are extracted per page as it is rendered (small lists), and resolved once all outputs are known.
import type { Message } from './types.ts';
import { message, fileLocation } from './errors.ts';

const ATTR = /\s(?:href|src)="([^"]*)"/g;

/** Internal link targets of one page, without query or fragment; external and special schemes skipped. */
export function extractLinks(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(ATTR)) {
    const raw = m[1].replace(/&amp;/g, '&');
    if (!raw || raw.startsWith('#') || raw.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(raw)) continue;
    const p = raw.split(/[?#]/)[0];
    if (p) out.add(p);
  }
  return [...out];
}

export interface LinkTargets {
  /** Every URL path that resolves: route paths, alias paths, files in the output (base-less). */
  has(p: string): boolean;
  /** The site's base ("/repo/"): links must start with it, and it is taken off before `has`. */
  base?: string;
}

export function makeTargets(paths: Iterable<string>, files: Iterable<string>, base = '/'): LinkTargets {
  const set = new Set<string>(paths);
  for (const f of files) {
    set.add('/' + f);
    if (f.endsWith('.html')) set.add('/' + f.slice(0, -5));
  }
  return { has: (p) => set.has(p), base };
}

export interface PageLinks {
  page: string;
  source: string | null;
  links: string[];
}

/** Pages that share a broken link (a layout or template link) are reported once, with a few examples. */
const GROUP_AFTER = 3;

export function checkLinks(pages: PageLinks[], targets: LinkTargets): Message[] {
  const broken = new Map<string, { pg: PageLinks; link: string }[]>();
  const base = targets.base ?? '/';
  for (const pg of pages) {
    for (const link of pg.links) {
      const served = link.startsWith('/') ? link : new URL(link, `http://x${base}${pg.page.slice(1)}`).pathname;
      // Under a base, a link resolves only inside it; the target is looked up without it.
      const abs = base === '/' ? served : served.startsWith(base) ? served.slice(base.length - 1) : `\0${served}`;
      let decoded = abs;
      try { decoded = decodeURI(abs); } catch { /* keep raw */ }
      if (targets.has(abs) || targets.has(decoded)) continue;
      if (!broken.has(abs)) broken.set(abs, []);
      broken.get(abs)!.push({ pg, link });
    }
  }
  const errors: Message[] = [];
  for (const [abs, uses] of broken) {
    const hint = abs.startsWith('\0') ? { hint: `The site is served under ${base}: write links with href() from "sitegen", which adds the base.` }
      : !abs.endsWith('/') && targets.has(abs + '/') ? { hint: `Page URLs end with "/": link to ${abs}/ instead.` }
      : abs.endsWith('/') && abs.length > 1 && targets.has(abs.slice(0, -1)) ? { hint: `Page URLs have no trailing "/" (trailingSlash: 'never'): link to ${abs.slice(0, -1)} instead.` } : {};
    if (uses.length > GROUP_AFTER) {
      const m = message('BrokenLink', `${uses.length} pages link to ${uses[0].link}, which is not a page, alias or file (a shared template link?)`, null, hint);
      for (const u of uses.slice(0, GROUP_AFTER)) m.notes.push({ text: `on page ${u.pg.page}${u.pg.source ? ` (${u.pg.source})` : ''}`, location: null });
      errors.push(m);
      continue;
    }
    for (const { pg, link } of uses) errors.push(message('BrokenLink', `page ${pg.page} links to ${link}, which is not a page, alias or file`, pg.source ? fileLocation(pg.source) : null, hint));
  }
  return errors;
}
