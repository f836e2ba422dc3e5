// The link check of a session, for build and dev alike: every page's links are checked against the plan's
// targets; a page whose links and the set of targets are both unchanged since the last check keeps its
// last verdict (dev checks on every rebuild, so a rebuild costs a lookup per page). linkScan.ts (brokenPaths,
// brokenAnchors) decides what is broken, as data; locateLinks finds the source line of each use, and
// linkMessages.ts words them, last.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Content, Entry, Message } from '../core/types.ts';
import { fileLocation } from '../core/errors.ts';
import { brokenAnchors, brokenPaths, fragmentTargets, hasPath, linkMayFail, type BrokenLink, type LinkTargets, type PageLinks } from './linkScan.ts';
import { linkMessages, shownUses } from './linkMessages.ts';
import { IMAGE_DIR } from '../images/model.ts';
import { codeFence, indentOf } from '../markdown/directiveSyntax.ts';

export interface LinkCache {
  targets: LinkTargets | null;
  /** Page path → the links array last checked and whether any of them was broken. */
  verdicts: Map<string, { links: string[]; broken: boolean }>;
}

export const emptyLinkCache = (): LinkCache => ({ targets: null, verdicts: new Map() });

/** The broken links of all pages, as data (unlocated: locateLinks adds where each source writes its link).
 *  `passed` (asked with a page and its index): the pages whose links passed the last check as they are, with
 *  the ids they had then (a patched output's kept pages); only those of them whose links may now fail are
 *  checked again (keptToCheck); `sameTargets`: the targets are those they passed against. */
export function brokenLinks(pages: PageLinks[], targets: LinkTargets, cache: LinkCache = emptyLinkCache(), passed?: (p: PageLinks, i: number) => boolean, sameTargets = false): BrokenLink[] {
  if (passed) pages = keptToCheck(pages, targets, passed, sameTargets);
  if (cache.targets !== targets) { cache.targets = targets; cache.verdicts.clear(); }
  const bad: PageLinks[] = [];
  for (const p of pages) {
    let v = cache.verdicts.get(p.page);
    if (!v || v.links !== p.links) {
      v = { links: p.links, broken: brokenPaths([p], targets, false).length > 0 };
      cache.verdicts.set(p.page, v);
    }
    if (v.broken) bad.push(p);
  }
  // Checked together, so a link broken on many pages is reported once. #fragments depend on the ids of
  // other pages, so they are checked across all pages every time (linkScan.ts keeps each unchanged page's
  // ids, so this is a lookup per fragment link).
  return [...(bad.length ? brokenPaths(bad, targets) : []), ...brokenAnchors(pages, targets.base)];
}

/** Every broken link of `pages` as a message, located in its source file, or in the site's code (`codeFiles`,
 *  absolute: a template's link) when its source does not write it. */
export async function linkProblems(root: string, pages: PageLinks[], targets: LinkTargets, cache?: LinkCache, passed?: (p: PageLinks, i: number) => boolean, codeFiles: readonly string[] = [], sameTargets = false, content?: Content): Promise<Message[]> {
  const broken = brokenLinks(pages, targets, cache, passed, sameTargets);
  return linkMessages(await locateLinks(root, broken, targets.base, codeFiles, broken.length && content ? linkWriters(content) : undefined));
}

/** The content files whose Markdown writes a link (`entry.links`, as written), by link; made when first asked:
 *  a page without a `source` that shows an entry's body (a one-page site) has its broken link located there. */
function linkWriters(content: Content): (link: string) => string[] {
  let index: Map<string, string[]> | undefined;
  return (link) => {
    if (!index) {
      index = new Map();
      for (const list of Object.values(content)) if (Array.isArray(list)) for (const e of list as Entry[]) for (const l of e?.links ?? []) { const at = index.get(l); if (!at) index.set(l, [e.file]); else if (at.at(-1) !== e.file) at.push(e.file); }
    }
    return index.get(link) ?? [];
  };
}

/**
 * The pages whose links must be checked, in their order, when the `passed` ones passed the last check as
 * they are: every other page; a passed page that links a path no target answers now or a fragment of a page
 * that is not a passed one; and the pages those fragment links name (for their ids). A passed page's
 * other links answer as they did: the same link to the same ids. What they report is what checking every
 * page reports: each broken link's every use is on a page kept here. Absolute links are judged once each.
 * When the targets are those the passed pages were checked against (`same`: their digests, plan.ts
 * targetsDigest), a passed page's link to a path answers as it did and is not looked up (100,000 bench pages:
 * a million lookups); a fragment link and a link into the image variants (whose sources the image store may
 * no longer know) are judged as before.
 */
function keptToCheck(pages: PageLinks[], targets: LinkTargets, passed: (p: PageLinks, i: number) => boolean, same: boolean): PageLinks[] {
  const changed = new Set<string>();
  pages.forEach((p, i) => { if (!passed(p, i)) changed.add(p.page); });
  const judged = new Map<string, boolean>();
  const plain = (targets.base ?? '/') === '/';
  const suspect = (pg: PageLinks, entry: string): boolean => {
    if (!hasPath(entry) || (same && !entry.includes('#') && !entry.includes(IMAGE_DIR))) return false;
    const abs = entry.startsWith('/');
    // Most links: a site path as it is, that a target answers (what brokenPaths asks first).
    if (abs && plain && !entry.includes('#') && targets.has(entry)) return false;
    let v = abs ? judged.get(entry) : undefined;
    if (v === undefined) {
      v = linkMayFail(pg, entry, targets, changed);
      if (abs) judged.set(entry, v);
    }
    return v;
  };
  const check = new Set<PageLinks>();
  pages.forEach((p, i) => {
    if (!passed(p, i)) { check.add(p); return; }
    for (const l of p.links) if (suspect(p, l)) { check.add(p); break; }
  });
  const named = new Set<string>();
  for (const p of check) for (const t of fragmentTargets(p, targets.base)) named.add(t);
  return pages.filter((p) => check.has(p) || named.has(p.page));
}

