// paginate(): the pages of a list, for routes(): page 1 at the bare path, page n at `<path>/page/<n>`, each
// with its items and the links to its neighbours (under the site's base, as href() writes them).
import { href } from '../render/urls.ts';

export interface Page<T> {
  /** The route path of this page (without the site's base): "/blog", "/blog/page/2". */
  path: string;
  /** 1-based. */
  page: number;
  /** How many pages there are (at least 1). */
  pages: number;
  items: T[];
  /** The previous page's URL (href(): base and trailing slash applied), or null on the first page. */
  prev: string | null;
  /** The next page's URL, or null on the last page. */
  next: string | null;
}

export interface PaginateOptions {
  /** Items per page: a positive whole number. */
  size: number;
  /** The first page's route path, e.g. "/blog". */
  path: string;
  /** The path of page n ≥ 2; default `${path}/page/${n}`. */
  pagePath?: (n: number, path: string) => string;
}

function fail(what: string): never {
  throw new Error(`paginate(): ${what}`);
}

export function paginate<T>(items: readonly T[], options: PaginateOptions): Page<T>[] {
  const { size, path } = options ?? ({} as PaginateOptions);
  if (!Array.isArray(items)) fail(`items must be a list, got ${items === null ? 'null' : typeof items}`);
  if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) fail(`size must be a positive whole number, got ${typeof size === 'number' ? String(size) : JSON.stringify(size) ?? String(size)}`);
  if (typeof path !== 'string' || !path.startsWith('/')) fail(`path must be a site path starting with "/", got ${JSON.stringify(path)}`);
  const base = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const pagePath = options.pagePath ?? ((n: number, p: string) => `${p === '/' ? '' : p}/page/${n}`);
  const pages = Math.max(1, Math.ceil(items.length / size));
  const paths = Array.from({ length: pages }, (_, i) => (i === 0 ? base : pagePath(i + 1, base)));
  return paths.map((p, i) => ({
    path: p,
    page: i + 1,
    pages,
    items: items.slice(i * size, (i + 1) * size),
    prev: i > 0 ? href(paths[i - 1]) : null,
    next: i < pages - 1 ? href(paths[i + 1]) : null,
  }));
}
