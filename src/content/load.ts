// load: reads every content file a collection's pattern matches, parses YAML or Markdown front matter,
// validates each against its schema, and returns the typed content plus every problem at once.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CollectionConfig, Content, Entry, Message, SiteConfig } from '../core/types.ts';
import { message, sortMessages } from '../core/errors.ts';
import type { FailedParse, FileStamp, ParsedFile } from './parse.ts';
import type { ValidateOptions } from './validate.ts';
import { listContentFiles, matchFiles } from './glob.ts';
import { collectionPatterns, collectionSetErrors, collectionValue, entryOf, failedErrors, makeEntry } from './entry.ts';
import { mdxRefused, strays } from './strays.ts';
import { outsideRootError } from './insideRoot.ts';
import { markdownKey } from '../markdown/compile.ts';
import { urlPolicy } from '../render/urls.ts';
import { extensionOptionsKey, markdownExtensions } from '../site/plugins.ts';
import { directivesOn } from '../markdown/directives.ts';
import { finishContent, type EntryLists, type FinishOptions } from '../authoring/finish.ts';
import type { MarkdownText } from '../markdown/entryText.ts';
import { markdownImageOptions, imageOptionsKey } from '../images/config.ts';
import { allDeps, depsOf, depsUnchanged, fieldImageReader, fieldImages, knownFieldImages, type ImageDep } from '../images/local.ts';
import { withImageReader } from '../authoring/imageFile.ts';
import { contentImagesKnown, noteCachedSources } from '../images/store.ts';
import { crossFileMessages } from './crossFile.ts';
import { knownValid, markValid, previousOutput, type KnownInputs } from './validCache.ts';
import { defineBody, knownBody, readKept, type BodyRef } from './diskBody.ts';
import { writeBodies } from './bodyStore.ts';
import { engineSettings } from '../core/settings.ts';
import { counter } from '../core/progress.ts';

export interface LoadedContent {
  content: Content;
  /** Every content file read, relative to the root, and the collection it feeds. */
  files: Map<string, string>;
  errors: Message[]; warnings: Message[];
}

let parseModule: typeof import('./parse.ts') | undefined; // loaded on first use (see parse.ts), then kept: an import() per file cost ~0.1 ms
const parser = async () => (parseModule ??= await import('./parse.ts'));
export { listContentFiles };
/** One content file: its collection and its path relative to content/. */
export interface LoadItem { collection: string; rel: string }
/** What parsing a file gives before its schema: its YAML data and, for Markdown, the body's HTML and text. */
export interface ParseOutput { data: unknown; html?: string; text?: MarkdownText; deps?: ImageDep[]; /** Where the HTML is instead, on disk (diskBody.ts). */ body?: BodyRef; warnings?: Message[] }
/** `parsed` is set when the file was parsed without a problem (what the content cache keeps). */
export interface LoadResult { entry?: Entry; errors: Message[]; parsed?: ParseOutput; stamp?: FileStamp; /** What the build says of the file and goes on (parse.ts). */ warnings?: Message[] }
/** Loads the files of `items` whose `known` result is missing: in-process (loadBatch) or spread over render
 *  workers (src/parallel/); returns every item's result. */
export type Loader = (items: LoadItem[], plan: ContentPlan, known: (LoadResult | undefined)[]) => Promise<LoadResult[]>;

/** What shapes a Markdown body's parse besides its text, for the content cache: the plugins' extension list (markdownKey,
 *  and their options: extensionOptionsKey) and the site's base, which root-relative links get ('' for neither). */
export function contentMarkdownKey(config: SiteConfig, root?: string): string {
  const key = `${markdownKey(siteMarkdown(config))}${imageOptionsKey(config)}${root ? extensionOptionsKey(config, root) : ''}`;
  const base = urlPolicy(config).base;
  return base === '/' ? key : `${key}:base=${base}`;
}

/** The Markdown extensions of a site: its plugins', and the directives when it registers components. */
const siteMarkdown = (config: SiteConfig) => directivesOn(markdownExtensions(config.plugins), !!config.components && Object.keys(config.components).length > 0);

/** What parseItem passes the parser, made once per config (not per file). */
const parseOptions = new WeakMap<SiteConfig, { base: string; markdown: ReturnType<typeof siteMarkdown>; images: ReturnType<typeof markdownImageOptions> }>();

