// incremental: what a build may leave as it is. A build stages in the output the build before the last one
// wrote (write.ts stageOutput); this module remembers, for each page file of the last two outputs, what it
// was rendered from — the site module, the asset links, the origin (one key), the route itself, and each
// collection its render read — with the file's stamp (size, mtime, inode). A page whose file in the staging
// folder still has its stamp, and whose inputs are all the same now, is neither rendered nor written. Any
// input that cannot be told apart for sure (a function or a cycle in a route's props or in a collection)
// makes its pages render every time. The record is written only after a build's output was swapped in.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import type { Alias, Content, Route } from '../core/types.ts';
import type { ManifestLinks } from '../render/page.ts';

interface Stamp { size: number; mtimeMs: number; ino: number }

interface Entry {
  /** The route's (or alias page's) own key: the build key and the route's data. */
  key: string;
  /** The collections the render read, with their hashes then. */
  reads: [string, string][];
  islands: string[];
  links: string[];
  stamp: Stamp;
}

/** Output file → entry, for the newest output first (dist/), then the one before (the staging folder's). */
interface PageRecord { version: 1; outDir: string; generations: Record<string, Entry>[] }

const VERSION = 1;
const recordFile = (root: string) => path.join(root, '.sitegen', 'cache', 'pages.json');
const sha1 = (s: string) => createHash('sha1').update(s).digest('base64url');

class Unknown extends Error {}

/** A text that differs whenever the value does, or a throw of Unknown when that cannot be promised. */
function stable(value: unknown, seen = new Set<object>()): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string': return JSON.stringify(value);
    case 'number': return Object.is(value, -0) ? '-0' : String(value);
    case 'boolean': return String(value);
    case 'undefined': return 'undefined';
    case 'bigint': return `${value}n`;
    case 'function': case 'symbol': throw new Unknown();
  }
  const o = value as object;
  if (seen.has(o)) throw new Unknown();
  seen.add(o);
  try {
    if (o instanceof Date) return `Date(${o.getTime()})`;
    if (Array.isArray(o)) return `[${o.map((v) => stable(v, seen)).join(',')}]`;
    if (o instanceof Map) return `Map[${[...o].map(([k, v]) => `${stable(k, seen)}:${stable(v, seen)}`).join(',')}]`;
    if (o instanceof Set) return `Set[${[...o].map((v) => stable(v, seen)).join(',')}]`;
    if (ArrayBuffer.isView(o)) return `${o.constructor.name}(${Buffer.from(o.buffer, o.byteOffset, o.byteLength).toString('base64')})`;
    const proto = Object.getPrototypeOf(o);
    // A class instance's state may live where its own fields do not show (private fields, closures).
    if (proto !== Object.prototype && proto !== null) throw new Unknown();
    if (Object.getOwnPropertySymbols(o).length) throw new Unknown();
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${stable((o as Record<string, unknown>)[k], seen)}`).join(',')}}`;
  } finally {
    seen.delete(o);
  }
}

/** A route's data: everything but its component and body, which the site module's key covers by name. */
function routeText(route: Route): string {
  const { component, body, ...rest } = route;
  return `${component?.displayName ?? component?.name ?? ''}|${body ? 'body' : ''}|${stable(rest)}`;
}

