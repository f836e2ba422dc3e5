// replayCodec: a route's fields as JSON, for a later process to render the route without running routes()
// again (pipeline/replay.ts). An entry is written as a reference to its file, a component or any other export of
// the site's modules by its name (site/exportRegistry.ts), dates, maps, sets, undefined and numbers JSON has no
// word for as tagged objects. Anything whose state a text cannot carry (another function, a class instance, a
// symbol key, a React element, a cycle) makes the route unencodable: such a route is never replayed.
// A plain object with a key that starts with "$" is wrapped ({ $o: … }), so no data reads as a tag.

import { jsonString as str } from './stableText.ts';

export class Unencodable extends Error {}

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** How values that are not plain data are named: an entry's file, an export's name. */
export interface Names { entry(o: object): string | undefined; exportOf(v: unknown): string | undefined }


/** `value` as JSON text (written as it is walked: no copy of it made first); `seen` is told of each entry it
 *  names (by file). */
export function encode(value: unknown, names: Names, seen?: (file: string) => void): string {
  const open = new Set<object>();
  const walk = (v: unknown): string => {
    switch (typeof v) {
      case 'string': return str(v);
      case 'boolean': return v ? 'true' : 'false';
      case 'number': return Number.isFinite(v) && !Object.is(v, -0) ? String(v) : `{"$n":"${Object.is(v, -0) ? '-0' : String(v)}"}`;
      case 'undefined': return '{"$u":1}';
      case 'function': { const n = names.exportOf(v); if (n) return `{"$f":${str(n)}}`; throw new Unencodable(); }
      case 'bigint': case 'symbol': throw new Unencodable();
    }
    if (v === null) return 'null';
    const o = v as object;
    const file = names.entry(o);
    if (file !== undefined) { seen?.(file); return `{"$e":${str(file)}}`; }
    if (open.has(o)) throw new Unencodable();
    open.add(o);
    let out: string;
    if (Array.isArray(o)) {
      out = '[';
      for (let i = 0; i < o.length; i++) out += (i ? ',' : '') + (i in o ? walk(o[i]) : '{"$h":1}');
      out += ']';
    } else if (o instanceof Date) {
      const t = o.getTime();
      if (!Number.isFinite(t)) throw new Unencodable();
      out = `{"$d":${t}}`;
    } else if (o instanceof Map) out = `{"$m":[${[...o].map(([k, x]) => `[${walk(k)},${walk(x)}]`).join(',')}]}`;
    else if (o instanceof Set) out = `{"$s":[${[...o].map(walk).join(',')}]}`;
    else {
      const proto = Object.getPrototypeOf(o);
      if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(o).length) {
        const n = names.exportOf(o); // (an object the site exports, as it is: a table of labels)
        open.delete(o);
        if (n) return `{"$f":${str(n)}}`;
        throw new Unencodable();
      }
      let fields = '', tagged = false;
      for (const k of Object.keys(o)) {
        fields += `${fields ? ',' : ''}${str(k)}:${walk((o as Record<string, unknown>)[k])}`;
        if (k.charCodeAt(0) === 36) tagged = true; // '$'
      }
      out = tagged ? `{"$o":{${fields}}}` : `{${fields}}`;
    }
    open.delete(o);
    return out;
  };
  return walk(value);
}

/** The values of `encode`: `entry(file)` gives an entry by its file and `exportByName(name)` an export (each
 *  undefined when the process has none: then the value cannot be made, and Unencodable is thrown). */
export function decode(json: Json, resolve: { entry(file: string): object | undefined; exportByName(name: string): unknown }): unknown {
  const walk = (j: Json): unknown => {
    if (j === null || typeof j !== 'object') return j;
    if (Array.isArray(j)) {
      const out: unknown[] = new Array(j.length);
      j.forEach((x, i) => { if (!(x && typeof x === 'object' && !Array.isArray(x) && x.$h === 1 && Object.keys(x).length === 1)) out[i] = walk(x); });
      return out;
    }
    const keys = Object.keys(j);
    if (keys.length === 1 && keys[0]!.startsWith('$')) {
      const x = j[keys[0]!]!;
      switch (keys[0]) {
        case '$u': return undefined;
        case '$n': return Number(x);
        case '$d': return new Date(x as number);
        case '$m': return new Map((x as Json[][]).map(([k, v]) => [walk(k!), walk(v!)]));
        case '$s': return new Set((x as Json[]).map(walk));
        case '$o': return plain(x as { [k: string]: Json });
        case '$e': { const e = resolve.entry(x as string); if (!e) throw new Unencodable(); return e; }
        case '$f': { const f = resolve.exportByName(x as string); if (f === undefined) throw new Unencodable(); return f; }
      }
    }
    return plain(j);
  };
  const plain = (j: { [k: string]: Json }) => {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(j)) out[k] = walk(j[k]!);
    return out;
  };
  return walk(json);
}
