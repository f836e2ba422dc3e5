// diskBody: Markdown bodies' HTML kept in files of the build cache instead of in memory, for big sites (the
// diskBodiesMin setting: that many content files or more, with the caches on). Each load batch writes the
// HTML of the bodies it parsed, one after another in UTF-8, into one new file of <root>/.sitegen/cache/bodies/
// (its name random, never rewritten), each followed by its headings and excerpt as JSON, then its links as
// JSON; the entry's `html`, `headings`, `excerpt` and `links` are then getters that read those bytes each
// time they are asked and keep nothing, and the content cache keeps the place and the word count instead.
// So a build holds one page's body at a time whatever the site's size (100,000 bench pages: ~650 MB of
// HTML). A site keeps its pages small in memory by handing templates the entry (`entry.html` read as the page
// renders) rather than a copy of its HTML in the route's props (a copy in every route is every body at once).
import fs from 'node:fs';
import path from 'node:path';
import type { Entry } from '../core/types.ts';
import type { MarkdownText } from '../markdown/entryText.ts';
import { siteCachePath } from '../cache/registry.ts';
import { frozenHeadings } from './readOnly.ts';
import { readingMinutes } from '../markdown/entryText.ts';

/**
 * Where a body's HTML is: a file of the bodies folder, its byte offset and its byte length, then `textBytes`
 * of JSON (its headings and excerpt), then `linkBytes` of JSON (its links); `c` when it holds a component
 * element, `img` when it names an image variant (the scans for those skip the others unread). Plain data: it
 * crosses to workers and into the content cache as it is.
 */
export interface BodyRef { file: string; at: number; bytes: number; textBytes: number; linkBytes: number; c?: 1; img?: 1; /** words */ w?: number }

/** Where a body's bytes (its HTML, text and links) end in its file. */
export const endOf = (ref: BodyRef): number => ref.at + ref.bytes + ref.textBytes + ref.linkBytes;

export const bodiesDir = (root: string) => siteCachePath(root, 'bodies');

// Open bodies files, the oldest closed first: reads mostly follow the order they were written in.
const fds = new Map<string, number>();
function fdOf(file: string): number {
  const had = fds.get(file);
  if (had !== undefined) return had;
  if (fds.size >= 16) { const [old, fd] = fds.entries().next().value!; fds.delete(old); fs.closeSync(fd); }
  const fd = fs.openSync(file, 'r');
  fds.set(file, fd);
  return fd;
}

// Bodies are mostly read in the order they were written (routes() walking a collection): one read of the
// bytes that follow then answers the next bodies of the same file, where a read each (10,000 at 10,000
// pages) cost more in calls than in bytes. A body is read with its headings, excerpt and links (one read for
// all), and a read less than a window ahead of the last one in its file (the next body, or the next body's
// links when only links are read) reads a window ahead; a read further away or back reads only its body.
const WINDOW = 256 * 1024;
let windowBuf: Buffer | null = null;
/** The bytes held: `file`'s from `start`, `length` of them; `end`, where the last body read ends. */
let held = { file: '', start: 0, length: 0, end: -1 };

let named = { root: '', name: '', file: '' }; // the last bodies file read: a path made per read was 17 MB of garbage at 10,000 pages
/** `bytes` bytes at `at` of a bodies file, of the body that ends at `bodyEnd` (its headings, excerpt and
 *  links included); a clear error when the cache was deleted or cut under the build. */