const stampOf = (s: fs.Stats): Stamp => ({ size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
const sameStamp = (a: Stamp, b: Stamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

export interface BuildKeyInput {
  /** The compiled site module's file (its bytes are the config and templates). */
  moduleFile: string;
  /** The vendor bundle the engine and the module take their packages from (React's renderer among them). */
  vendorFile?: string;
  manifest: ManifestLinks;
  siteUrl: string;
}

/**
 * The running engine's own code: the files beside this one (the CLI bundle's folder, lib/, or this source
 * folder), by size and mtime. The renderer is not in the site module, so another version of sitegen, or an
 * edited engine, renders every page again.
 */
let engineStampMemo: string | undefined;
function engineStamp(): string {
  if (engineStampMemo !== undefined) return engineStampMemo;
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const files = fs.readdirSync(dir).filter((f) => /\.(?:[cm]?js|tsx?)$/.test(f)).sort();
  return (engineStampMemo = files.map((f) => { const st = fs.statSync(path.join(dir, f)); return `${f}:${st.size}:${st.mtimeMs}`; }).join('\n'));
}

/** What every page depends on besides its route and the collections it reads. */
export function buildKey(k: BuildKeyInput): string | null {
  try {
    // The engine runs from its sources (tests) without a vendor bundle: then nothing to stamp.
    const vendor = k.vendorFile && fs.existsSync(k.vendorFile) ? fs.statSync(k.vendorFile) : null;
    return sha1([sha1(fs.readFileSync(k.moduleFile, 'latin1')), k.vendorFile ?? '', vendor ? `${vendor.size}:${vendor.mtimeMs}` : '', engineStamp(), stable(k.manifest), k.siteUrl, process.version].join('\n'));
  } catch {
    return null;
  }
}

export interface Incremental {
  /** Whether the page file `output` in the staging folder is what rendering `route` would write now. */
  reusable(route: Route): Entry | null;
  reusableAlias(alias: Alias): boolean;
  /** Remembers a page just rendered and written (its reads as recorded by the render). */
  rendered(route: Route, reads: string[], result: { islands: string[]; links: string[] }): Promise<void>;
  renderedAlias(alias: Alias): Promise<void>;
  /** Writes the record of this build's output; call after it was swapped in. */
  save(): Promise<void>;
}

/**
 * The record of the builds before, for a build staging in `stagingDir` (`reuse`: it holds a kept output,
 * else every page is new). `key` null (the module could not be read) reuses nothing and records nothing.
 */
export async function openIncremental(root: string, outDir: string, stagingDir: string, key: string | null, content: Content, reuse: boolean): Promise<Incremental> {
  let old: PageRecord | null = null;
  try {
    const r = JSON.parse(await fsp.readFile(recordFile(root), 'utf8')) as PageRecord;
    if (r.version === VERSION && r.outDir === outDir && Array.isArray(r.generations)) old = r;
  } catch { /* none yet, or unreadable: nothing is reused */ }
  const hashes = new Map<string, string | null>();
  const collectionHash = (name: string): string | null => {
    if (!hashes.has(name)) {
      let h: string | null;
      try { h = sha1(stable((content as Record<string, unknown>)[name])); } catch (e) { if (!(e instanceof Unknown)) throw e; h = null; }
      hashes.set(name, h);
    }
    return hashes.get(name)!;
  };
  const routeKey = (route: Route): string | null => {
    if (!key) return null;
    try { return sha1(`${key}\n${routeText(route)}`); } catch (e) { if (!(e instanceof Unknown)) throw e; return null; }
  };
  const aliasKey = (a: Alias) => (key ? sha1(`${key}\nalias\n${a.to}`) : null);
  const next: Record<string, Entry> = {};
  const stampIn = (output: string): Stamp | null => {
    try { const s = fs.lstatSync(path.join(stagingDir, output)); return s.isFile() ? stampOf(s) : null; } catch { return null; }
  };
  /** The entry of whichever earlier output the staged file is, if its key is `k`. */
  const find = (output: string, k: string | null): Entry | null => {
    if (!reuse || !old || !k) return null;
    const stamp = stampIn(output);
    if (!stamp) return null;
    for (const g of old.generations) {
      const e = g?.[output];
      if (e && e.key === k && sameStamp(e.stamp, stamp)) return e;
    }
    return null;
  };
  // Synchronous: one lstat is a few microseconds, while an awaited one per page (thousands, one after another)
  // left the thread idle for seconds on a big site.
  const record = async (output: string, entry: Omit<Entry, 'stamp'>) => {
    const stamp = stampIn(output);
    if (stamp) next[output] = { ...entry, stamp };
  };
  return {
    reusable(route) {
      const e = find(route.output, routeKey(route));
      if (!e || !e.reads.every(([name, h]) => collectionHash(name) === h)) return null;
      next[route.output] = e;
      return e;
    },
    reusableAlias(alias) {
      const e = find(alias.output, aliasKey(alias));
      if (e) next[alias.output] = e;
      return !!e;
    },
    async rendered(route, reads, result) {
      const k = routeKey(route);
      const hashed = reads.map((name): [string, string | null] => [name, collectionHash(name)]);
      if (!k || hashed.some(([, h]) => h === null)) return;
      await record(route.output, { key: k, reads: hashed as [string, string][], islands: result.islands, links: result.links });
    },
    async renderedAlias(alias) {
      const k = aliasKey(alias);
      if (k) await record(alias.output, { key: k, reads: [], islands: [], links: [] });
    },
    async save() {
      const rec: PageRecord = { version: VERSION, outDir, generations: [next, old?.generations[0] ?? {}] };
      const file = recordFile(root);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.tmp-${process.pid}`;
      await fsp.writeFile(tmp, JSON.stringify(rec));
      await fsp.rename(tmp, file);
    },
  };
}
