// The link check, incremental: every page's links are checked on every rebuild (a removed page breaks
// links elsewhere), but a page whose links and the set of targets are both unchanged keeps its last
// verdict, so a rebuild costs a lookup per page. checkLinks itself decides what is broken and words it.
import type { Message } from '../types.ts';
import { checkAnchors, checkPaths, type LinkTargets, type PageLinks } from '../check.ts';

export interface LinkCache {
  targets: LinkTargets | null;
  /** Page path → the links array last checked and whether any of them was broken. */
  verdicts: Map<string, { links: string[]; broken: boolean }>;
}

export const emptyLinkCache = (): LinkCache => ({ targets: null, verdicts: new Map() });

/** The broken-link messages for all pages (unlocated: locateLinks adds the source line). */
export function brokenLinks(pages: PageLinks[], targets: LinkTargets, cache: LinkCache): Message[] {
  if (cache.targets !== targets) { cache.targets = targets; cache.verdicts.clear(); }
  const bad: PageLinks[] = [];
  for (const p of pages) {
    let v = cache.verdicts.get(p.page);
    if (!v || v.links !== p.links) {
      v = { links: p.links, broken: checkPaths([p], targets).length > 0 };
      cache.verdicts.set(p.page, v);
    }
    if (v.broken) bad.push(p);
  }
  // Checked together, so a link broken on many pages is reported once, as a build reports it.
  // #fragments depend on the ids of other pages, so they are checked across all pages every pass
  // (check.ts keeps each unchanged page's ids, so this is a lookup per fragment link).
  return [...(bad.length ? checkPaths(bad, targets) : []), ...checkAnchors(pages, targets.base)];
}
