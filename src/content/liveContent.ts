// The incremental form of the content loader (load.ts), for `sitegen dev`: the same listing (links out of
// the site refused), the same plan of which file feeds which collection, the same per-file parse
// (`parseItem`, with the plugins' Markdown extensions), validation (`makeEntry`), collection values and
// cross-file checks — kept in memory and updated one file at a time. Out: the content object, its problems,
// and a version per collection that rises whenever that collection's value changes (dev pages record the
// versions they read). Parsed files are kept: a new config (new schemas) re-validates without re-reading; a
// new Markdown extension list re-reads the Markdown files. With the build's content cache (contentCache.ts)
// a file whose stamp it knows is not parsed at start, and the cache is written back after each full load.
import type { CollectionConfig, Content, Entry, Message, SiteConfig } from '../core/types.ts';
import { sortMessages } from '../core/errors.ts';
import { cachedResult, contentMarkdownKey, listAndPlan, parseItem, parseOutput, stampKey, type ContentPlan, type ParseCache, type ParseOutput } from './load.ts';
import { collectionSetErrors, collectionValue, failedErrors, makeEntry, makeLazyEntry, uncheckedOf } from './entry.ts';
import { lazyBody, releaseBodies, type LazyBody } from './lazyBody.ts';
import { crossFileMessages } from './crossFile.ts';
import type { FailedParse, LazyParsedFile, ParsedFile } from './parse.ts';
import { validateOptionsFor, type ValidateOptions } from './validate.ts';
import { saveContentCache } from './contentCache.ts';
import { finishContent, type EntryLists } from '../authoring/finish.ts';
import type { HelperIssue } from '../authoring/issues.ts';
import { allDeps, depsOf, fieldImages, type ImageDep } from '../images/local.ts';

export type ChangeKind = 'add' | 'change' | 'unlink';
interface CollectionState { files: string[]; entries: Map<string, { entry?: Entry; errors: Message[]; warnings?: Message[] }>; setErrors: Message[]; version: number }

export interface ContentStore {
  /** Takes a new config (after the site module recompiled): re-plans and re-validates every file. */
  configure(config: SiteConfig): Promise<void>;
  /**
   * Applies changes to files below content/ (paths relative to content/) and to image files (relative to
   * the root: a Markdown file that shows one is parsed again); returns the collections that changed.
   */
  update(changes: Map<string, ChangeKind>, images?: Map<string, ChangeKind>): Promise<string[]>;
  readonly content: Content;
  /** Every content problem, sorted (cross-file checks run only when every file is valid, as in a build); the warnings. */
  errors(): Message[]; warnings(): Message[];
  version(collection: string): number;
  /** Whether some Markdown bodies are not compiled yet (a lazy start: see createContentStore). */
  pending(): boolean;
  /** Compiles the bodies left (`pause` between a few) and finishes the load: a body's problems are its file's
   *  errors, the cross-file checks run, the cache is written. Whether the content, its problems or its warnings changed. */
  settle(pause?: () => Promise<void>): Promise<boolean>;
  /** Waits for the content cache being written. */
  close(): Promise<void>;
}

/**
 * Parses a changed file elsewhere (dev: on a worker thread, src/dev/parseWorker.ts): its entry or located
 * errors, or null to parse it here.
 */
export type ChangedFileParser = (collection: string, rel: string) => Promise<{ entry?: Entry; errors: Message[]; warnings?: Message[]; deps?: ImageDep[] } | null>;

/**
 * `cache`: the build's content cache (openContentCache), or none to parse every file. `parseChanged`: where
 * the files an update names are parsed (by default here, on this thread). `lazy` (dev's start): the first
 * load compiles a Markdown body when a body field is read, or at settle(), which the cross-file checks (they
 * read bodies) and the cache write wait for; a load with a problem in some file compiles them all at once.
 */
