// The route table of a session, kept across updates. routes(content) runs on every plan; when no def
// changed a path, output, alias or source since the last valid table, its routes are reused (remade by
// routeOf, the one place route defaults live). Dev then compares each route with the one last rendered
// (sameRoute): a route re-renders only when its props, title or other fields differ. This is exact whatever
// the route reads, because unchanged entries keep their objects, so comparing them costs one `===` each.
import type { Content, Route, RouteDef, SiteConfig } from '../core/types.ts';
import { routeOf, routeTable, type RouteTable } from './routeTable.ts';
import { setUrlPolicy, urlPolicy } from '../render/urls.ts';
import { engineSettings } from '../core/settings.ts';
import { routeCarry } from './routeCarry.ts';

const hasOwn = Object.prototype.hasOwnProperty;

/** Structural equality for plain data (and React elements, dates, maps, sets); functions by identity. */
export function deepEqual(a: unknown, b: unknown, seen = new WeakMap<object, WeakSet<object>>(), depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  // Deeper down, pairs already compared (or being compared, for cycles) count as equal: shared sub-objects
  // cost once and cycles end. Near the top the bookkeeping would cost more than it saves.
  if (depth > 2) {
    if (seen.get(a)?.has(b)) return true;
    if (!seen.has(a)) seen.set(a, new WeakSet());
    seen.get(a)!.add(b);
  }
  const d = depth + 1;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i], seen, d)) return false;
    return true;
  }
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof Map || a instanceof Set) return deepEqual([...a], [...(b as Map<unknown, unknown>)], seen, d);
  // for…in with own-key checks: no key arrays allocated for the thousands of small props objects.
  const ra = a as Record<string, unknown>, rb = b as Record<string, unknown>;
  let count = 0;
  for (const k in ra) {
    if (!hasOwn.call(ra, k)) continue;
    if (!hasOwn.call(rb, k) || !deepEqual(ra[k], rb[k], seen, d)) return false;
    count++;
  }
  for (const k in rb) if (hasOwn.call(rb, k)) count--;
  return count === 0;
}

/** Whether a route renders the same as before, as far as the route itself goes. */
export function sameRoute(prev: Route, next: Route, seen?: WeakMap<object, WeakSet<object>>): boolean {
  return prev.path === next.path && prev.output === next.output && prev.component === next.component
    && prev.title === next.title && prev.description === next.description && prev.noindex === next.noindex
    && prev.ogType === next.ogType && prev.source === next.source && deepEqual(prev.props, next.props, seen)
    && prev.body === next.body && prev.contentType === next.contentType && prev.ogImage === next.ogImage && deepEqual(prev.head, next.head, seen);
}

export interface Routing {
  defs: RouteDef[];
  table: RouteTable;
}

/** The defs' fields from which routeTable derives paths, outputs, aliases and duplicates, or which it checks (ogImage). */
function sameShape(a: RouteDef[], b: RouteDef[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i], y = b[i];
    if (x.path !== y.path || x.output !== y.output || x.source !== y.source || !!x.noindex !== !!y.noindex
      || x.sitemap !== y.sitemap || !x.component !== !y.component || x.ogImage !== y.ogImage) return false;
    const ax = x.aliases ?? [], ay = y.aliases ?? [];
    if (ax !== ay && (ax.length !== ay.length || ax.some((p, j) => p !== ay[j]))) return false;
  }
  return true;
}

/**
 * The route table for the current content. routeTable validates every path and alias (and costs tens of
 * milliseconds on a thousand routes), so when no def changed a path, output, alias or source since the last
 * valid table, its routes are reused with the new component, props and texts: same rules, none re-implemented.
 */
export function routeContent(content: Content, config: SiteConfig, root: string, prev: Routing | null, build = false): Routing {
  let defs: RouteDef[];
  try {
    setUrlPolicy(urlPolicy(config)); // href() in routes() sees the site's base, as in routeTable
    defs = config.routes(content);
  } catch {
    return { defs: [], table: routeTable(content, config, root) }; // routeTable calls it again and locates the throw
  }
  if (prev && !prev.table.errors.length && sameShape(prev.defs, defs)) {
    // Same shape, so routeOf gives the same path, output and flags: the route as routeTable would make it.
    const routes = defs.map((d) => routeOf(d, config));
    return { defs, table: { routes, aliases: prev.table.aliases, errors: [] } };
  }
  // A build: the checks of the last table that passed them carried over when the defs have its shape.
  const carry = build && engineSettings().cache ? routeCarry(root, defs, config) : null;
  const table = routeTable(content, { ...config, routes: () => defs }, root, !!carry?.trusted);
  carry?.passed(table);
  return { defs, table };
}