function readAt(root: string, name: string, at: number, bytes: number, bodyEnd: number): string {
  const file = named.root === root && named.name === name ? named.file : (named = { root, name, file: path.join(bodiesDir(root), path.basename(name)) }).file;
  if (held.file !== file || at < held.start || at + bytes > held.start + held.length) {
    const from = Math.min(at, bodyEnd);
    const next = held.file === file && from >= held.end && from - held.end < WINDOW;
    const want = Math.max(bodyEnd - from, at + bytes - from, next ? WINDOW : 0);
    const buf = want <= WINDOW ? (windowBuf ??= Buffer.allocUnsafeSlow(WINDOW)) : Buffer.allocUnsafe(want);
    let got = 0;
    held = { file: '', start: 0, length: 0, end: -1 };
    try {
      const fd = fdOf(file);
      for (let n = 1; got < want && n > 0; got += n) n = fs.readSync(fd, buf, got, want - got, from + got);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new BodyGone(`a Markdown body kept in ${file} is gone: the file was deleted since this process found it (\`sitegen clean\`, or another \`sitegen build\` of this site, which prunes the bodies it does not keep); build again`);
      throw new Error(`cannot read a Markdown body kept in ${file}: ${(e as Error).message} (run \`sitegen clean\` and build again)`);
    }
    if (got < at + bytes - from) throw new BodyGone(`a Markdown body kept in ${file} is cut short (run \`sitegen clean\` and build again)`);
    if (buf !== windowBuf) { held.file = file; held.end = bodyEnd; return buf.toString('utf8', at - from, at - from + bytes); }
    held = { file, start: from, length: got, end: -1 };
  }
  held.end = bodyEnd;
  return windowBuf!.toString('utf8', at - held.start, at - held.start + bytes);
}

/** A kept body whose file is gone or cut short (deleted under this process, which found it whole). */
export class BodyGone extends Error {}
// The last body read and its text: a page's key, its render and its links read the same body in turn.
let last: { ref: BodyRef; html?: string; text?: Pick<MarkdownText, 'headings' | 'excerpt'>; links?: readonly string[] } | null = null;
const lastOf = (ref: BodyRef) => (last?.ref === ref ? last : (last = { ref }));

/** A body's HTML, read from its file. */
export function readBody(root: string, ref: BodyRef): string {
  const l = lastOf(ref);
  return l.html ??= readAt(root, ref.file, ref.at, ref.bytes, endOf(ref));
}

// Bodies' headings and excerpts once read, until the bodies are closed (once a build, as its bodies are pruned),
// at most TEXTS_HELD of them (then it starts again: a bound on memory at any size): a blog's routes() reads each post's
// excerpt for its list page, each of its tag pages and its own page, in orders that jump across the bodies
// files (10,000 posts: ~40,000 reads of a few hundred bytes each, 0.26 s of system calls, where one each
// takes a quarter). Small beside a body's HTML. A place names the same bytes for ever (a bodies file is never rewritten).
const texts = new Map<BodyRef, Pick<MarkdownText, 'headings' | 'excerpt'>>();
const TEXTS_HELD = 50_000;

/** A body's headings and excerpt, read from its file. */
export function readText(root: string, ref: BodyRef): Pick<MarkdownText, 'headings' | 'excerpt'> {
  const l = lastOf(ref);
  const had = l.text ?? texts.get(ref);
  if (had) return { headings: had.headings, excerpt: had.excerpt };
  const [read, excerpt] = JSON.parse(readAt(root, ref.file, ref.at + ref.bytes, ref.textBytes, endOf(ref))) as [MarkdownText['headings'], string];
  const headings = frozenHeadings(read); // read-only, as an entry's fields are (readOnly.ts)
  l.text = { headings, excerpt };
  if (texts.size >= TEXTS_HELD) texts.clear();
  texts.set(ref, l.text);
  return { headings, excerpt };
}

/** A body's links, read from its file (frozen, as an entry's links are wherever they come from). */
export function readLinks(root: string, ref: BodyRef): readonly string[] {
  const l = lastOf(ref);
  return l.links ??= Object.freeze(JSON.parse(readAt(root, ref.file, ref.at + ref.bytes + ref.textBytes, ref.linkBytes, endOf(ref))) as string[]);
}

/** A kept body's HTML, headings, excerpt and links read now, or null when its file is gone or cut short: then the
 *  caller parses its source again. A long-lived process (dev) found the file whole when it opened the content cache,
 *  but a `sitegen build` of the site since may have pruned it (its content cache no longer names it) or `sitegen clean` deleted it. */
export function readKept(root: string, ref: BodyRef): ({ html: string } & Pick<MarkdownText, 'headings' | 'excerpt' | 'links'>) | null {
  try {
    return { html: readBody(root, ref), ...readText(root, ref), links: readLinks(root, ref) };
  } catch (e) {
    if (!(e instanceof BodyGone)) throw e;
    if (sizes?.root === root) sizes.of.set(ref.file, -1); // knownBody answers no for its other bodies
    return null;
  }
}