/** Reads and parses one file below content/ as every loader does (the plugins' Markdown extensions applied); `errors` (and the front matter a body error left unchecked) when it cannot be. Dev's loader (liveContent.ts) keeps these. */
export async function parseItem(config: SiteConfig, root: string, rel: string, lazyBody = false): Promise<ParsedFile | FailedParse> {
  let o = parseOptions.get(config);
  if (!o) { const base = urlPolicy(config).base; o = { base, markdown: siteMarkdown(config), images: markdownImageOptions(config, base) }; parseOptions.set(config, o); }
  const parsed = await (parseModule ?? await parser()).parseContentFile(root, `content/${rel}`, o.markdown, o.base, o.images, lazyBody);
  return !('source' in parsed) || !parsed.errors.length ? parsed : { errors: parsed.errors, ...(parsed.unchecked ? { unchecked: parsed.unchecked } : {}) };
}

/** Reads, parses and validates files; each YAML document (kept for error locations) dies with its file.
 *  `disk`: the bodies' HTML goes into one file of the bodies cache, each entry reading its own when asked. */
export async function loadBatch(config: SiteConfig, root: string, items: LoadItem[], disk = false, step?: () => void): Promise<LoadResult[]> {
  if (!items.length) return [];
  const how = { images: fieldImages(config, root) }; // (once a batch, not once a file)
  const results = await Promise.all(items.map(async ({ collection, rel }): Promise<LoadResult> => {
    const parsed = await parseItem(config, root, rel);
    step?.(); // (progress: counted as read and parsed)
    const col = config.collections[collection];
    if (!('source' in parsed)) return { errors: failedErrors(col, parsed, how) };
    const made = makeEntry(col, rel, parsed, undefined, how);
    if (made.errors.length) return { errors: made.errors };
    contentImagesKnown(root, config, urlPolicy(config).base, made.entry);
    return { entry: made.entry, errors: [], parsed: parseOutput(parsed, made.entry!), stamp: parsed.stamp, ...(parsed.warnings ? { warnings: parsed.warnings } : {}) };
  }));
  return disk ? bodiesToDisk(root, results) : results;
}

/** The results with their bodies' HTML written to disk and read from there (diskBody.ts). */
function bodiesToDisk(root: string, results: LoadResult[]): LoadResult[] {
  const withBody = results.filter((r) => r.entry && typeof r.parsed?.html === 'string');
  if (!withBody.length) return results;
  const refs = writeBodies(root, withBody.map((r) => ({ html: r.parsed!.html!, text: r.parsed!.text })));
  withBody.forEach((r, i) => {
    // The cache keeps the place and the word count; the headings, the excerpt and the links are read from the file.
    const { html: _, text, ...rest } = r.parsed!;
    r.parsed = { ...rest, body: refs[i], ...(text ? { text: { words: text.words } as MarkdownText } : {}) };
    r.entry = defineBody(r.entry!, root, refs[i], true); // (made by entryOf: plain fields)
  });
  return results;
}

/** Parse results of earlier builds, by file stamp (`content/<rel>`, size, mtime): a file that has not changed is
 *  not read or parsed again, only validated (its schema may have changed). A file that fails validation is
 *  parsed again, so its errors come with source positions. Kept by the build (src/content/contentCache.ts). */
export type ParseCache = Map<string, ParseOutput>;

/** A file's cache key: its stamp and, for Markdown, the plugins' extension list (`markdownKey`), so a
 *  changed list re-parses every Markdown body and leaves YAML files cached. */
export const stampKey = (rel: string, size: number, mtimeMs: number, mdKey = '') =>
  `${rel}\0${size}\0${mtimeMs}${mdKey && rel.endsWith('.md') ? `\0${mdKey}` : ''}`;

