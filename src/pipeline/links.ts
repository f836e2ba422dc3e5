// The link check of a session, for build and dev alike: every page's links are checked against the plan's
// targets; a page whose links and the set of targets are both unchanged since the last check keeps its
// last verdict (dev checks on every rebuild, so a rebuild costs a lookup per page). linkScan.ts (brokenPaths,
// brokenAnchors) decides what is broken, as data; locateLinks finds the source line of each use, and
// linkMessages words them, last.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Message } from '../core/types.ts';
import { fileLocation } from '../core/errors.ts';
import { brokenAnchors, brokenPaths, linkMessages, shownUses, type BrokenLink, type LinkTargets, type PageLinks } from './linkScan.ts';

export interface LinkCache {
  targets: LinkTargets | null;
  /** Page path → the links array last checked and whether any of them was broken. */
  verdicts: Map<string, { links: string[]; broken: boolean }>;
}

export const emptyLinkCache = (): LinkCache => ({ targets: null, verdicts: new Map() });

/** The broken links of all pages, as data (unlocated: locateLinks adds where each source writes its link). */
export function brokenLinks(pages: PageLinks[], targets: LinkTargets, cache: LinkCache = emptyLinkCache()): BrokenLink[] {
  if (cache.targets !== targets) { cache.targets = targets; cache.verdicts.clear(); }
  const bad: PageLinks[] = [];
  for (const p of pages) {
    let v = cache.verdicts.get(p.page);
    if (!v || v.links !== p.links) {
      v = { links: p.links, broken: brokenPaths([p], targets).length > 0 };
      cache.verdicts.set(p.page, v);
    }
    if (v.broken) bad.push(p);
  }
  // Checked together, so a link broken on many pages is reported once. #fragments depend on the ids of
  // other pages, so they are checked across all pages every time (linkScan.ts keeps each unchanged page's
  // ids, so this is a lookup per fragment link).
  return [...(bad.length ? brokenPaths(bad, targets) : []), ...brokenAnchors(pages, targets.base)];
}

/** Every broken link of `pages` as a message, located in its source file. */
export async function linkProblems(root: string, pages: PageLinks[], targets: LinkTargets, cache?: LinkCache): Promise<Message[]> {
  return linkMessages(await locateLinks(root, brokenLinks(pages, targets, cache), targets.base));
}

/**
 * Points each use a message will name at the first line of its source file that contains the link, or the
 * link without the site's base (Markdown writes "/x/" and the page has "/repo/x/"). A link many pages
 * share is located on the few its message names, so a template's broken link costs no read per page.
 */
export async function locateLinks(root: string, broken: BrokenLink[], base = '/'): Promise<BrokenLink[]> {
  const texts = new Map<string, string[]>();
  for (const u of broken.flatMap(shownUses)) {
    const file = u.source;
    if (!file) continue;
    if (!texts.has(file)) texts.set(file, (await fs.readFile(path.join(root, file), 'utf8').catch(() => '')).split('\n'));
    const lines = texts.get(file)!;
    const find = (l: string) => lines.findIndex((t) => t.includes(`(${l})`) || t.includes(`"${l}"`) || t.includes(` ${l}`));
    let written = u.link;
    let i = find(written);
    if (i < 0 && base !== '/' && u.link.startsWith(base)) { written = u.link.slice(base.length - 1); i = find(written); }
    if (i >= 0) u.at = fileLocation(file, i + 1, lines[i].indexOf(written) + 1, lines[i]);
  }
  return broken;
}
