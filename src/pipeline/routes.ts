// The route table of a session, kept across updates. routes(content) runs on every plan; when no def
// changed a path, output, alias or source since the last valid table, its routes are reused (remade by
// routeOf, the one place route defaults live). Dev then compares each route with the one last rendered
// (sameRoute): a route re-renders only when its props, title or other fields differ. This is exact whatever
// the route reads, because unchanged entries keep their objects, so comparing them costs one `===` each.
import type { Content, Route, RouteDef, SiteConfig } from '../core/types.ts';
import { routeOf, routeTable, routeFieldProblem, type RouteTable } from './routeTable.ts';
import { setUrlPolicy, urlPolicy } from '../render/urls.ts';
import { engineSettings } from '../core/settings.ts';
import { routeCarry } from './routeCarry.ts';
import { isContentImage } from '../images/model.ts';
import { noteBodyReads } from '../content/diskBody.ts';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * What comparisons of one pass share (dev compares every route with its last one, and routes share objects:
 * a nav list, an entry): per pair of objects, whether they were found equal (1) or not (0), or are being
 * compared (2, a cycle: taken as equal while it lasts; entries that reference each other make cycles). A pair
 * found equal through such an assumption, or through another such pair, is kept as equal (3) while its
 * top-level comparison runs (so each pair costs once however many paths reach it), and dropped if that
 * comparison ends unequal: the assumption may have been the difference. An unequal answer is final (it never rests on an assumption), and every one
 * travels up to the top, which is why a top-level "equal" makes the assumed pairs equal for good.
 */
export interface EqualMemo { pairs: WeakMap<object, Map<object, Answer>>; assumed: number; provisional: [Map<object, Answer>, object][] }
/** 0 unequal, 1 equal, 2 being compared, 3 equal if the top-level comparison ends equal. */
type Answer = 0 | 1 | 2 | 3;
export const equalMemo = (): EqualMemo => ({ pairs: new WeakMap(), assumed: 0, provisional: [] });

/** Structural equality for plain data (and React elements, dates, maps, sets); functions by identity. */
export function deepEqual(a: unknown, b: unknown, memo: EqualMemo = equalMemo(), depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  // Near the top the bookkeeping would cost more than it saves; deeper down, shared sub-objects cost once
  // per pass and cycles end.
  if (depth === 0) {
    memo.provisional.length = 0;
    const equal = compareObjects(a, b, memo, depth);
    for (const [known, other] of memo.provisional) { if (equal) known.set(other, 1); else known.delete(other); }
    memo.provisional.length = 0;
    return equal;
  }
  if (depth <= 2) return compareObjects(a, b, memo, depth);
  let known = memo.pairs.get(a);
  const was = known?.get(b);
  if (was === 1 || was === 0) return was === 1;
  // Taken as equal on an assumption (a cycle being compared, or a pair that rests on one): so does this one.
  if (was === 2 || was === 3) { memo.assumed++; return true; }
  if (!known) memo.pairs.set(a, (known = new Map()));
  known.set(b, 2);
  const assumedBefore = memo.assumed;
  const equal = compareObjects(a, b, memo, depth);
  const assumed = equal && memo.assumed !== assumedBefore;
  known.set(b, !equal ? 0 : assumed ? 3 : 1);
  if (assumed) memo.provisional.push([known, b]);
  return equal;
}

function compareObjects(a: object, b: object, memo: EqualMemo, depth: number): boolean {
  const d = depth + 1;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i], memo, d)) return false;
    return true;
  }
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof Map || a instanceof Set) return deepEqual([...a], [...(b as Map<unknown, unknown>)], memo, d);
  // for…in with own-key checks: no key arrays allocated for the thousands of small props objects.
  const ra = a as Record<string, unknown>, rb = b as Record<string, unknown>;
  let count = 0;
  for (const k in ra) {
    if (!hasOwn.call(ra, k)) continue;
    if (!hasOwn.call(rb, k) || !deepEqual(ra[k], rb[k], memo, d)) return false;
    count++;
  }
  for (const k in rb) if (hasOwn.call(rb, k)) count--;
  return count === 0;
}

/** The same Open Graph image: a path, or an imageFile() image of the same bytes and file. */
const sameOgImage = (a: Route['ogImage'], b: Route['ogImage']): boolean =>
  a === b || (isContentImage(a) && isContentImage(b) && a.hash === b.hash && a.file === b.file && a.format === b.format);

/** Whether a route renders the same as before, as far as the route itself goes. */
export function sameRoute(prev: Route, next: Route, memo: EqualMemo = equalMemo()): boolean {
  return prev.path === next.path && prev.output === next.output && prev.component === next.component
    && prev.title === next.title && prev.description === next.description && prev.noindex === next.noindex
    && prev.ogType === next.ogType && prev.source === next.source && deepEqual(prev.props, next.props, memo)
    && prev.body === next.body && prev.contentType === next.contentType && sameOgImage(prev.ogImage, next.ogImage) && prev.lang === next.lang && deepEqual(prev.head, next.head, memo)
    && deepEqual(prev.csp, next.csp, memo); // (a page carries its policy with cspMeta)
}

export interface Routing {
  defs: RouteDef[];
  table: RouteTable;
  /** A build's: the digest of the defs' paths, outputs and aliases (routeCarry.ts shapeOf), when made. */
  shape?: string | null;
  /** The body fields routes() read of entries whose body is on disk (html, links, words…: diskBody.ts). */
  bodyReads?: Set<string>;
}

/** The defs' fields from which routeTable derives paths, outputs, aliases and duplicates, or which it checks (ogImage). */
function sameShape(a: RouteDef[], b: RouteDef[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i], y = b[i];
    if (x.path !== y.path || x.output !== y.output || x.source !== y.source || !!x.noindex !== !!y.noindex
      || x.sitemap !== y.sitemap || !x.component !== !y.component || !sameOgImage(x.ogImage, y.ogImage)) return false;
    // What routeTable checks besides: a page's title is text, a lastmod a date (the last table's passed).
    if (routeFieldProblem(y)) return false;
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
  let defs: RouteDef[], bodyReads: Set<string>;
  try {
    setUrlPolicy(urlPolicy(config)); // href() in routes() sees the site's base, as in routeTable
    ({ value: defs, read: bodyReads } = noteBodyReads(() => config.routes(content)));
  } catch {
    return { defs: [], table: routeTable(content, config, root) }; // routeTable calls it again and locates the throw
  }
  if (prev && !prev.table.errors.length && sameShape(prev.defs, defs)) {
    // Same shape, so routeOf gives the same path, output and flags: the route as routeTable would make it.
    const routes = defs.map((d) => routeOf(d, config));
    return { defs, table: { routes, aliases: prev.table.aliases, errors: [] }, bodyReads };
  }
  // A build: the checks of the last table that passed them carried over when the defs have its shape.
  const carry = build && engineSettings().cache ? routeCarry(root, defs, config) : null;
  const table = routeTable(content, { ...config, routes: () => defs }, root, !!carry?.trusted);
  carry?.passed(table);
  return { defs, table, shape: carry?.digest, bodyReads };
}
