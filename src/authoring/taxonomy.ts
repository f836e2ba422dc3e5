// taxonomy(): entries grouped by the terms of one field (tags, categories), each term with a stable slug (the
// slugger of heading ids) and its route path. Two different terms with one slug ("Node.js" and "nodejs")
// would share a page: that is a content error located at the second term's field in its file, thrown as a
// ContentIssuesError (issues.ts) that the route table turns into located messages.
import { slug as slugOf } from 'github-slugger';
import type { Entry } from '../core/types.ts';
import { ContentIssuesError, type HelperIssue } from './issues.ts';

export interface Term<E> {
  /** The term as written in the content ("Node.js"). */
  term: string;
  /** Its URL segment ("nodejs"). */
  slug: string;
  /** Its page's route path (without the site's base): "/tags/nodejs" ("/tags/node.js/" for a slug with a dot, so href() reads it as a page). */
  path: string;
  /** The entries that have the term, in the order given. */
  entries: E[];
}

export interface Taxonomy<E> {
  /** The index page's route path ("/tags"). */
  path: string;
  /** Every term, ordered by slug. */
  terms: Term<E>[];
}

export interface TaxonomyOptions {
  /** The data field holding a term or a list of terms ("tags"). */
  field: string;
  /** The index's route path; term pages are below it ("/tags" → "/tags/<slug>"). */
  path: string;
  /** A term's URL segment (default: the slugger of heading ids, "Node.js" → "nodejs"); for example
   *  `(t) => t.toLowerCase().replaceAll(' ', '-')` keeps the "node.js" of a site moved from Hugo. */
  slug?: (term: string) => string;
  /** Terms that get no page (an Eleventy site's "posts" tag, which made its collection): left out as if unwritten. */
  exclude?: readonly string[];
}

/** Why a slug cannot be a URL segment, or null when it can. */
const badSegment = (s: unknown): string | null => typeof s !== 'string' || !s ? 'it is empty'
  : s === '.' || s === '..' || /[/?#\s\\%]/.test(s) ? `${JSON.stringify(s)} is not one URL segment (no "/", "?", "#", "%", "\\" or spaces)` : null;

export function taxonomy<E extends Entry>(entries: readonly E[], options: TaxonomyOptions): Taxonomy<E> {
  const { field, path, slug: makeSlug, exclude = [] } = options ?? ({} as TaxonomyOptions);
  if (makeSlug !== undefined && typeof makeSlug !== 'function') throw new Error('taxonomy(): slug must be a function from a term to its URL segment');
  if (!Array.isArray(exclude) || exclude.some((t) => typeof t !== 'string')) throw new Error(`taxonomy(): exclude must be a list of terms, got ${JSON.stringify(exclude)}`);
  const excluded = new Set(exclude);
  if (typeof field !== 'string' || !field) throw new Error(`taxonomy(): field must name a data field, got ${JSON.stringify(field)}`);
  if (typeof path !== 'string' || !path.startsWith('/')) throw new Error(`taxonomy(): path must be a site path starting with "/", got ${JSON.stringify(path)}`);
  const base = path.length > 1 ? path.replace(/\/+$/, '') : '';
  const bySlug = new Map<string, Term<E> & { file: string }>();
  const issues: HelperIssue[] = [];
  for (const entry of entries) {
    const value = (entry.data as Record<string, unknown> | undefined)?.[field];
    if (value === undefined || value === null) continue;
    const list: [unknown, (string | number)[]][] = Array.isArray(value) ? value.map((v, i) => [v, [field, i]]) : [[value, [field]]];
    for (const [term, at] of list) {
      if (typeof term !== 'string') {
        issues.push({ kind: 'TermUrlError', file: entry.file, path: at, message: `A ${field} term must be text, got ${typeof term}` });
        continue;
      }
      // (github-slugger makes " pwa" -pwa: a page apart from pwa's, which no one meant)
      if (term.trim() !== term && term.trim()) {
        const where = term.trimStart() !== term ? (term.trimEnd() !== term ? 'starts and ends' : 'starts') : 'ends';
        issues.push({ kind: 'TermUrlError', file: entry.file, path: at, message: `The ${field} term ${JSON.stringify(term)} ${where} with a space, which would give it a page of its own (${base}/${slugOf(term)}): write ${JSON.stringify(term.trim())}` });
        continue;
      }
      if (excluded.has(term)) continue;
      const slug = makeSlug ? makeSlug(term) : slugOf(term);
      const bad = makeSlug && badSegment(slug);
      if (bad) {
        issues.push({ kind: 'TermUrlError', file: entry.file, path: at, message: `The slug of the ${field} term ${JSON.stringify(term)}: ${bad}` });
        continue;
      }
      if (!slug) {
        issues.push({ kind: 'TermUrlError', file: entry.file, path: at, message: `The ${field} term ${JSON.stringify(term)} has no letters or digits to make its page's URL from` });
        continue;
      }
      const known = bySlug.get(slug);
      // A slug with a dot ("node.js") ends its path with "/": href() takes a last segment that looks like a
      // file name ("/tags/node.js") for a file and adds no slash.
      if (!known) { bySlug.set(slug, { term, slug, path: `${base}/${slug}${slug.includes('.') ? '/' : ''}`, entries: [entry], file: entry.file }); continue; }
      if (known.term !== term) {
        issues.push({ kind: 'TermCollision', file: entry.file, path: at, message: `The ${field} term ${JSON.stringify(term)} has the same URL (${base}/${slug}) as ${JSON.stringify(known.term)} in ${known.file}` });
        continue;
      }
      if (known.entries[known.entries.length - 1] !== entry) known.entries.push(entry);
    }
  }
  if (issues.length) throw new ContentIssuesError(issues);
  const terms = [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)).map(({ file: _file, ...t }) => t);
  return { path: base || '/', terms };
}