// (a parse's validity is its collection's schema's: a file two collections take is valid under each on its own)
const validKey = (schemas: string | undefined, collection: string) => (schemas === undefined ? undefined : `${schemas}\0${collection}`);
/** Results for the items the cache holds (validated here); the rest are left to the loader. */
async function cachedResults(root: string, config: SiteConfig, items: LoadItem[], cache: ParseCache, keys: string[], mdKey: string, inputs: KnownInputs, disk = false): Promise<(LoadResult | undefined)[]> {
  // An empty cache answers nothing: no file is stat'ed for it (a parsed file's key comes from its read).
  if (!cache.size) return [];
  const out: (LoadResult | undefined)[] = new Array(items.length);
  const take = (i: number, r: { key?: string; result?: LoadResult }) => { if (r.key) keys[i] = r.key; out[i] = r.result; };
  const how = { images: fieldImages(config, root) };
  // With every stamp known (upToDate.ts), one plain loop: no promise or frame kept per file (100,000 files).
  const missing: number[] = [];
  items.forEach((item, i) => {
    const st = inputs.stamps?.get(item.rel);
    if (st) take(i, cachedAt(root, config.collections[item.collection], item.rel, cache, mdKey, st, validKey(inputs.schemaKey, item.collection), how, disk));
    else missing.push(i);
  });
  await Promise.all(missing.map(async (i) => take(i, await cachedResult(root, config.collections[items[i].collection], items[i].rel, cache, mdKey, undefined, validKey(inputs.schemaKey, items[i].collection), how, disk))));
  return out;
}

/**
 * One file against the content cache: its key (from its stamp; none when it cannot be stat'ed) and, when
 * the cache holds its parse and that passes the collection's schema, its result. A parse that fails the
 * schema is not answered: the file is parsed again, so its errors come with source positions. Build
 * (above) and dev (incremental.ts) ask the same question. `mdKey`: markdownKey of the plugins' extensions.
 */
export async function cachedResult(root: string, col: CollectionConfig, rel: string, cache: ParseCache, mdKey: string, stamp?: FileStamp, schemas?: string, opts: ValidateOptions = {}, lazyDisk = false): Promise<{ key?: string; result?: LoadResult }> {
  // A stamp the build took just before (upToDate.ts) is this stat's answer.
  const st = stamp ?? await fs.stat(path.join(root, 'content', rel)).catch(() => null);
  return st ? cachedAt(root, col, rel, cache, mdKey, st, schemas, opts, lazyDisk) : {};
}

/** cachedResult for a file whose stamp is known. */
function cachedAt(root: string, col: CollectionConfig, rel: string, cache: ParseCache, mdKey: string, st: FileStamp, schemas?: string, opts: ValidateOptions = {}, lazyDisk = false): { key?: string; result?: LoadResult } {
  const key = stampKey(rel, st.size, st.mtimeMs, mdKey);
  const hit = cache.get(key);
  if (!hit) return { key };
  // Its HTML names the images it shows by their bytes: a changed image is a changed body.
  if (hit.deps) { if (!depsUnchanged(root, hit.deps)) return { key }; noteCachedSources(root, hit.deps); } // (and the sources it names)
  // A body kept on disk: read when asked (build), or now (dev, whose entries outlive the build that may prune it).
  if (hit.body && !knownBody(root, hit.body)) return { key };
  // A single collection's Markdown file with a body is parsed again: entry.ts refuses it (its body would be lost).
  if (col.single && (hit.body || hit.html?.trim())) return { key };
  const body = hit.body;
  // (read now: a file deleted since knownBody found it, by a build that pruned it, is parsed again)
  const kept = body && !lazyDisk ? readKept(root, body) : undefined;
  if (kept === null) return { key };
  // Validated before under these schemas (validCache.ts): the data is the entry's as it is.
  let data = knownValid(hit, schemas)?.data;
  if (data === undefined) {
    // (imageFile() fields read their images as a parse does; one the cached parse did not name: parsed again)
    const deps: ImageDep[] = [], images = opts.images;
    if (images && hit.deps) knownFieldImages(root, hit.deps, previousOutput(hit), images.maxPixels);
    const v = withImageReader(images ? fieldImageReader({ ...images, file: `content/${rel}` }, deps) : null, () => col.schema.safeParse(hit.data, { jitless: opts.jitless }));
    if (!v.success || deps.some(([f]) => !hit.deps?.some((d) => d[0] === f))) return { key };
    data = v.data;
  }
  const entry = !body ? entryOf(col, rel, data, hit.html, hit.text)
    : lazyDisk ? defineBody(entryOf(col, rel, data, '', hit.text), root, body, true)
    : entryOf(col, rel, data, kept!.html, { ...hit.text!, headings: kept!.headings, excerpt: kept!.excerpt, links: kept!.links });
  return { key, result: { entry, errors: [], parsed: hit, ...(hit.warnings ? { warnings: hit.warnings } : {}) } };
}

