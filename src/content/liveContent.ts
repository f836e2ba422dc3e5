// The incremental form of the content loader (load.ts), for `sitegen dev`: the same listing (links out of
// the site refused), the same plan of which file feeds which collection, the same per-file parse
// (`parseItem`, with the plugins' Markdown extensions), validation (`makeEntry`), collection values and
// cross-file checks — kept in memory and updated one file at a time. Out: the content object, its problems,
// and a version per collection that rises whenever that collection's value changes (dev pages record the
// versions they read). Parsed files are kept, so a new config (new schemas) re-validates everything without
// re-reading it; a new Markdown extension list re-reads the Markdown files. With the build's content cache
// (contentCache.ts), a file whose stamp the cache knows is not parsed at start (as in a build), and the
// cache is written back after each full load, so the next start, dev or build, parses only what changed.
import type { CollectionConfig, Content, Entry, Message, SiteConfig } from '../core/types.ts';
import { sortMessages } from '../core/errors.ts';
import { cachedResult, contentMarkdownKey, collectionSetErrors, collectionValue, helperIssueMessages, listAndPlan, makeEntry, parseItem, parseOutput, type ContentPlan, type ParseCache, type ParseOutput } from './load.ts';
import { crossFileIssues } from './crossFile.ts';
import type { ParsedFile } from './parse.ts';
import { saveContentCache } from './contentCache.ts';
import { finishContent, type EntryLists } from '../authoring/finish.ts';
import type { HelperIssue } from '../authoring/issues.ts';
import type { ImageDep } from '../images/markdown.ts';

export type ChangeKind = 'add' | 'change' | 'unlink';

/**
 * Collections with fewer files are validated without zod's compiled parsers (validate.ts ValidateOptions):
 * compiling one for each object schema costs more than it saves over a few dozen files, and each new site
 * module (a template edit) brings new schemas to compile again. Measured on the real site: re-validating
 * all content after a template edit took 24 ms of CPU with them, 7 ms without.
 */
const JIT_MIN_FILES = 100;

interface CollectionState {
  files: string[];
  entries: Map<string, { entry?: Entry; errors: Message[] }>;
  setErrors: Message[];
  version: number;
}

export interface ContentStore {
  /** Takes a new config (after the site module recompiled): re-plans and re-validates every file. */
  configure(config: SiteConfig): Promise<void>;
  /**
   * Applies changes to files below content/ (paths relative to content/) and to image files (relative to
   * the root: a Markdown file that shows one is parsed again); returns the collections that changed.
   */
  update(changes: Map<string, ChangeKind>, images?: Map<string, ChangeKind>): Promise<string[]>;
  readonly content: Content;
  /** Every content problem, sorted; cross-file checks run only when every file is valid, as in a build. */
  errors(): Message[];
  version(collection: string): number;
  /** Waits for the content cache being written. */
  close(): Promise<void>;
}

/**
 * Parses a changed file elsewhere (dev: on a worker thread, src/dev/parseWorker.ts): its entry or located
 * errors, or null to parse it here.
 */
export type ChangedFileParser = (collection: string, rel: string) => Promise<{ entry?: Entry; errors: Message[]; deps?: ImageDep[] } | null>;

/**
 * `cache`: the build's content cache (openContentCache), or none to parse every file. `parseChanged`: where
 * the files an update names are parsed (by default here, on this thread).
 */
export async function createContentStore(root: string, cache?: ParseCache, parseChanged?: ChangedFileParser): Promise<ContentStore> {
  const parsedFiles = new Map<string, ParsedFile | { errors: Message[] }>();
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
  // The image files (relative to the root) each Markdown file's body shows, from its last parse.
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

  async function entryFor(col: CollectionConfig, rel: string, files: number) {
    const how = { jitless: files < JIT_MIN_FILES };
    let parsed = parsedFiles.get(rel);
    let key: string | undefined;
    if (!parsed && cache && !edited.has(rel)) {
      const hit = await cachedResult(root, col, rel, cache, mdKey, how);
      if (hit.result) { cacheEntries.set(rel, [hit.key!, hit.result.parsed!]); noteImages(rel, hit.result.parsed?.deps); return { entry: hit.result.entry, errors: [] }; }
      key = hit.key;
    }
    if (!parsed) { parsed = await parseItem(config!, root, rel); parsedFiles.set(rel, parsed); }
    noteImages(rel, 'source' in parsed ? parsed.deps : undefined);
    if (!('source' in parsed)) { cacheEntries.delete(rel); return { errors: parsed.errors }; }
    const made = makeEntry(col, rel, parsed, undefined, how);
    if (!made.entry) cacheEntries.delete(rel);
    else if (key) cacheEntries.set(rel, [key, parseOutput(parsed, made.entry)]);
    return made;
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
    const entries = new Map<string, { entry?: Entry; errors: Message[] }>();
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
      entries.set(f, elsewhere ?? await entryFor(col, f, files.length));
    }));
    collections.set(name, { files, entries, setErrors: collectionSetErrors(name, col, files), version: ++versionCounter });
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
    // References are checked once every file is valid (a reference to a file that fails its schema is not dangling).
    const references = config && fileErrors().length === 0 ? await helperIssueMessages(root, referenceIssues) : [];
    crossErrors = config && fileErrors().length === 0 && !references.length ? await crossFileIssues(root, config, content) : references;
  }

  return {
    get content() { return content; },
    version: (name) => collections.get(name)?.version ?? 0,
    errors: () => sortMessages([...fileErrors(), ...crossErrors]),

    async configure(next) {
      config = next;
      // Another Markdown extension list parses bodies differently: Markdown files are read again.
      const key = contentMarkdownKey(next);
      if (key !== mdKey) for (const rel of [...parsedFiles.keys()]) if (rel.endsWith('.md')) parsedFiles.delete(rel);
      mdKey = key;
      plan = await listAndPlan(root, next);
      collections.clear();
      content = {};
      finished = {};
      cacheEntries.clear();
      for (const [name, col] of Object.entries(next.collections)) await refresh(name, col, null);
      finish(Object.keys(next.collections));
      await checkAcrossFiles();
      // Written in the background (as a build does); only a load with no problem, like a build's, and only
      // when some file was parsed rather than answered by the cache (an answer is the cache's own object).
      const entries: ParseCache = new Map([...cacheEntries.values()]);
      const changed = !!cache && (entries.size !== cache.size || [...entries].some(([key, output]) => cache.get(key) !== output));
      if (changed && !fileErrors().length && !crossErrors.length) saved = saved.then(() => saveContentCache(root, entries)).catch(() => {});
    },

    async update(changes, images) {
      if (images?.size) {
        changes = new Map(changes);
        for (const rel of showing(images)) if (!changes.has(rel)) changes.set(rel, 'change');
      }
      let listChanged = false;
      for (const [rel, kind] of changes) {
        parsedFiles.delete(rel);
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