/**
 * Points each use a message will name at the first line of its source file that contains the link, or the
 * link without the site's base (Markdown writes "/x/" and the page has "/repo/x/"). A link many pages
 * share is located on the few its message names, so a template's broken link costs no read per page.
 */
export async function locateLinks(root: string, broken: BrokenLink[], base = '/', codeFiles: readonly string[] = [], writers?: (link: string) => string[]): Promise<BrokenLink[]> {
  const texts = new Map<string, { search: string[]; shown: string[] }>();
  const linesOf = async (file: string) => {
    if (!texts.has(file)) {
      const lines = (await fs.readFile(path.join(root, file), 'utf8').catch(() => '')).split('\n');
      // A Markdown file's fenced code and its authors' notes (<!-- … -->, left out of the page) are not searched:
      // either may show the same link before the real one. (A line is shown as the file has it.)
      texts.set(file, { search: file.endsWith('.md') ? withoutNotes(outsideFences(lines)) : lines, shown: lines });
    }
    return texts.get(file)!;
  };
  // The site's own code (templates, the config), relative to the root: where a page's link is written when
  // its content file does not write it (a layout's link, shared by every page).
  const code = codeFiles.map((f) => path.relative(root, f)).filter((f) => !f.startsWith('..') && !f.split(path.sep).includes('node_modules'));
  for (const u of broken.flatMap(shownUses)) {
    // As written: the link, without the site's base, and (href('/about') writes "/about/") without its slash.
    const bare = base !== '/' && u.link.startsWith(base) ? u.link.slice(base.length - 1) : null;
    const forms = [u.link, ...(bare ? [bare] : [])];
    const inSource = async (file: string, quoted: boolean) => {
      const { search: lines, shown } = await linesOf(file);
      const all = quoted ? [...forms, ...forms.filter((l) => l.length > 1 && l.endsWith('/')).map((l) => l.slice(0, -1))] : forms;
      for (const l of all) {
        const writes = (t: string) => t.includes(`(${l})`) || t.includes(`"${l}"`) || (quoted ? t.includes(`'${l}'`) || t.includes(`\`${l}\``) : t.includes(` ${l}`));
        const i = lines.findIndex(writes);
        if (i < 0) continue;
        // (written without the base, which the build added: the message quotes what the file has)
        if (bare && l !== u.link && l !== u.link.slice(0, -1)) u.written = l;
        // The same link on later lines of a content file: one message, each place in it (fixed at once).
        const again = (t: string) => t.includes(`(${l})`) || t.includes(`(${l} `) || t.includes(`"${l}"`); // (a link's whole target, not the start of a longer one)
        if (!quoted) for (let k = i + 1; k < lines.length && (u.also?.length ?? 0) < 10; k++) if (again(lines[k])) (u.also ??= []).push(fileLocation(file, k + 1, lines[k].indexOf(l) + 1, shown[k]));
        return fileLocation(file, i + 1, lines[i].indexOf(l) + 1, shown[i]);
      }
      return undefined;
    };
    if (u.source) u.at = await inSource(u.source, false);
    // A page with no source file: the content file whose Markdown writes the link (its body shown by the page).
    for (const f of u.source || !writers ? [] : [...new Set(forms.flatMap(writers))]) { if (u.at) break; u.at = await inSource(f, false); }
    for (const f of code) { if (u.at) break; u.at = await inSource(f, true); }
  }
  return broken;
}

/** The lines with each HTML comment blanked (spaces in its place: lines and columns kept), outside code spans
 *  (`<!--` written in backticks starts none); one left open is kept. One pass. */
function withoutNotes(lines: string[]): string[] {
  const text = lines.join('\n');
  if (!text.includes('<!--')) return lines;
  let out = '', at = 0, code = 0; // code: the length of the backtick run that opened the span we are in
  for (let i = 0; i < text.length;) {
    if (text[i] === '`') {
      let run = 1; while (text[i + run] === '`') run++;
      code = code === 0 ? run : code === run ? 0 : code;
      i += run; continue;
    }
    if (text[i] === '\n' && text[i + 1] === '\n') code = 0; // (a span ends with its paragraph)
    if (code === 0 && text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) break;
      out += text.slice(at, i) + text.slice(i, end + 3).replace(/[^\n]/g, ' ');
      i = at = end + 3; continue;
    }
    i++;
  }
  return (out + text.slice(at)).split('\n');
}

/** The lines with those of fenced code blocks blanked (their numbers kept); a fence left open runs to the end. */
function outsideFences(lines: string[]): string[] {
  let open: { ch: number; len: number } | null = null;
  return lines.map((l) => {
    const f = codeFence(l, 0);
    const after = f ? l.slice(indentOf(l, 0) + f.len) : '';
    if (!open) { if (f && !(f.ch === 96 && after.includes('`'))) { open = f; return ''; } return l; } // (96: a backtick)
    if (f && f.ch === open.ch && f.len >= open.len && !after.trim()) open = null;
    return '';
  });
}