/** Closes the files readBody opened (end of a build; the next read opens them again). */
export function closeBodies(): void {
  last = null;
  texts.clear();
  held = { file: '', start: 0, length: 0, end: -1 };
  for (const fd of fds.values()) fs.closeSync(fd);
  fds.clear();
}

// A body on disk is two hidden fields of its entry (its place and the site root) and four accessors that are
// the same functions for every entry: no closure per entry or field, and entries made alike share one shape.
const REF = Symbol('body');
const ROOT = Symbol('root');
interface Held { [REF]: BodyRef; [ROOT]: string }

/** The fields of an entry a body on disk answers (its word count and reading time are in its place). */
const FIELDS = ['html', 'headings', 'excerpt', 'links', 'words', 'readingMinutes'] as const;
type Field = typeof FIELDS[number];

// Which of those fields are read while `noting` (noteBodyReads): what routes() read of the bodies.
let noting: Set<string> | null = null;
const GETTERS: Record<Field, (this: Held) => unknown> = {
  html() { noting?.add('html'); return readBody(this[ROOT], this[REF]); },
  headings() { noting?.add('headings'); return readText(this[ROOT], this[REF]).headings; },
  excerpt() { noting?.add('excerpt'); return readText(this[ROOT], this[REF]).excerpt; },
  links() { noting?.add('links'); return readLinks(this[ROOT], this[REF]); },
  words() { noting?.add('words'); return this[REF].w ?? 0; },
  readingMinutes() { noting?.add('readingMinutes'); return readingMinutes(this[REF].w ?? 0); },
};
// (no setters: entries are read-only, content/readOnly.ts)
const ACCESSORS = Object.fromEntries(FIELDS.map((f) => [f, { get: GETTERS[f], enumerable: true, configurable: true }])) as Record<Field, PropertyDescriptor>;
const getHtml = GETTERS.html;

/** Runs `fn` and says which body fields of entries whose body is on disk it read (the value `fn` returned too). */
export function noteBodyReads<T>(fn: () => T): { value: T; read: Set<string> } {
  const outer = noting;
  const read = (noting = new Set());
  try { return { value: fn(), read }; } finally { noting = outer; if (outer) for (const f of read) outer.add(f); }
}

const isField = (k: string): k is Field => (FIELDS as readonly string[]).includes(k);

/** The entry with `html`, `headings`, `excerpt` and `links` reading from the body's file whenever they are
 *  read (enumerable accessors in the places of an eager entry's fields, which are added when it has none). A new
 *  object with the entry's own fields in their order: use the one returned. `plain`: the caller made the entry
 *  with plain fields only (entryOf), which are then copied as values. */
export function defineBody(entry: Entry, root: string, ref: BodyRef, plain = false): Entry {
  const out = {} as Record<string | symbol, unknown>;
  made.add(out);
  Object.defineProperty(out, REF, { value: ref, writable: true, configurable: true });
  Object.defineProperty(out, ROOT, { value: root, writable: true, configurable: true });
  if (plain) {
    // An entry just made by entryOf (every field a plain one): copied by value, without a descriptor of
    // each field (10,000 cached entries: ~3x faster).
    for (const k of Object.keys(entry)) {
      if (isField(k)) Object.defineProperty(out, k, ACCESSORS[k]);
      else out[k] = (entry as unknown as Record<string, unknown>)[k];
    }
    for (const f of FIELDS) if (!Object.hasOwn(entry, f)) Object.defineProperty(out, f, ACCESSORS[f]);
    return out as unknown as Entry;
  }
  const own = Object.getOwnPropertyDescriptors(entry);
  for (const k of Object.keys(own)) {
    if (k === 'bodyAt' && own[k].value === ref) continue;
    if (isField(k)) Object.defineProperty(out, k, ACCESSORS[k]);
    else if ('value' in own[k] && own[k].enumerable && own[k].writable && own[k].configurable) out[k] = own[k].value;
    else Object.defineProperty(out, k, own[k]);
  }
  for (const f of FIELDS) if (!(f in own)) Object.defineProperty(out, f, ACCESSORS[f]);
  return out as unknown as Entry;
}

/** Where an entry's body is kept, when it is on disk. */
export function bodyOf(entry: object): BodyRef | undefined {
  if (!(REF in entry)) return undefined; // (most objects a stable text walks are not entries: no descriptor read)
  const get = Object.getOwnPropertyDescriptor(entry, 'html')?.get;
  return get === getHtml ? (entry as Partial<Held>)[REF] : undefined;
}