/** What the content cache keeps of a file parsed without a problem: its data and its body's HTML (and the images it shows). */
export function parseOutput(parsed: ParsedFile, entry: Entry): ParseOutput {
  return { data: parsed.data, ...(parsed.body !== undefined ? { html: entry.html, text: parsed.text } : {}), ...depsOf(allDeps(parsed)), ...(parsed.warnings ? { warnings: parsed.warnings } : {}) };
}


/** Which files feed which collection: every collection's files in one list, and each one's span of it. */
export interface ContentPlan {
  items: LoadItem[]; spans: [name: string, start: number, end: number][]; files: Map<string, string>; errors: Message[]; /** Files no collection takes (strays.ts). */ warnings: Message[];
  /** Of `errors`, the files refused as they were listed (MDX; links out of the site): dev shows them with its files'. */
  refused: Message[];
  /** Bodies' HTML kept on disk (diskBody.ts): a build with the caches of diskBodiesMin files or more. */
  disk?: boolean;
}

export function planContent(all: string[], config: SiteConfig, root?: string): ContentPlan {
  const errors: Message[] = [];
  const items: LoadItem[] = [], mdx: string[] = [];
  const spans: ContentPlan['spans'] = [];
  for (const [name, col] of Object.entries(config.collections)) {
    const found = matchFiles(all, collectionPatterns(col)), matched = found.filter((rel) => !rel.endsWith('.mdx'));
    mdx.push(...found.filter((rel) => rel.endsWith('.mdx')));
    errors.push(...collectionSetErrors(name, col, found, root));
    spans.push([name, items.length, items.length + matched.length]);
    for (const rel of matched) items.push({ collection: name, rel });
  }
  // `files` made when first read (a build never does: 100,000 paths and map entries for nothing).
  let files: Map<string, string> | undefined;
  const refused = [...new Set(mdx)].map((rel) => mdxRefused(rel, 'ContentPolicyError'));
  errors.push(...refused);
  return { items, spans, errors, refused, warnings: strays(all, items, config, mdx), get files() { return (files ??= new Map(items.map((i) => [`content/${i.rel}`, i.collection]))); } };
}

// The drafts a build left out of each content object it assembled: file by slug, for a broken link's hint.
const leftOut = new WeakMap<Content, ReadonlyMap<string, string>>();

/** The drafts `content` was assembled without (its entries' slugs → their files; empty with --drafts or in dev). */
export const draftsLeftOut = (content: Content): ReadonlyMap<string, string> => leftOut.get(content) ?? new Map();

/**
 * The content object from the load results of a plan's items (also run by render workers, see src/parallel/):
 * drafts left out unless `opts.drafts`, references resolved (authoring/finish.ts). `issues`: dangling
 * references, to report when every file is valid.
 */
export function assembleContent(config: SiteConfig, spans: ContentPlan['spans'], results: LoadResult[], opts: FinishOptions = {}): { content: Content; errors: Message[]; issues: ReturnType<typeof finishContent>['issues'] } {
  const lists: EntryLists = {};
  const errors: Message[] = [];
  for (const [name, start, end] of spans) {
    const list: Entry[] = [];
    for (let i = start; i < end; i++) { errors.push(...results[i].errors); if (results[i].entry) list.push(results[i].entry!); }
    lists[name] = list;
  }
  const finished = finishContent(config, lists, opts);
  const content: Content = {};
  if (!opts.drafts) {
    const drafts = new Map<string, string>();
    for (const list of Object.values(lists)) for (const e of list) { // (a page bundle's index.md: by its folder; a dated name also without its date)
      const name = e.slug === 'index' ? e.dirs.at(-1) : e.slug;
      if (e.draft && name) for (const n of [name, name.replace(/^\d{4}-\d{2}-\d{2}-/, '')]) if (n && !drafts.has(n)) drafts.set(n, e.file);
    }
    if (drafts.size) leftOut.set(content, drafts);
  }
  for (const [name, start, end] of spans) {
    const col = config.collections[name];
    content[name] = start === end ? (col.single ? undefined : []) : collectionValue(col, finished.lists[name]);
  }
  return { content, errors, issues: finished.issues };
}

