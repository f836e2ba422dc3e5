// linkNear: what a broken internal link probably meant, for its hint. A link to a Markdown file
// (`first-page.md`, `../first-page.md#x`) means the page made from it: the path without ".md", beside the
// linking page or one folder up (a relative link resolves against the page's URL, a folder below its file's);
// a path whose last part names a content file beside the linking one, that file's page (pageOfName); a path
// whose last part is the slug of a draft the build left out, that draft; any other path, a page or
// alias path a typo away. Only the route and alias paths are compared (not files),
// for the first few broken paths of a check and while there are few enough paths (a typo's distance costs
// the product of the two lengths).
import { closest } from '../core/didYouMean.ts';
import path from 'node:path';
import type { LinkFix, LinkTargets, LinkUse } from './linkScan.ts';

/** Paths compared with a broken one at most: beyond, no suggestion (a link check stays linear). */
const MAX_PATHS = 20_000;

/** A path's last part, without a trailing "/" or an ".html"/".htm" ending. */
function lastPart(p: string): string {
  const s = p.endsWith('/') ? p.slice(0, -1) : p;
  const name = s.slice(s.lastIndexOf('/') + 1);
  return name.endsWith('.html') ? name.slice(0, -5) : name.endsWith('.htm') ? name.slice(0, -4) : name;
}

/** How long a path's last part is as written (with an ".html" ending): what lastPart cut from it. */
function lastPartLength(p: string): number {
  const s = p.endsWith('/') ? p.slice(0, -1) : p;
  return s.length - s.lastIndexOf('/') - 1;
}

/** The page path `abs` (a base-less path no target answers) probably meant, or null. `budget.typos`: how
 *  many more broken paths may be compared with every page path (each costs a pass over them). */
export function nearPath(abs: string, targets: LinkTargets, budget: { typos: number }): LinkFix | null {
  if (abs.startsWith('\0')) return null;
  // A Markdown file's page: its name without ".md", as a folder page or a page of that name, here or a folder up.
  const md = abs.toLowerCase().endsWith('.md') ? abs.slice(0, -3) : null;
  if (md) {
    const name = md.slice(md.lastIndexOf('/') + 1), dir = md.slice(0, md.lastIndexOf('/'));
    const up = dir.slice(0, dir.lastIndexOf('/') + 1) + name;
    for (const to of [`${md}/`, md, `${up}/`, up]) if (name && targets.has(to)) return { kind: 'page', to };
  }
  // A page of a draft the build left out: its slug is the path's last part (/posts/wip/, /posts/wip.html).
  const draft = targets.drafts?.size ? targets.drafts.get(lastPart(md ?? abs)) : undefined;
  if (draft) return { kind: 'draft', file: draft };
  const all = targets.paths?.();
  if (!all || budget.typos <= 0) return null;
  budget.typos--;
  const list: string[] = [];
  for (const p of all) { if (list.length >= MAX_PATHS) return null; list.push(p); }
  const to = closest(md ? `${md}/` : abs, list);
  return to ? { kind: md ? 'page' : 'near', to } : null;
}

/** A link to a content file of the site (`./2024-04-12-notes.md`, beside the linking page's own file, a
 *  project's `./trail-map.yaml`, or `/content/posts/notes.md`): the page made from that file, whatever its route made of its name (a date
 *  prefix taken off, a permalink). Null when the link names no such file. */
export function pageOfFile(use: LinkUse, targets: LinkTargets): LinkFix | null {
  if (!targets.pageOf || !use.source) return null;
  // (a root-relative Markdown link under a base is served with it: taken off again to name the file)
  const base = targets.base ?? '/';
  const served = use.link.split('#', 1)[0]!.split('?', 1)[0]!;
  const link = base !== '/' && served.startsWith(base) ? served.slice(base.length - 1) : served;
  if (!/\.(?:md|ya?ml|json)$/i.test(link) || /^[a-z][a-z0-9+.-]*:/i.test(link)) return null;
  let file: string;
  try { file = decodeURI(link.startsWith('/') ? link.slice(1) : path.posix.join(path.posix.dirname(use.source), link)); } catch { return null; }
  const to = targets.pageOf(file) ?? (link.startsWith('/') ? targets.pageOf(`content/${file}`) : undefined);
  return to ? { kind: 'page', to } : null;
}

/** A link whose last part names a content file beside the linking one (`../code-post/` or
 *  `../2024-03-05-hello/`, as a blog whose URLs were its file names writes it), or, for a root-relative link,
 *  at its place under content/ (`/posts/trip/`: content/posts/trip/index.md): that file's page, whatever its
 *  route made of the name (a `slug:`, a date prefix taken off). Null when no such file has a page. */
export function pageOfName(use: LinkUse, abs: string, targets: LinkTargets): LinkFix | null {
  if (!targets.pageOf || !use.source || abs.startsWith('\0') || /^[a-z][a-z0-9+.-]*:/i.test(use.link)) return null;
  let name = lastPart(abs);
  try { name = decodeURIComponent(name); } catch { /* as written */ }
  if (!name) return null;
  // A root-relative link names a place of the site, which an old generator made from the content's folders
  // (/posts/trip/ from posts/trip/index.md): the file at that place under content/. A relative one: beside this file.
  let dir = path.posix.dirname(use.source);
  if (use.link.startsWith('/')) {
    const folder = abs.slice(0, abs.length - (abs.endsWith('/') ? 1 : 0) - lastPartLength(abs));
    try { dir = `content${decodeURI(folder.endsWith('/') ? folder.slice(0, -1) : folder)}`; } catch { return null; }
  }
  for (const file of [`${dir}/${name}.md`, `${dir}/${name}/index.md`]) {
    const to = targets.pageOf(file);
    if (to && to !== abs) return { kind: 'named', to, file };
  }
  return null;
}
