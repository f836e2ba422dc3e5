// entry: one content file's entry once its data passed its schema — id, slug and folders from the
// collection's patterns, the body's HTML and text (or, in dev's lazy start, getters that compile it),
// draft — and a collection's value from its entries. Shared by the build's loader (load.ts) and dev's
// (liveContent.ts).
import type { CollectionConfig, Entry, Message } from '../core/types.ts';
import { fileLocation, message } from '../core/errors.ts';
import type { FailedParse, LazyParsedFile, ParsedFile, Unchecked } from './parse.ts';
import { defineLazyBody, type LazyBody } from './lazyBody.ts';
import { validateData, type ValidateOptions } from './validate.ts';
import { globBase, globMatcher } from './glob.ts';
import { draftOf } from '../authoring/finish.ts';
import { locateKey } from '../site/configLocate.ts';
import { readingMinutes, type MarkdownText } from '../markdown/entryText.ts';

/** "sectors/online/saas.yaml" under base "sectors" → id "online/saas". */
function entryId(relToContent: string, base: string): string {
  const below = base ? relToContent.slice(base.length + 1) : relToContent;
  return below.replace(/\.(ya?ml|md|json)$/, '');
}

/** The collection's glob patterns as a list. */
export function collectionPatterns(col: CollectionConfig): string[] {
  return Array.isArray(col.pattern) ? col.pattern : [col.pattern];
}

/** Problems with a collection's file set as a whole: no file, or several for a single-file collection; at the
 *  collection's pattern in sitegen.config.ts when the site's `root` is given. */
export function collectionSetErrors(name: string, col: CollectionConfig, matched: string[], root?: string): Message[] {
  const patterns = collectionPatterns(col);
  const at = (key: string) => (root === undefined ? null : locateKey(root, ['collections', name, key]));
  if (matched.length === 0) return [message('EmptyCollection', `Collection "${name}" matches no file (pattern ${patterns.join(', ')} in content/)`, at('pattern'))];
  if (col.single && matched.length > 1) return [message('ConfigError', `Collection "${name}" is single but matches ${matched.length} files: ${matched.join(', ')}`, at('pattern'))];
  return [];
}

/**
 * Validates one parsed file against its collection's schema and makes its entry. `html` renders the body
 * (a cache can pass a memoised one); it is only called for a valid file.
 */
export function makeEntry(col: CollectionConfig, relToContent: string, parsed: ParsedFile, html: () => string = () => parsed.html ?? '', opts: ValidateOptions = {}): { entry?: Entry; errors: Message[] } {
  const v = validateData(col.schema, parsed.data, parsed.source, opts);
  parsed.fieldDeps = v.deps; // (this validation's, passed or not: a later one, under another schema, replaces them)
  if (v.errors.length) return { errors: parsed.noFrontMatter ? noFrontMatter(relToContent, v.errors) : v.errors };
  if (col.single && parsed.body?.trim()) return { errors: [singleBody(relToContent)] };
  return { entry: entryOf(col, relToContent, v.data, parsed.body !== undefined ? html() : undefined, parsed.text), errors: [] };
}

/** A parsed Markdown file's front matter as left unchecked when its body fails (parse.ts eagerly, dev's lazy load
 *  later; kept out of parse.ts, which only a file that has to be parsed loads). */
export const uncheckedOf = (p: ParsedFile): Unchecked => ({ data: p.data ?? {}, source: p.source, ...(p.noFrontMatter ? { noFrontMatter: true as const } : {}) });

/** A file's parse errors, and its schema's of the front matter a body error left unchecked (parse.ts): an
 *  author fixes the file's problems at once, not its body's first and then its fields'. */
export function failedErrors(col: CollectionConfig, failed: FailedParse, opts: ValidateOptions = {}): Message[] {
  if (!failed.unchecked) return failed.errors;
  const schema = validateData(col.schema, failed.unchecked.data, failed.unchecked.source, opts).errors;
  return [...failed.errors, ...failed.unchecked.noFrontMatter ? noFrontMatter(relToContentOf(failed.unchecked.source.file), schema) : schema];
}

