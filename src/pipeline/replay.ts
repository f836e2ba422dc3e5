// replay: a build whose only change since the last one is the body of Markdown files, done without the site's
// routes() and without the rest of the content. The build before recorded (saveReplay) what routes() and
// validate() read of the entries' bodies (links, words…: content/diskBody.ts noteBodyReads), each entry as a line
// (its fields, its data, its body's place on disk), which routes show each entry, and those routes themselves
// (replayCodec.ts: entries by file, components by name). When the edited files parse and validate cleanly, with
// the data and the read fields of their recorded entries, routes() would return the same table, so only the routes
// that show them render again (replayBuild.ts); a page that then has other links, ids or islands than before, or
// any case the record cannot answer, is left to the whole build, which reports it as always.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Content, Entry, Route } from '../core/types.ts';
import type { ManifestLinks } from '../render/page.ts';
import type { ReadyPlan, Session } from './session.ts';
import { siteCachePath } from '../cache/registry.ts';
import { writeFileAtomic } from '../cache/index.ts';
import { stable, Unknown } from './stableText.ts';
import { bodyOf, defineBody, type BodyRef } from '../content/diskBody.ts';
import { exportByName, exportNames } from '../site/exportRegistry.ts';
import { decode, encode, Unencodable, type Json, type Names } from './replayCodec.ts';
import { hasOutputHooks } from '../output/pluginOutputs.ts';
import { validateReads } from '../content/crossFile.ts';

const VERSION = 2;
const indexFile = (root: string) => siteCachePath(root, 'replay');
const linesFile = (root: string) => siteCachePath(root, 'replayRoutes');
const editedFile = (root: string) => siteCachePath(root, 'replayEdited');

/** The files builds replayed since the record was made: their lines there are of their content before. */
export function replayedFiles(root: string): string[] {
  try { const list = JSON.parse(fs.readFileSync(editedFile(root), 'utf8')); return Array.isArray(list) ? list : []; } catch { return []; }
}
/** Notes that a build replayed edits of `files` (besides the ones noted before). */
export async function noteReplayed(root: string, files: string[]): Promise<void> {
  await writeFileAtomic(editedFile(root), JSON.stringify([...new Set([...replayedFiles(root), ...files])].sort()));
}

/** Body fields a replay compares (an entry's HTML never: a routes() that reads it is never replayed). */
const COMPARED = new Set(['headings', 'excerpt', 'links', 'words', 'readingMinutes']);
/** An entry's fields its body answers (read from its place on disk when the entry is made again). */
const BODY = new Set(['html', ...COMPARED]);

/** Per content file of an entry: its collection, the routes (by index) whose props hold its entry, whether its
 *  body holds a component or an image (1, 2), and where its entry's line is (byte offset and length). */
type FileFacts = [collection: string, routes: number[], flags: number, at: number, bytes: number];
export interface ReplayIndex {
  version: number;
  reads: string[];
  siteUrl: string;
  manifest: ManifestLinks;
  files: Record<string, FileFacts>;
  /** Each route's line, as offset and length (two numbers a route); -1: it shows no entry, -2: it shows some
   *  but cannot be replayed. */
  at: number[];
}

/** Forgets the record (a build that may not finish, or whose output it does not describe, starts with this). */
export async function dropReplay(root: string): Promise<void> {
  await Promise.all([indexFile(root), linesFile(root), editedFile(root)].map((f) => fsp.rm(f, { force: true })));
}

/** Every entry an unencodable value holds (plain data walked), or false when it holds what could hide one. */
function entriesIn(value: unknown, names: Names, found: (file: string) => void): boolean {
  const seen = new Set<object>();
  const walk = (v: unknown): boolean => {
    // (a function the site does not export may hold an entry: what it shows cannot be known)
    if (typeof v === 'function') return names.exportOf(v) !== undefined;
    if (!v || typeof v !== 'object') return true;
    const file = names.entry(v);
    if (file !== undefined) { found(file); return true; }
    if (seen.has(v)) return true;
    seen.add(v);
    if (Array.isArray(v)) return v.every(walk);
    if (v instanceof Date) return true;
    if (v instanceof Map || v instanceof Set) return [...v].every((x) => walk(x));
    const proto = Object.getPrototypeOf(v);
    if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(v).length) return false;
    return Object.values(v).every(walk);
  };
  return walk(value);
}

