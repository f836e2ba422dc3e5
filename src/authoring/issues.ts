// Content problems found by the authoring helpers: a dangling reference (finish.ts) or, inside routes(), two
// taxonomy terms with one slug. taxonomy() throws a ContentIssuesError carrying ContentIssue-like records;
// the route table keeps them and the session locates them at the content file and field (file:line:col,
// crossFile.ts helperIssueMessages) instead of a throw located in sitegen.config.ts. The site calls the engine's
// own helpers (one engine instance: site/provided.ts), so the error is this module's class.
import type { ContentIssue } from '../core/types.ts';
import type { ErrorId } from '../core/errors.ts';
import { formatPath } from '../content/fieldPath.ts';
import { distance } from '../core/didYouMean.ts';

const NAME = 'SitegenContentIssues';

export interface HelperIssue extends ContentIssue {
  /** The catalogue entry the message is made from. */
  kind: ErrorId;
  /** A reference's collection: the entry it names may be a file of that collection that failed to load. */
  target?: string;
}

export class ContentIssuesError extends Error {
  readonly issues: HelperIssue[];
  constructor(issues: HelperIssue[]) {
    super(issues.map((i) => `${i.file} ${formatPath(i.path)}: ${i.message}`).join('\n'));
    this.name = NAME;
    this.issues = issues;
  }
}

/** The issues a thrown value carries, when it is a ContentIssuesError. */
export function issuesOf(e: unknown): HelperIssue[] | null {
  return e instanceof ContentIssuesError ? e.issues : null;
}

/**
 * The candidate closest to `word`, when it is a likely typo or a shortened form: one that starts with it
 * (or that it starts with) first, else the nearest within a third of its length (at least 2 edits).
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const prefix = list.filter((c) => c.startsWith(word) || word.startsWith(c)).sort((a, b) => Math.abs(a.length - word.length) - Math.abs(b.length - word.length) || (a < b ? -1 : 1))[0];
  if (prefix !== undefined && prefix !== '') return prefix;
  // Long inputs are not compared (the distance is quadratic): ids are short.
  if (word.length > 200) return undefined;
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of list) {
    if (c.length > 200) continue;
    const d = distance(word, c);
    if (d < bestD) { best = c; bestD = d; }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}