/** The path below content/ of a file named from the site root ("content/posts/a.md" → "posts/a.md"). */
const relToContentOf = (file: string) => file.replace(/^content\//, '');

/** A Markdown file with no front matter whose schema requires fields: one problem naming them all, rather than
 *  a "Required" for each at the top of the file. */
function noFrontMatter(relToContent: string, errors: Message[]): Message[] {
  const missing = errors.filter((e) => e.text === 'Required' && e.field && !e.field.includes('.')).map((e) => e.field!);
  if (!missing.length || missing.length !== errors.length) return errors;
  const example = missing.slice(0, 3).map((f) => `${f}: …`).join(', ');
  return [message('ContentSchemaError', `This file has no front matter, and its collection's schema requires ${missing.join(', ')}`, fileLocation(`content/${relToContent}`, 1, 1), { hint: `Start the file with its front matter: a line "---", the fields (${example}), one a line, then a line "---".` })];
}

/** A single-file collection is its file's data: a Markdown body there would be dropped without a word. */
const singleBody = (relToContent: string): Message => message('ConfigError', `This Markdown file has a body, but its collection is single: true, which keeps a file's front matter only: the body would not be published`, fileLocation(`content/${relToContent}`), { hint: 'Drop single: true (the collection is then a list of one entry: content.<collection>[0].html), or move the text into a front matter field.' });

/** Dev's lazy start: the entry of a file read with its body left to compile (lazyBody.ts). A file that fails
 *  its schema has its body compiled at once: its problems, if any, are its errors, as the eager parse's. */
export function makeLazyEntry(col: CollectionConfig, relToContent: string, parsed: LazyParsedFile, body: LazyBody, opts: ValidateOptions = {}): { entry?: Entry; errors: Message[] } {
  const v = validateData(col.schema, parsed.data, parsed.source, opts);
  parsed.fieldDeps = v.deps;
  if (v.errors.length) {
    const b = body.compile();
    return { errors: [...b.errors, ...parsed.noFrontMatter ? noFrontMatter(relToContent, v.errors) : v.errors] };
  }
  if (col.single && parsed.body?.trim()) return { errors: [singleBody(relToContent)] };
  return { entry: entryOf(col, relToContent, v.data, undefined, undefined, body), errors: [] };
}

// Each collection's patterns as matchers, made once (10,000 entries: a matcher made per entry cost ~0.2 s).
const matchersOf = new WeakMap<CollectionConfig, { patterns: string[]; matchers: ((rel: string) => boolean)[] }>();
/** The folder an entry's id is counted from: the base of the first of its collection's patterns it matches. */
function baseOf(col: CollectionConfig, relToContent: string): string {
  const patterns = collectionPatterns(col);
  if (patterns.length === 1) return globBase(patterns[0]);
  let m = matchersOf.get(col);
  if (!m || m.patterns !== col.pattern) matchersOf.set(col, m = { patterns: col.pattern as string[], matchers: patterns.map(globMatcher) });
  const i = m.matchers.findIndex((match) => match(relToContent));
  return globBase(patterns[i < 0 ? 0 : i]);
}

/** The entry of a file whose data passed its schema (`lazy`: its body fields compile it when read). */
export function entryOf(col: CollectionConfig, relToContent: string, data: unknown, html: string | undefined, text: MarkdownText | undefined, lazy?: LazyBody): Entry {
  const id = entryId(relToContent, baseOf(col, relToContent));
  const parts = id.split('/');
  const entry: Entry = { id, slug: parts[parts.length - 1], dirs: parts.slice(0, -1), file: `content/${relToContent}`, data };
  if (html !== undefined) {
    entry.html = html;
    // The same objects as the parse output's: the cache and a worker's message hold them once.
    const t = text ?? { headings: [], excerpt: '', words: 0, links: [] };
    entry.headings = t.headings;
    entry.excerpt = t.excerpt;
    entry.words = t.words;
    entry.readingMinutes = readingMinutes(t.words);
    entry.links = Object.freeze(t.links ?? []); // (one read from the content cache or a worker is not frozen yet)
  } else if (lazy) defineLazyBody(entry, lazy);
  if (draftOf(col, data)) entry.draft = true;
  return entry;
}

/** A collection's value from its valid entries in file order: the list, or for `single` the one file's data. */
export function collectionValue(col: CollectionConfig, entries: (Entry | undefined)[]): unknown {
  const list = entries.filter((e): e is Entry => !!e);
  // A single-file collection is its data itself (content.site.name), a list is entries with file and slug.
  return col.single ? list[0]?.data : list;
}