/**
 * Records the build that just went live for the next one to replay an edit on, when it can: every Markdown body
 * on disk (so reads of its fields are seen), no plugin output reading the content, no page whose render read a
 * collection (`collectionsRead`), and routes() and validate() read no body's HTML.
 */
export async function saveReplay(root: string, session: Session, plan: ReadyPlan, manifest: ManifestLinks, collectionsRead: Set<string>): Promise<void> {
  const config = session.site!.config;
  // What routes() and validate() read of the bodies (a validate() that did not run this build: unknown).
  const checked = config.validate ? validateReads.get(config) : new Set<string>();
  const reads = [...new Set([...plan.routing.bodyReads ?? ['html'], ...checked ?? ['html']])].sort();
  if (hasOutputHooks(config.plugins) || collectionsRead.size || reads.some((f) => !COMPARED.has(f))) return;
  // The lines written as they are made, a megabyte at a time (100,000 routes and entries: ~60 MB held at once).
  await fsp.mkdir(path.dirname(indexFile(root)), { recursive: true });
  const tmp = `${linesFile(root)}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, 'w');
  let bytes = 0, chunk = '';
  const flush = () => { if (chunk) fs.writeSync(fd, chunk); chunk = ''; };
  const line = (text: string): [number, number] => { const n = Buffer.byteLength(text); chunk += `${text}\n`; if (chunk.length > 1 << 20) flush(); bytes += n + 1; return [bytes - n - 1, n]; };
  let made: Pick<ReplayIndex, 'files' | 'at'> | null;
  try {
    made = recordLines(root, session.content as Content, plan.routing.table.routes, line);
    flush();
  } catch (e) { fs.closeSync(fd); fs.rmSync(tmp, { force: true }); throw e; }
  fs.closeSync(fd);
  if (!made) { fs.rmSync(tmp, { force: true }); return; }
  fs.renameSync(tmp, linesFile(root));
  const index: ReplayIndex = { version: VERSION, reads, siteUrl: session.siteUrl(), manifest, ...made };
  await writeFileAtomic(indexFile(root), JSON.stringify(index));
}

/** Writes a line for each entry and each route that shows one (`line` gives where it went); the index of them,
 *  or null when the build cannot be replayed on. */
function recordLines(root: string, content: Content, routes: Route[], line: (text: string) => [number, number]): Pick<ReplayIndex, 'files' | 'at'> | null {
  const byEntry = new Map<object, string>();
  const files: Record<string, FileFacts> = {};
  const at: number[] = [];
  const all: [string, Entry][] = [];
  for (const [name, value] of Object.entries(content)) if (Array.isArray(value)) for (const e of value as Entry[]) { byEntry.set(e, e.file); all.push([name, e]); }
  // (a file two collections take is two entries of one name: the record names entries by their file)
  if (new Set(all.map(([, e]) => e.file)).size !== all.length) return null;
  const exports = exportNames(root);
  const names: Names = { entry: (o) => byEntry.get(o), exportOf: (v) => exports.get(v) };
  // Each entry as a line a later build makes it again from: its own fields in their order, its data, its body's
  // place on disk; and the entries its data holds (references: a route that shows it shows them too).
  const holds = new Map<string, string[]>();
  for (const [name, e] of all) {
    const ref = bodyOf(e);
    if (!ref && e.file.endsWith('.md')) return null; // (a body in memory: reads of its fields are not seen)
    const keys = Object.keys(e);
    const held: string[] = [];
    holds.set(e.file, held);
    let fields = '';
    try {
      for (const k of keys) if (!BODY.has(k)) fields += `${fields ? ',' : ''}${JSON.stringify(k)}:${encode((e as unknown as Record<string, unknown>)[k], names, (f) => held.push(f))}`;
    } catch (x) {
      if (!(x instanceof Unencodable)) throw x;
      if (!entriesIn(e.data, names, (f) => held.push(f))) return null;
      continue;
    }
    files[e.file.slice('content/'.length)] = [name, [], ref ? (ref.c ? 1 : 0) | (ref.img ? 2 : 0) : 0, ...line(`{"k":${JSON.stringify(keys)},"e":{${fields}}${ref ? `,"b":${JSON.stringify(ref)}` : ''}}`)];
  }
  for (let i = 0; i < routes.length; i++) {
    const { component, body, props, ...rest } = routes[i];
    let text: string | null = null;
    const shown = new Set<string>();
    const c = exports.get(component);
    // (a component made in routes() may hold any entry: what the page shows cannot be known)
    if (c === undefined && !body) return null;
    try {
      const p = encode(props, names, (f) => shown.add(f));
      if (c && !body) text = `{"c":${JSON.stringify(c)},"p":${p},"r":${encode(rest, names, (f) => shown.add(f))}}`;
    } catch (x) {
      if (!(x instanceof Unencodable)) throw x;
      // (what the route shows, to know when it is affected: it then leaves the edit to a whole build)
      if (!entriesIn(props, names, (f) => shown.add(f))) return null;
    }
    for (const file of shown) for (const h of holds.get(file) ?? []) shown.add(h); // (a Set walks what is added as it goes)
    for (const file of shown) files[file.slice('content/'.length)]?.[1].push(i);
    if (!shown.size) at.push(-1, 0); // (no entry: an edit of a body never changes it)
    else if (text === null) at.push(-2, 0);
    else at.push(...line(text));
  }
  return { files, at };
}

/** The record, when there is one of this version. */
export function readReplay(root: string): ReplayIndex | null {
  try {
    const r = JSON.parse(fs.readFileSync(indexFile(root), 'utf8')) as ReplayIndex;
    return r?.version === VERSION ? r : null;
  } catch { return null; }
}

/** The record's entries and routes, made again from their lines; `edited`: the entries parsed now, which stand
 *  for theirs. Closed by the caller. */
export function recordReader(root: string, index: ReplayIndex, edited: Map<string, Entry>) {
  const fd = fs.openSync(linesFile(root), 'r');
  const read = (at: number, n: number): unknown => { const buf = Buffer.alloc(n); fs.readSync(fd, buf, 0, n, at); return JSON.parse(buf.toString('utf8')); };
  const made = new Map<string, Entry>();
  /** The entry of a file as the record has it (a body from its place on disk). */
  const recorded = (file: string): Entry | undefined => {
    const f = index.files[file.slice('content/'.length)];
    if (!f) return undefined;
    const { k, e, b } = read(f[3], f[4]) as { k: string[]; e: Json; b?: BodyRef };
    const fields = decode(e, resolve) as Record<string, unknown>;
    const plain: Record<string, unknown> = {};
    for (const key of k) plain[key] = fields[key];
    return (b ? defineBody(plain as unknown as Entry, root, b, true) : plain) as Entry;
  };
  const resolve = {
    exportByName: (n: string) => exportByName(root, n),
    entry(file: string): Entry | undefined {
      let e = edited.get(file) ?? made.get(file);
      if (!e && (e = recorded(file))) made.set(file, e);
      return e;
    },
  };
  return {
    /** Whether `e` (a file parsed now) has its recorded entry's data and read body fields. */
    same(e: Entry): boolean {
      try {
        const was = recorded(e.file);
        const of = (x: Entry) => stable([x.data, ...index.reads.map((f) => (x as unknown as Record<string, unknown>)[f])]);
        return !!was && of(was) === of(e);
      } catch (x) { if (x instanceof Unknown || x instanceof Unencodable) return false; throw x; }
    },
    /** The routes `indices`, or null when one cannot be made. */
    routes(indices: number[]): Route[] | null {
      try {
        const out: Route[] = [];
        for (const i of indices) {
          const start = index.at[2 * i]!;
          if (start < 0) return null;
          const { c, p, r } = read(start, index.at[2 * i + 1]!) as { c: string; p: Json; r: Json };
          const component = exportByName(root, c);
          if (typeof component !== 'function') return null;
          out.push({ ...(decode(r, resolve) as object), component, props: decode(p, resolve) } as Route);
        }
        return out;
      } catch (x) {
        if (x instanceof Unencodable || x instanceof SyntaxError) return null;
        throw x;
      }
    },
    close: () => fs.closeSync(fd),
  };
}
