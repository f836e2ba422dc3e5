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

/** Objects' texts already made, for a run of stable() calls over values that share objects (a build's
 *  route keys: a sidebar every docs page holds, the entries that list pages and tag pages hold). Only for
 *  values that do not change between those calls. */
export type StableMemo = Map<object, string>;

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
      case 'string': return v.length > LONG ? `#${sha1(v)}` : PLAIN.test(v) ? `"${v}"` : JSON.stringify(v);
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
      let keys = Object.keys(o).sort();
      if (skip && o === value) keys = keys.filter((k) => !skip.has(k));
      s = '{';
      for (let i = 0; i < keys.length; i++) s += `${i ? ',' : ''}${quote(keys[i])}:${walk((o as Record<string, unknown>)[keys[i]])}`;
      s += '}';
    }
    open.pop();
    // ('@' starts no other text: a digest of a whole object, always so for a long one while a memo is used)
    if (listed && s.length > LARGE) memo.set(o, s = `@${sha1(s)}`);
    return s;
  };
  return walk(value);
}
