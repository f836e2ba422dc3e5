// Validated entries by file stamp: the content cache marks a file's parse valid under a schema key when its
// collection's schema passed the data as it is (the same plain values, keys in the same order: no default
// added, nothing coerced or transformed). A later build with the same key takes the parse as the entry's
// data without running the schema again. The key changes with the site module's bytes (its schemas), zod,
// the variables the last build read and the day (what a schema may read besides the data, as for
// pipeline/upToDate.ts), so a schema edit validates every file again. The marks are kept beside the parses
// (contentCache.ts index.json), so marking them anew rewrites no chunk of parses.
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { packageVersions } from '../cache/index.ts';
import { PACKAGE_DIR } from '../site/paths.ts';
import type { FileStamp } from './parse.ts';

/** The schema key each parse (of the content cache, or just made) passed under as it is. */
export const validUnder = new WeakMap<object, string>();

/** For a parse whose schema output is not its data as it is (a `date()` or `z.coerce.date()` field, a
 *  default, a transform): that output, and the schema key it was made under. A later build with the same key
 *  takes it as the entry's data without running the schema (10,000 posts with a date: ~60 ms a build). Kept
 *  only when the content cache can store it as it is (`storable`). */
export const validOutput = new WeakMap<object, { key: string; data: unknown }>();

/** Whether a value comes back the same from the content cache's serializer: plain objects, lists, dates and
 *  primitives (a class instance would come back a plain object, a function not at all). */
export function storable(v: unknown, depth = 0): boolean {
  if (typeof v !== 'object' || v === null) return typeof v !== 'function' && typeof v !== 'symbol';
  if (depth > 64) return false;
  if (v instanceof Date) return Object.getPrototypeOf(v) === Date.prototype;
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every((x, i) => i in v && storable(x, depth + 1));
  const proto = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(v).length) return false;
  for (const k of Object.keys(v)) if (!storable((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

/** What a build knows of its inputs before it loads (pipeline/upToDate.ts): the stamp of every file below content/
 *  (relative to it, with '/'), from a walk that met no symlink, so the loader stats none again; the content files
 *  listed from those stamps (glob.ts listedContentFiles), so it reads no folder again; and the key of its schemas. */
export interface KnownInputs { stamps?: ReadonlyMap<string, FileStamp> | null; files?: string[]; schemaKey?: string }

/** The key of a build's schemas: `moduleFile` the compiled site module, `context` the build's variables and day. */
export function schemaKey(moduleFile: string, context: string): string | undefined {
  try {
    return createHash('sha1').update(fs.readFileSync(moduleFile)).update(`\n${context}\n${packageVersions(PACKAGE_DIR, ['zod']).join(',')}`).digest('base64url');
  } catch {
    return undefined;
  }
}

/** Whether the schema's output `b` is the input `a` value for value: plain data only (a Date, a class
 *  instance, a function: no, so such data is always validated again). */
export function plainSame(a: unknown, b: unknown, depth = 0): boolean {
  if (typeof a !== 'object' || a === null) return typeof a !== 'function' && Object.is(a, b);
  if (typeof b !== 'object' || b === null || depth > 64) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => plainSame(v, b[i], depth + 1));
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !plainSame((a as Record<string, unknown>)[ka[i]], (b as Record<string, unknown>)[kb[i]], depth + 1)) return false;
  }
  return true;
}

/** The data a parse passed its schema with under `key`, when that is known without running it: the parse's
 *  own data (validUnder), or the output kept (validOutput). */
export function knownValid(parsed: { data: unknown }, key?: string): { data: unknown } | undefined {
  if (!key) return undefined;
  if (validUnder.get(parsed) === key) return { data: parsed.data };
  const out = validOutput.get(parsed);
  return out?.key === key ? { data: out.data } : undefined;
}

/** The output kept of a parse's last validation, whatever schemas made it (images/local.ts knownFieldImages). */
export const previousOutput = (parsed: object): unknown => validOutput.get(parsed)?.data;

/** Records that a parse passed its schema under `key` with `data` as its output: marked valid as it is when
 *  the output is its data value for value, else the output kept when the cache can store it. Whether anything
 *  new was recorded (the cache's index is then written again). */
export function markValid(parsed: { data: unknown }, data: unknown, key: string): boolean {
  if (knownValid(parsed, key)) return false;
  if (plainSame(parsed.data, data)) { validUnder.set(parsed, key); return true; }
  if (storable(data)) { validOutput.set(parsed, { key, data }); return true; }
  return false;
}