export async function createContentStore(root: string, cache?: ParseCache, parseChanged?: ChangedFileParser, opts: { lazy?: boolean } = {}): Promise<ContentStore> {
  let lazyLoad = !!opts.lazy;
  /** Lazy bodies not settled yet, by file: its collection, cache key and parse. */
  const pending = new Map<string, { name: string; key?: string; parsed: LazyParsedFile; body: LazyBody; fm?: Message[] }>();
  /** A lazily read file's warnings: its front matter's (read at once), then its body's (once compiled). */
  const both = (fm: Message[] | undefined, body: Message[] | undefined) => (fm?.length || body?.length ? [...fm ?? [], ...body ?? []] : undefined);
  const parsedFiles = new Map<string, ParsedFile | FailedParse>();
  const collections = new Map<string, CollectionState>();
  let config: SiteConfig | null = null;
  let plan: (ContentPlan & { refused: Message[] }) | null = null;
  let content: Content = {};
  let crossErrors: Message[] = [];
  // Each collection's entries after drafts and references (authoring/finish.ts); dev keeps drafts.
  let finished: EntryLists = {};
  let referenceIssues: HelperIssue[] = [];
  const resolved = new WeakMap<Entry, { resolved: Entry; targets: Entry[] }>();
  let versionCounter = 0;
  let mdKey = '';
  // What the content cache should hold after a full load: each good file's key and parse output.
  const cacheEntries = new Map<string, [key: string, output: ParseOutput]>();
  // Files changed while dev runs are always parsed: an edit that keeps size and mtime is still an edit.
  const edited = new Set<string>();
  let saved: Promise<void> = Promise.resolve();
  // The image files (relative to the root) each file's body shows and its imageFile() fields name, from its last parse.
  const imageDeps = new Map<string, string[]>();
  const noteImages = (rel: string, deps: ImageDep[] | undefined) => {
    if (deps?.length) imageDeps.set(rel, deps.map(([f]) => f)); else imageDeps.delete(rel);
  };
  /** The content files to parse again for changed images: those showing one, and, for a new image, those with an image problem (it may be the missing file). */
  function showing(images: Map<string, ChangeKind>): string[] {
    const out: string[] = [];
    for (const [rel, files] of imageDeps) if (files.some((f) => images.has(f))) out.push(rel);
    if ([...images.values()].includes('add')) {
      for (const c of collections.values()) for (const [rel, e] of c.entries) if (e.errors.some((m) => m.id === 'ImageError')) out.push(rel);
    }
    return out;
  }

  async function entryFor(col: CollectionConfig, rel: string, files: number, name?: string) {
    const how = { ...validateOptionsFor(files), images: fieldImages(config!, root) };
    let parsed = parsedFiles.get(rel);
    let key: string | undefined;
    // An empty cache (a fresh clone) answers nothing: no file is stat'ed for it; a parsed file's key comes from its read.
    if (!parsed && cache?.size && !edited.has(rel)) {
      const hit = await cachedResult(root, col, rel, cache, mdKey, undefined, undefined, how);
      if (hit.result) { cacheEntries.set(rel, [hit.key!, hit.result.parsed!]); noteImages(rel, hit.result.parsed?.deps); return { entry: hit.result.entry, errors: [], warnings: hit.result.warnings }; }
      key = hit.key;
    }
    if (!parsed && lazyLoad && name && rel.endsWith('.md')) {
      const read = await parseItem(config!, root, rel, true);
      if ('compileBody' in read) return lazyEntry(col, name, rel, read as LazyParsedFile, key ?? stampedKey(rel, read), how);
      parsed = read;
      parsedFiles.set(rel, parsed);
    }
    if (!parsed) { parsed = await parseItem(config!, root, rel); parsedFiles.set(rel, parsed); }
    key ??= stampedKey(rel, parsed);
    if (!('source' in parsed)) { noteImages(rel, undefined); cacheEntries.delete(rel); return { errors: failedErrors(col, parsed, how) }; }
    const made = makeEntry(col, rel, parsed, undefined, how);
    noteImages(rel, allDeps(parsed)); // (its body's images and its fields')
    if (!made.entry) cacheEntries.delete(rel);
    else if (key) cacheEntries.set(rel, [key, parseOutput(parsed, made.entry)]);
    return made.entry ? { ...made, warnings: parsed.warnings } : made;
  }

  /** The cache key of a file read now (not for an edited file: only what a load reads is cached). */
  const stampedKey = (rel: string, parsed: ParsedFile | FailedParse) =>
    cache && !edited.has(rel) && 'stamp' in parsed && parsed.stamp ? stampKey(rel, parsed.stamp.size, parsed.stamp.mtimeMs, mdKey) : undefined;

  /** The entry of a file read with its body left to compile; once compiled, the parse is kept as an eager one. */
  function lazyEntry(col: CollectionConfig, name: string, rel: string, parsed: LazyParsedFile, key: string | undefined, how: ValidateOptions) {
    const fm = parsed.warnings;
    const body = lazyBody(parsed.compileBody, (r) => {
      // The parse a later config re-validates: the eager one's (a body with problems: a FailedParse, parse.ts).
      if (parsedFiles.get(rel) !== parsed) return;
      if (r.errors.length) parsedFiles.set(rel, { errors: r.errors, unchecked: uncheckedOf(parsed) });
      else Object.assign(parsed, { html: r.html, text: r.text, ...(r.deps ? { deps: r.deps } : {}), warnings: both(fm, r.warnings) });
      noteImages(rel, allDeps({ deps: r.deps, fieldDeps: parsed.fieldDeps }));
    });
    parsedFiles.set(rel, parsed);
    const made = makeLazyEntry(col, rel, parsed, body, how);
    noteImages(rel, allDeps({ deps: body.result?.deps, fieldDeps: parsed.fieldDeps })); // (its body's once compiled: at once when the schema failed)
    if (made.entry) pending.set(rel, { name, key, parsed, body, fm }); else cacheEntries.delete(rel);
    return made.entry && fm ? { ...made, warnings: fm } : made;
  }

  /** The files of collection `name` in the current plan. */
  function filesOf(name: string): string[] {
    const span = plan!.spans.find(([n]) => n === name)!;
    return plan!.items.slice(span[1], span[2]).map((i) => i.rel);
  }

  /** Rebuilds one collection's value; `dirty` are files whose cached entries are stale. */
  async function refresh(name: string, col: CollectionConfig, dirty: Set<string> | null): Promise<boolean> {
    const files = filesOf(name);
    const prev = collections.get(name);
    const sameFiles = !!prev && prev.files.length === files.length && prev.files.every((f, i) => f === files[i]);
    if (prev && sameFiles && dirty && !files.some((f) => dirty.has(f))) return false;
    // Unchanged files keep their entry objects, which is what makes comparing routes cheap downstream.
    const entries = new Map<string, { entry?: Entry; errors: Message[]; warnings?: Message[] }>();
    const stale: string[] = [];
    for (const f of files) {
      const kept = dirty && prev?.entries.get(f);
      if (kept && !dirty.has(f)) entries.set(f, kept); else stale.push(f);
    }
    await Promise.all(stale.map(async (f) => {
      // A file this update names is parsed by parseChanged when there is one (its result is not kept in
      // parsedFiles: a new config parses it again, as after a cache hit).
      const elsewhere = dirty?.has(f) && parseChanged ? await parseChanged(name, f) : null;
      if (elsewhere) { parsedFiles.delete(f); noteImages(f, elsewhere.deps); }
      if (elsewhere && (elsewhere.errors.length || !elsewhere.entry)) cacheEntries.delete(f);
      entries.set(f, elsewhere ?? await entryFor(col, f, files.length, name));
    }));
    collections.set(name, { files, entries, setErrors: collectionSetErrors(name, col, files, root), version: ++versionCounter });
    return true;
  }

  /**
   * The content from the collections' entries, references resolved: a collection whose resolved entries
   * changed because an entry it refers to changed counts as changed too (added to `changed`, version up).
   */
  function finish(changed: string[]): void {
    const lists: EntryLists = {};
    for (const [name, c] of collections) lists[name] = c.files.flatMap((f) => c.entries.get(f)?.entry ?? []);
    const r = finishContent(config!, lists, { drafts: true }, resolved);
    referenceIssues = r.issues;
    const next: Content = {};
    for (const [name, col] of Object.entries(config!.collections)) {
      const list = r.lists[name] ?? [];
      const prev = finished[name];
      let fresh = changed.includes(name) || !prev;
      if (!fresh && (prev.length !== list.length || prev.some((e, i) => e !== list[i]))) {
        collections.get(name)!.version = ++versionCounter;
        changed.push(name);
        fresh = true;
      }
      next[name] = !fresh ? content[name] : collections.get(name)!.files.length ? collectionValue(col, list) : (col.single ? undefined : []);
    }
    finished = r.lists;
    content = next;
  }

  /** Problems of the listing (links out of the site), the file sets and the files, in a build's order. */
  function fileErrors(): Message[] {
    const out: Message[] = plan ? [...plan.refused] : [];
    for (const c of collections.values()) {
      out.push(...c.setErrors);
      for (const e of c.entries.values()) out.push(...e.errors);
    }
    return out;
  }

  async function checkAcrossFiles(): Promise<void> {
    const beyondFiles = !!plan?.refused.length || [...collections.values()].some((c) => c.setErrors.length);
    const failedIn = [...collections].filter(([, c]) => [...c.entries.values()].some((e) => e.errors.length)).map(([name]) => name);
    crossErrors = config ? await crossFileMessages(root, config, content, { fileErrors: fileErrors().length, failedIn, beyondFiles, references: referenceIssues }) : [];
  }

  function saveCache(): void {
    // Written in the background (as a build does); only a load with no problem, like a build's, and only
    // when some file was parsed rather than answered by the cache (an answer is the cache's own object).
    const entries: ParseCache = new Map([...cacheEntries.values()]);
    const changed = !!cache && (entries.size !== cache.size || [...entries].some(([key, output]) => cache.get(key) !== output));
    if (changed && !fileErrors().length && !crossErrors.length) saved = saved.then(() => saveContentCache(root, entries)).catch(() => {});
  }

  async function settle(pause?: () => Promise<void>): Promise<boolean> {
    if (!pending.size) return false;
    let n = 0, warned = false;
    for (const p of pending.values()) if (!p.body.result) { p.body.compile(); if (pause && ++n % 8 === 0) await pause(); }
    const changed = new Set<string>();
    for (const [rel, p] of pending) {
      const r = p.body.result!, c = collections.get(p.name);
      if (r.errors.length) {
        // The file's errors, as the eager load gives them; its entry leaves the collection.
        cacheEntries.delete(rel);
        if (c?.entries.has(rel)) { c.entries.set(rel, { errors: r.errors }); changed.add(p.name); }
      } else if (p.key) cacheEntries.set(rel, [p.key, { data: p.parsed.data, html: r.html ?? '', text: r.text, ...depsOf(allDeps({ deps: r.deps, fieldDeps: p.parsed.fieldDeps })), ...(both(p.fm, r.warnings) ? { warnings: both(p.fm, r.warnings) } : {}) }]);
      if (!r.errors.length && r.warnings && c?.entries.get(rel)?.entry) { c.entries.get(rel)!.warnings = both(p.fm, r.warnings); warned = true; } // (what html: 'sanitize' removed)
    }
    releaseBodies([...pending.values()].map((p) => p.body));
    pending.clear();
    for (const name of changed) collections.get(name)!.version = ++versionCounter;
    if (changed.size) finish([...changed]);
    await checkAcrossFiles();
    saveCache();
    return changed.size > 0 || crossErrors.length > 0 || warned;
  }

  return {
    get content() { return content; },
    pending: () => pending.size > 0,
    settle,
    version: (name) => collections.get(name)?.version ?? 0,
    errors: () => sortMessages([...fileErrors(), ...crossErrors]), warnings: () => sortMessages([...plan?.warnings ?? [], ...[...collections.values()].flatMap((c) => [...c.entries.values()].flatMap((e) => (e.entry && e.warnings) || []))]),

    async configure(next) {
      // Bodies left from a lazy load are compiled first: their entries are made again below, eagerly.
      if (pending.size) await settle();
      config = next;
      // Another Markdown extension list parses bodies differently: Markdown files are read again.
      const key = contentMarkdownKey(next, root);
      if (key !== mdKey) for (const rel of [...parsedFiles.keys()]) if (rel.endsWith('.md')) parsedFiles.delete(rel);
      mdKey = key;
      plan = await listAndPlan(root, next);
      collections.clear();
      content = {};
      finished = {};
      cacheEntries.clear();
      for (const [name, col] of Object.entries(next.collections)) await refresh(name, col, null);
      lazyLoad = false;
      finish(Object.keys(next.collections));
      // With bodies left to compile, the checks that read them and the cache write wait for settle(); a
      // file with a problem has every body compiled now, so the problems are all there, as in a build.
      if (pending.size && !fileErrors().length) { crossErrors = []; return; }
      if (pending.size) { await settle(); return; }
      await checkAcrossFiles();
      saveCache();
    },

    async update(changes, images) {
      if (images?.size) {
        changes = new Map(changes);
        for (const rel of showing(images)) if (!changes.has(rel)) changes.set(rel, 'change');
      }
      let listChanged = false;
      for (const [rel, kind] of changes) {
        parsedFiles.delete(rel);
        pending.delete(rel);
        edited.add(rel);
        if (kind !== 'change') listChanged = true;
      }
      if (!config) return [];
      if (listChanged) plan = await listAndPlan(root, config);
      const dirty = new Set(changes.keys());
      const changed: string[] = [];
      for (const [name, col] of Object.entries(config.collections)) if (await refresh(name, col, dirty)) changed.push(name);
      if (changed.length) { finish(changed); await checkAcrossFiles(); }
      return changed;
    },

    close: () => saved,
  };
}
