// The build summary's table: the page reports counted by page type. A build found up to date keeps it in
// its record (pipeline/upToDate.ts), so that printing it does not parse every page's report again.
import type { PageReport } from './buildResult.ts';

export interface PageTypeRow {
  type: string;
  pages: number;
  /** The largest gzipped JS of a page of this type, in bytes. */
  jsGzipMax: number;
  /** The islands its pages hydrate, in the order first met. */
  islands: string[];
}

/** One row per page type, sorted by type (as the summary always listed them: a type before any longer one
 *  it begins, unless the next character sorts before a comma). */
export function pageTypes(reports: readonly PageReport[]): PageTypeRow[] {
  const byType = new Map<string, { pages: number; jsGzipMax: number; islands: Set<string> }>();
  for (const p of reports) {
    let t = byType.get(p.type);
    if (!t) byType.set(p.type, (t = { pages: 0, jsGzipMax: 0, islands: new Set() }));
    t.pages++;
    t.jsGzipMax = Math.max(t.jsGzipMax, p.jsGzipBytes);
    for (const i of p.islands) t.islands.add(i);
  }
  return [...byType].sort(([a], [b]) => (`${a},` < `${b},` ? -1 : `${a},` > `${b},` ? 1 : 0)).map(([type, t]) => ({ type, pages: t.pages, jsGzipMax: t.jsGzipMax, islands: [...t.islands] }));
}