// The entries defineBody made: every field is the file's parse (its place names it) through the site's schema and
// collection (the site module, in a build's key). A copy (finish.ts resolving references) is not one of them.
const made = new WeakSet<object>();

/** For an entry whose body is on disk: its fields as a stable text would walk them — the body's fields still
 *  reading from disk left out — and its body's place, which names those bytes (a bodies file is never rewritten:
 *  an edited body is written to a new file). `parse`: the entry is as defineBody made it (frozen), so its place
 *  names all of it and `fields` is empty (100,000 bench pages: the changes stage 2.1-2.3 -> 1.7 s). Else undefined. */
export function bodyFields(o: object): { place: string; fields: [string, unknown][]; parse?: true } | undefined {
  const ref = bodyOf(o);
  // (a symbol key of the site's own: state a text cannot show, as on any other object)
  if (!ref || Object.getOwnPropertySymbols(o).length !== 2) return undefined;
  if (made.has(o) && Object.isFrozen(o)) return { place: placeOf(ref), fields: [], parse: true };
  const fields: [string, unknown][] = [];
  for (const k of Object.keys(o)) {
    // (a body field that is a plain field, as in a copy of the entry made by the site, is walked as any other)
    if (isField(k) && Object.getOwnPropertyDescriptor(o, k)!.get === ACCESSORS[k].get) continue;
    fields.push([k, (o as Record<string, unknown>)[k]]);
  }
  return { place: placeOf(ref), fields };
}

const placeOf = (ref: BodyRef) => `${path.basename(ref.file)}:${ref.at}:${ref.bytes}:${ref.textBytes}:${ref.linkBytes}`;

/** Whether an entry's body may hold a component element or an image variant: false only for a body on disk
 *  written without one, which is then not read to look. */
export function bodyMayHold(entry: object, what: 'component' | 'image'): boolean {
  const ref = bodyOf(entry);
  return !ref || (what === 'component' ? ref.c === 1 : ref.img === 1);
}

/** An entry as plain data for another thread: its body's place (`bodyAt`) instead of its text. */
export function wireEntry<E extends Entry | undefined>(entry: E): E {
  const ref = entry && bodyOf(entry);
  if (!ref) return entry;
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(entry);
  for (const f of FIELDS) if (descriptors[f]?.get) delete descriptors[f];
  delete (descriptors as Record<symbol, unknown>)[REF];
  delete (descriptors as Record<symbol, unknown>)[ROOT];
  return Object.assign(Object.defineProperties({}, descriptors), { bodyAt: ref }) as unknown as E;
}

/** The entry wireEntry made, reading its body from disk again. */
export function unwireEntry<E extends Entry | undefined>(entry: E, root: string): E {
  const ref = (entry as { bodyAt?: BodyRef } | undefined)?.bodyAt;
  if (!entry || !ref) return entry;
  return defineBody(entry, root, ref) as E; // a new object, without bodyAt
}

// Each bodies file's size, by name, as found when the content cache was opened (knownBody).
let sizes: { root: string; of: Map<string, number> } | null = null;

/** Whether the bytes a cached place names are still there (a deleted or cut file: the body is parsed again). */
export function knownBody(root: string, ref: BodyRef): boolean {
  if (sizes?.root !== root) sizes = { root, of: new Map() };
  let size = sizes.of.get(ref.file);
  if (size === undefined) {
    try { size = fs.statSync(path.join(bodiesDir(root), path.basename(ref.file))).size; } catch { size = -1; }
    sizes.of.set(ref.file, size);
  }
  return endOf(ref) <= size; // its HTML, then its headings and excerpt, then its links
}

/** Deletes the bodies files that no kept place names (after the content cache was saved, or not). */
export function pruneBodies(root: string, keep: Iterable<BodyRef | undefined>): void {
  closeBodies();
  sizes = null;
  const names = new Set<string>();
  for (const ref of keep) if (ref) names.add(ref.file);
  let files: string[];
  try { files = fs.readdirSync(bodiesDir(root)); } catch { return; }
  for (const f of files) if (!names.has(f) && !f.endsWith('.tmp')) fs.rmSync(path.join(bodiesDir(root), f), { force: true });
}
