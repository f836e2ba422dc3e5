// stableText: a text of a plain value (a route's data, a collection) that differs whenever the value does,
// for the incremental build's keys (incremental.ts). Object keys are sorted, a long string enters by its
// digest, an entry whose body waits on disk enters with its body's place (content/diskBody.ts), and
// anything whose state may hide from its own fields (a function, a class instance, a symbol key) or that
// refers to itself makes it throw Unknown: such a value is never taken as unchanged.
// One text is built by appending to it, not by joining one array per object (the 10,000 routes of the
// bench site: 150 → ~60 ms, and far less garbage for the collector).
import { hash } from 'node:crypto';
import { bodyFields } from '../content/diskBody.ts';

export class Unknown extends Error {}

/** Strings longer than this enter the text by their digest. */
const LONG = 256;
/** With a memo, lists whose text is longer than this enter by their digest (a sidebar, a list page's
 *  posts): small ones would cost a digest each and rarely recur. */
const LARGE = 4096;

/** The SHA-1 of a text or bytes, base64url: the digest the build's keys and records use. (One call, no Hash
 *  object: at 10,000 pages of long props, ~40% less time than createHash.) */
export const sha1 = (s: string | Uint8Array): string => hash('sha1', s, 'base64url');

// Object keys as JSON, by key: the same few keys recur in every route (10,000 routes: ~300,000 quotings).
const quoted = new Map<string, string>();
const quote = (k: string): string => {
  let q = quoted.get(k);
  if (q === undefined) { q = JSON.stringify(k); if (quoted.size < 10_000) quoted.set(k, q); }
  return q;
};

// A string JSON writes as it is between quotes: no quote, backslash, control character or surrogate to escape.
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
/** A string as JSON writes it (quoted as it is when nothing in it needs escaping: no JSON.stringify call). */
export const jsonString = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

/** With a memo, objects of this many keys or more are looked up in it (a lookup costs less than walking
 *  a few keys; smaller objects, most of a route's data, are walked without one). */
const SHARED_KEYS = 16;
/** A big object's memo value after its first sighting: walked once, not known to be shared yet. */
const SEEN = '';

/** A long string's part of a text: its digest, found once a memo for each string the memo's calls meet. */
function digestOf(v: string, memo: StableMemo | undefined): string {
  if (!memo) return `#${sha1(v)}`;
  let d = memo.get(v);
  if (d === undefined) memo.set(v, (d = `#${sha1(v)}`));
  return d;
}

/** An object's keys in the order its text has them, each with what comes before its value (`,"key":`). */
interface Layout { keys: readonly string[]; sorted: string[]; heads: string[] }
// The layouts of the objects met so far, by first key: most of a build's objects are made by a few object
// literals (a route's props, a post's summary), whose keys come in the same order each time, so the sort
// and the quoting are done once a literal, not once an object. (Bounded: at most 4 a first key, 2,000 first
// keys, each of fewer than SHARED_KEYS keys.)
const layouts = new Map<string, Layout[]>();
function layoutOf(keys: string[]): Layout {
  const n = keys.length;
  const same = n ? layouts.get(keys[0]) : undefined;
  if (same) {
    for (const l of same) {
      if (l.keys.length !== n) continue;
      let i = 1;
      while (i < n && l.keys[i] === keys[i]) i++;
      if (i === n) return l;
    }
  }
  const sorted = [...keys].sort();
  const layout: Layout = { keys, sorted, heads: sorted.map((k, i) => `${i ? ',' : ''}${quote(k)}:`) };
  // (not an object of many keys, whose keys a map of slugs has anew in each build: kept, they would pile up)
  if (n && n < SHARED_KEYS && (same ? same.length < 4 : layouts.size < 2_000)) { if (same) same.push(layout); else layouts.set(keys[0], [layout]); }
  return layout;
}

/** Objects' texts already made, for a run of stable() calls over values that share objects (a build's
 *  route keys: a sidebar every docs page holds, the entries that list pages and tag pages hold). Only for
 *  values that do not change between those calls. */
export type StableMemo = Map<object | string, string>;

