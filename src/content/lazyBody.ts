// Lazy Markdown bodies, for the start of `sitegen dev`: an entry whose file was read and whose front matter
// passed its schema, with its body compiled the first time something reads a body field (html, headings,
// excerpt, words, readingMinutes, links) — a page that shows it, or the background pass after the server
// listens. The values read are the ones an eagerly loaded entry holds.
//
// routes() usually copies each entry's `html` into its route's props, which would compile every body before
// the first page. So while the site's routes() runs on bodies not compiled yet (`speculate`), reading `html`
// gives a placeholder token instead, and `findHoles` then looks for each token in the route table: where a
// token stands as a whole string value (a copy), the page's render puts the body's HTML there first
// (`fillHoles`). When a token was read more often than it shows up whole (routes() did something else with
// it: measured it, tested it, cut it), the table cannot be used: the caller compiles every body and runs
// routes() again. Whatever slips through (a copy and a test of one read) is caught once every body is
// compiled: routes() runs again on the real values and a route that differs renders again (dev/devSite.ts).
import type { Entry, Message, Route } from '../core/types.ts';
import type { CompiledBody } from './parse.ts';
import { readingMinutes, type MarkdownText } from '../markdown/entryText.ts';
import { frozenHeadings } from './readOnly.ts';

/** One entry's body, compiled at most once. */
export interface LazyBody {
  /** The placeholder routes() gets for `html` while it speculates. */
  readonly token: string;
  /** The compiled body, once it is. */
  result: CompiledBody | null;
  /** Compiles the body (once) and returns it. */
  compile(): CompiledBody;
}

// Private-use characters: never produced by Markdown or typed by accident, and cheap to look for.
const MARK = '\uE000sitegen-body:';
let counter = 0;
/** token → body, for the bodies that are not known to be settled (released by the store that made them). */
const byToken = new Map<string, LazyBody>();
/** While routes() speculates: how often each body's `html` was read. */
let reads: Map<LazyBody, number> | null = null;

export function lazyBody(compile: () => CompiledBody, onCompiled?: (r: CompiledBody) => void): LazyBody {
  const body: LazyBody = {
    token: `${MARK}${++counter}\uE000`,
    result: null,
    compile() {
      if (!body.result) {
        body.result = compile();
        onCompiled?.(body.result);
      }
      return body.result;
    },
  };
  byToken.set(body.token, body);
  return body;
}

/** Forgets the tokens of bodies that no route table can hold any more. */
export function releaseBodies(bodies: Iterable<LazyBody>): void {
  for (const b of bodies) byToken.delete(b.token);
}

const EMPTY = { headings: Object.freeze([]) as unknown as MarkdownText['headings'], excerpt: '', words: 0, links: Object.freeze([] as string[]) };

/**
 * Adds the body fields to `entry` as getters, in the places an eager entry has them. A body with problems
 * reads as empty (its problems are reported by the store that made it, as the file's errors).
 */
export function defineLazyBody(entry: Entry, body: LazyBody): void {
  const text = () => body.compile().text ?? EMPTY;
  const field = (get: () => unknown) => ({ get, enumerable: true, configurable: true });
  Object.defineProperties(entry, {
    html: field(() => {
      if (!body.result && reads) { reads.set(body, (reads.get(body) ?? 0) + 1); return body.token; }
      return body.compile().html ?? '';
    }),
    headings: field(() => frozenHeadings(text().headings)), // read-only, as an entry's fields are (readOnly.ts)
    excerpt: field(() => text().excerpt),
    words: field(() => text().words),
    readingMinutes: field(() => readingMinutes(text().words)),
    links: field(() => Object.freeze(text().links ?? EMPTY.links)),
  });
}

/** Runs `fn` (the site's routes()) with `html` of bodies not compiled yet read as tokens; counts the reads. */
export function speculate<T>(fn: () => T): { value: T; reads: Map<LazyBody, number> } {
  const prev = reads;
  const mine = new Map<LazyBody, number>();
  reads = mine;
  try {
    return { value: fn(), reads: mine };
  } finally {
    reads = prev;
  }
}

/** A place in a route where a body's HTML goes: container[key] holds its token. */
export type Hole = [container: Record<string | number, unknown>, key: string | number, body: LazyBody];

class Unusable extends Error {}

/** Fields of a route that may hold a copy of a body's HTML; the others (path, output, …) must not. */
const FILLABLE = ['props', 'title', 'description', 'body', 'head'] as const;
const FIXED = ['path', 'output', 'source', 'ogImage', 'contentType', 'ogType'] as const;

/**
 * Where each route holds tokens (routes without any are left out), or null when the table cannot be used:
 * a token in a place that cannot take the HTML (a path, a frozen object, inside a longer string) or read
 * more often than it appears whole.
 */
export function findHoles(routes: readonly Route[], counted: Map<LazyBody, number>): Map<Route, Hole[]> | null {
  if (!counted.size) return new Map();
  const appearances = new Map<LazyBody, number>();
  const holes = new Map<Route, Hole[]>();
  // Objects found to hold no token (whatever routes share, like a nav list, is walked once).
  const clean = new WeakSet<object>();
  try {
    for (const route of routes) {
      const r = route as unknown as Record<string, unknown>;
      for (const k of FIXED) if (typeof r[k] === 'string' && (r[k] as string).includes(MARK)) throw new Unusable();
      const found: Hole[] = [];
      const visiting = new Set<object>();
      let cycle = false;
      const walk = (container: Record<string | number, unknown>, key: string | number, value: unknown): boolean => {
        if (typeof value === 'string') {
          if (!value.includes(MARK)) return false;
          const body = byToken.get(value);
          if (!body || Object.isFrozen(container)) throw new Unusable();
          found.push([container, key, body]);
          appearances.set(body, (appearances.get(body) ?? 0) + 1);
          return true;
        }
        if (typeof value !== 'object' || value === null || clean.has(value)) return false;
        if (visiting.has(value)) { cycle = true; return false; }
        const proto = Object.getPrototypeOf(value);
        // Only arrays and plain objects are walked (React elements are plain objects); a token anywhere
        // else is missed, and then read more often than it appears.
        if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
        visiting.add(value);
        let any = false;
        const o = value as Record<string | number, unknown>;
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) if (walk(o, i, value[i])) any = true;
        } else {
          for (const k of Object.keys(o)) {
            // Getters (a lazy entry's body fields) are not called: that would compile the body.
            const d = Object.getOwnPropertyDescriptor(o, k);
            if (d && 'value' in d && walk(o, k, d.value)) any = true;
          }
        }
        visiting.delete(value);
        if (!any && !cycle) clean.add(value);
        return any;
      };
      for (const k of FILLABLE) if (k in r) walk(r, k, r[k]);
      if (found.length) holes.set(route, found);
    }
  } catch (e) {
    if (e instanceof Unusable) return null;
    throw e;
  }
  for (const [body, n] of counted) if ((appearances.get(body) ?? 0) < n) return null;
  return holes;
}

/** Puts the HTML of each body in its holes (compiling the bodies; a hole overwritten since is left alone);
 *  returns the problems of those bodies. */
export function fillHoles(holes: Hole[] | undefined): Message[] {
  const problems: Message[] = [];
  for (const [container, key, body] of holes ?? []) {
    const r = body.compile();
    problems.push(...r.errors);
    if (container[key] === body.token) container[key] = r.html ?? '';
  }
  return problems;
}
