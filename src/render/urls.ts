// urls: the site's URL policy in one place — the base path a site is served under (`site.base`, e.g.
// "/repo/" for a GitHub Pages project site) and the trailing-slash rule (`trailingSlash`). Route paths stay
// base-less ("/posts/a/") everywhere in the engine; only URLs written into output (links, assets, canonical,
// sitemap, host files) get the base, through withBase/siteHref here.
import type { SiteConfig } from '../core/types.ts';
import { initialPolicy } from './urlPolicy.ts';

export type TrailingSlash = 'always' | 'never';

export interface UrlPolicy {
  /** "/" or "/repo/": starts and ends with "/". */
  base: string;
  trailingSlash: TrailingSlash;
}

export const DEFAULT_POLICY: UrlPolicy = { base: '/', trailingSlash: 'always' };

/**
 * The slashes at either end of a path, and at its end. A run at the end is matched only from where it
 * starts (the lookbehind): tried from every slash of a long run, `\/+$` reads the square of its length.
 */
export const EDGE_SLASHES = /^\/+|(?<!\/)\/+$/g;
export const TRAILING_SLASHES = /(?<!\/)\/+$/;

/** "repo", "/repo", "/repo/" → "/repo/"; empty or "/" → "/". */
export function normaliseBase(base: string | undefined): string {
  const inner = (base ?? '').replace(EDGE_SLASHES, '');
  return inner ? `/${inner}/` : '/';
}

export function urlPolicy(config: Pick<SiteConfig, 'site' | 'trailingSlash'>): UrlPolicy {
  return { base: normaliseBase(config.site?.base), trailingSlash: config.trailingSlash ?? 'always' };
}

/** A site path ("/x/", "/assets/a.css") as the URL it is served at: "/repo/x/". Other URLs are kept. */
export function withBase(p: string, base: string): string {
  if (base === '/' || !p.startsWith('/') || p.startsWith('//')) return p;
  return base + p.slice(1);
}

/** A site path as an absolute URL under the origin `siteUrl` (no trailing slash) and the base. */
export function absoluteUrl(siteUrl: string, p: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(p)) return p;
  return siteUrl.replace(/\/$/, '') + withBase(p, base);
}

/** A page path under the trailing-slash rule: "/faqs" ↔ "/faqs/". Paths naming a file ("/a.css") are kept. */
export function applySlash(pathPart: string, rule: TrailingSlash): string {
  if (pathPart === '/' || pathPart === '' || /\.[a-z0-9]+$/i.test(pathPart)) return pathPart || '/';
  if (rule === 'never') return pathPart.replace(TRAILING_SLASHES, '');
  return pathPart.endsWith('/') ? pathPart : `${pathPart}/`;
}

// The policy of the site being rendered. Rendering is synchronous and the renderer sets it before each page
// (render/document.tsx), so templates' href() calls see their site's base: module state of the one engine,
// which the site module shares (site/provided.ts). In the browser the client bundle gives urlPolicy.ts
// the site's policy (bundle.ts), so href() in an island hydrates to the same URL.
let current: UrlPolicy = initialPolicy ?? DEFAULT_POLICY;

export function setUrlPolicy(policy: UrlPolicy): void {
  current = policy;
}

export function currentUrlPolicy(): UrlPolicy {
  return current;
}

/**
 * A link to a page or file of the site, as templates should write it: the trailing-slash rule applied
 * ("/faqs" → "/faqs/", or "/faqs/" → "/faqs" with `trailingSlash: 'never'`) and the base prepended
 * ("/repo/faqs/"). External URLs, "#fragments" and protocol-relative URLs are returned unchanged.
 */
export function href(p: string, policy: UrlPolicy = currentUrlPolicy()): string {
  if (!p.startsWith('/') || p.startsWith('//')) return p;
  const q = p.search(/[?#]/);
  const [pathPart, rest] = q >= 0 ? [p.slice(0, q), p.slice(q)] : [p, ''];
  return withBase(applySlash(pathPart, policy.trailingSlash), policy.base) + rest;
}