/** Parses what `known` lacks, in this thread. */
export async function loadMissing(config: SiteConfig, root: string, items: LoadItem[], known: (LoadResult | undefined)[], disk = false): Promise<LoadResult[]> {
  const missing = items.flatMap((_, i) => (known[i] ? [] : [i]));
  const loaded = await loadBatch(config, root, missing.map((i) => items[i]), disk, counter('content', missing.length));
  const out = [...known] as LoadResult[];
  for (const [k, i] of missing.entries()) out[i] = loaded[k];
  return out;
}

/** Every content file (links out of the site refused, as errors) and which collection each one feeds. */
export async function listAndPlan(root: string, config: SiteConfig, listed?: string[]): Promise<ContentPlan> {
  const outside: { rel: string; problem: 'outside' | 'hidden' }[] = [];
  const plan = planContent(listed ?? await listContentFiles(root, outside), config, root);
  const refused = outside.map((o) => outsideRootError(o.rel, o.problem));
  plan.errors.push(...refused);
  plan.refused.push(...refused); // (dev shows these with its files' own: build's and dev's lists alike)
  return plan;
}

export async function loadContent(root: string, config: SiteConfig, loader?: Loader, cache?: ParseCache, opts: FinishOptions = {}, inputs: KnownInputs = {}): Promise<LoadedContent & { cache?: { entries: ParseCache; changed: boolean; marked?: boolean } }> {
  const plan = await listAndPlan(root, config, inputs.files); // (listed by the build's walk, when it made one)
  plan.disk = !!cache && plan.items.length >= engineSettings().diskBodiesMin;
  const keys: string[] = [];
  const mdKey = cache ? contentMarkdownKey(config, root) : '';
  const known = cache ? await cachedResults(root, config, plan.items, cache, keys, mdKey, inputs, plan.disk) : [];
  // A build starts the images of what is known as soon as it is (images/store.ts): the cache's answers now,
  // files parsed on this thread as each is (loadBatch), files parsed by workers when their batch is back.
  const base = urlPolicy(config).base;
  for (const r of known) contentImagesKnown(root, config, base, r?.entry);
  // Every collection's files go to the loader at once, so one pool of workers sees the whole list.
  const results = await (loader ?? ((list, _plan, k) => loadMissing(config, root, list, k, plan.disk)))(plan.items, plan, known);
  if (loader) results.forEach((r, i) => { if (!known[i]) contentImagesKnown(root, config, base, r.entry); });
  const { content, errors, issues } = assembleContent(config, plan.spans, results, opts);
  errors.unshift(...plan.errors);
  const failedIn = plan.items.filter((_, i) => results[i].errors.length).map((item) => item.collection);
  const beyondFiles = errors.length > results.reduce((n, r) => n + r.errors.length, 0);
  errors.push(...await crossFileMessages(root, config, content, { fileErrors: errors.length, failedIn, beyondFiles, references: issues }));
  // The cache as it should be now: this build's files only (renamed and deleted files drop out).
  let next: { entries: ParseCache; changed: boolean; marked: boolean } | undefined;
  if (cache) {
    const entries: ParseCache = new Map();
    let changed = false, marked = false;
    results.forEach((r, i) => {
      // A file the cache did not answer is keyed by the stamp it had when it was read.
      const key = keys[i] ?? (r.stamp && stampKey(plan.items[i].rel, r.stamp.size, r.stamp.mtimeMs, mdKey));
      if (!r.parsed || !key) return;
      // Marked valid under this build's schemas when they passed its data as it is (validCache.ts).
      if (inputs.schemaKey && r.entry && markValid(r.parsed, r.entry.data, validKey(inputs.schemaKey, plan.items[i].collection)!)) marked = true;
      entries.set(key, r.parsed);
      if (!known[i]) changed = true;
    });
    next = { entries, changed: changed || entries.size !== cache.size, marked };
  }
  return { content, get files() { return plan.files; }, errors: sortMessages(errors), warnings: sortMessages([...plan.warnings, ...results.flatMap((r) => (r.entry && !(r.entry.draft && !opts.drafts) && r.warnings) || [])]), cache: next };
}