/** A text that differs whenever the value does, or a throw of Unknown when that cannot be promised.
 *  `skip`: keys of the value itself (not of anything in it) left out, as if it had no such fields.
 *  `memo`: with one, a list whose text is longer than LARGE enters by its digest, and each such list is
 *  walked once for all the calls that share the memo. */
export function stable(value: unknown, skip?: ReadonlySet<string>, memo?: StableMemo): string {
  const open: object[] = []; // the objects being walked, to find a cycle (a path is short: a linear scan)
  const walk = (v: unknown): string => {
    switch (typeof v) {
      // A long string (a page's HTML) by its digest: hashed natively, not escaped into one text of every
      // page's props. '#' never starts a JSON string.
      case 'string': return v.length > LONG ? digestOf(v, memo) : jsonString(v);
      case 'number': return Object.is(v, -0) ? '-0' : String(v);
      case 'boolean': return v ? 'true' : 'false';
      case 'undefined': return 'undefined';
      case 'bigint': return `${v}n`;
      case 'function': case 'symbol': throw new Unknown();
    }
    if (v === null) return 'null';
    const o = v as object;
    // (lists only: what grows large and is shared, where a lookup of every object cost more than it saved)
    const listed = memo !== undefined && Array.isArray(o);
    const kept = listed ? memo.get(o) : undefined;
    if (kept !== undefined) return kept;
    if (open.includes(o)) throw new Unknown();
    open.push(o);
    let s: string;
    let disk: ReturnType<typeof bodyFields>;
    if (Array.isArray(o)) {
      s = '[';
      // (a hole is nothing between commas: [1, , 3] renders apart from [1, undefined, 3] where a template maps it)
      for (let i = 0; i < o.length; i++) s += (i ? ',' : '') + (i in o ? walk(o[i]) : '');
      s += ']';
    } else if (o instanceof Date) s = `Date(${o.getTime()})`;
    else if (o instanceof Map) {
      s = 'Map[';
      let first = true;
      for (const [k, x] of o) { s += `${first ? '' : ','}${walk(k)}:${walk(x)}`; first = false; }
      s += ']';
    } else if (o instanceof Set) {
      s = 'Set[';
      let first = true;
      for (const x of o) { s += (first ? '' : ',') + walk(x); first = false; }
      s += ']';
    } else if (ArrayBuffer.isView(o)) s = `${o.constructor.name}(${Buffer.from(o.buffer, o.byteOffset, o.byteLength).toString('base64')})`;
    else if ((disk = bodyFields(o))) {
      // An entry whose body waits on disk: its body by its place, not read (diskBody.ts).
      const fields = disk.fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      // (an entry as its parse made it: by that parse's place alone, never the text of another object)
      s = `${disk.parse ? 'Parse' : 'Entry'}(${JSON.stringify(disk.place)}){`;
      for (let i = 0; i < fields.length; i++) s += `${i ? ',' : ''}${quote(fields[i][0])}:${walk(fields[i][1])}`;
      s += '}';
    } else {
      const proto = Object.getPrototypeOf(o);
      // A class instance's state may live where its own fields do not show (private fields, closures).
      if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(o).length) throw new Unknown();
      const keys = Object.keys(o);
      // A big object routes share (a map of every tag's path on every page) is walked at most twice: its
      // first sighting marks it (unshared ones keep no text), its second keeps its text for the rest.
      const shared = memo !== undefined && keys.length >= SHARED_KEYS && o !== value;
      if (shared) {
        const had = memo.get(o);
        if (had) { open.pop(); return had; }
      }
      const { sorted, heads } = skip && o === value ? layoutOf(keys.filter((k) => !skip.has(k))) : layoutOf(keys);
      s = '{';
      for (let i = 0; i < sorted.length; i++) s += heads[i] + walk((o as Record<string, unknown>)[sorted[i]]);
      s += '}';
      // (a long text by its digest at every sighting, as a list's: one value, one text, whichever comes first)
      if (shared) { if (s.length > LARGE) s = `@${sha1(s)}`; memo.set(o, memo.has(o) ? s : SEEN); }
    }
    open.pop();
    // ('@' starts no other text: a digest of a whole object, always so for a long one while a memo is used)
    if (listed && s.length > LARGE) memo.set(o, s = `@${sha1(s)}`);
    return s;
  };
  return walk(value);
}
