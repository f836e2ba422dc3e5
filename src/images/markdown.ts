// Markdown images through the image pipeline: `![alt](./photo.jpg)` (next to the content file) or
// `![alt](/img/photo.jpg)` (under static/) becomes the same <picture> an <Image> renders, at content
// compile. The file is read here (its hash names the variants; its header gives the size), and recorded for
// the thread that makes the variants (store.ts). Everything that cannot be published is a problem located
// at the image: a missing file, a file that is no image, too many pixels, an empty or missing alt, a remote
// URL whose host the site does not list, a path out of the site.
import fs from 'node:fs';
import path from 'node:path';
import type { Tokens } from 'marked';
import type { Location } from '../core/types.ts';
import { IMAGE_EXT, IMAGE_FORMATS, MAX_ASKED_WIDTH, pictureModel, remoteImage, pictureHtml, type ImageSettings } from './model.ts';
import { sourceFactsOfFile } from './source.ts';
import { recordSource } from './storeFiles.ts';
import { closest } from '../authoring/issues.ts';
import { closest as closestName } from '../core/didYouMean.ts';

export interface MarkdownImageOptions {
  root: string;
  /** The content file, relative to the root ("content/posts/a.md"). */
  file: string;
  settings: ImageSettings;
  maxPixels: number;
  /** Hosts whose images may be linked as they are (`images.remote`). */
  remote: readonly string[];
  base: string;
}

/** Where the image is in the file (line and column 1-based, in the whole file) and its line's text. */
export interface ImageAt { line: number; column: number; lineText: string }

/** A dependency of a compiled body: an image file and its stamp when read (the content cache checks it), and,
 *  once read whole, its content hash and where the body shows it (a body taken from the content cache names
 *  its sources again with them: images/store.ts noteCachedSources). */
export type ImageDep = [file: string, size: number, mtimeMs: number, hash?: string, where?: Location];

/** The attribute list written right after an image (`{widths="480 960"}`), or what is wrong with it. */
export type ImageAttributes = { written: string } & ({ attrs: Record<string, string | true>; error?: undefined } | { error: string; attrs?: undefined });

export type ImageResolver = (t: Tokens.Image, at: ImageAt, attributes?: ImageAttributes) => { html: string } | { problem: string; attr?: string } | null;

/** The attributes a Markdown image takes. */
const ATTRIBUTES = ['widths', 'sizes', 'priority'];

/** What an image's attributes ask for: widths, sizes and priority, or a problem naming the attribute. */
export function imageRequestOf(href: string, a: ImageAttributes | undefined): { widths?: number[]; sizes?: string; priority?: boolean } | { problem: string; attr?: string } {
  if (!a) return {};
  if (!a.attrs) return { problem: `The attributes after the image ${href}, ${a.written}: ${a.error}` };
  const out: { widths?: number[]; sizes?: string; priority?: boolean } = {};
  for (const [key, value] of Object.entries(a.attrs)) {
    if (key === 'widths') {
      const parts = value === true ? [] : value.split(/[\s,]+/).filter(Boolean);
      const widths = parts.map(Number);
      if (!parts.length || widths.some((w) => !Number.isInteger(w) || w < 1 || w > MAX_ASKED_WIDTH)) {
        return { attr: key, problem: `The image ${href} has widths="${value === true ? '' : value}": write whole numbers of pixels from 1 to ${MAX_ASKED_WIDTH}, separated by spaces, e.g. {widths="480 960"}` };
      }
      out.widths = widths;
    } else if (key === 'sizes') {
      if (value === true || !value.trim()) return { attr: key, problem: `The image ${href} has an empty sizes: write the width it is shown at, e.g. {sizes="(min-width: 60em) 50vw, 100vw"}` };
      out.sizes = value;
    } else if (key === 'priority') {
      if (value !== true) return { attr: key, problem: `The image ${href} has priority="${value}": priority is a flag, written {priority} alone` };
      out.priority = true;
    } else {
      const near = closest(key, ATTRIBUTES);
      return { attr: key, problem: `The image ${href} has an attribute "${key}" sitegen does not know${near ? ` (did you mean ${near}?)` : ''}: an image takes widths="…", sizes="…" and priority` };
    }
  }
  return out;
}

/** The resolver of one Markdown file; `deps` collects the image files it read. */
export function markdownImages(o: MarkdownImageOptions, deps: ImageDep[]): ImageResolver {
  return (t, at, attributes) => {
    const href = t.href;
    const asked = imageRequestOf(href, attributes);
    if ('problem' in asked) return asked;
    // marked's token has the alt text in `text`. Markdown cannot tell "no alt" from "decoration" (both are
    // "![](x.png)"), so an empty one is refused here; a decorative image belongs in a template (<Image alt="">).
    const alt = t.text;
    if (!alt.trim()) return { problem: `The image ${href} has no alt text: write what it shows, ![a photo of …](${href})` };
    const remote = remoteImage(href, o.remote);
    if (remote) {
      if (remote.blocked) return { problem: `The image ${href} cannot load: ${remote.blocked}` };
      if (remote.listed) return attributes ? { problem: `The image ${href} is remote and shown as it is: its widths, sizes and priority apply only to local images` } : null;
      return { problem: `The image ${href} is remote; only local images are processed. List its host in images.remote in sitegen.config.ts to link it as it is, or save it next to this file` };
    }
    let p = href.split('#')[0].split('?')[0];
    try { p = decodeURIComponent(p); } catch { /* kept as written */ }
    const fromBase = o.base !== '/' && p.startsWith(o.base) ? `/${p.slice(o.base.length)}` : p;
    const rel = fromBase.startsWith('/')
      ? path.posix.join('static', fromBase)
      : path.posix.join(path.posix.dirname(o.file), p);
    if (rel.startsWith('..') || path.posix.isAbsolute(rel) || rel.split('/').some((s) => s.startsWith('.') && s.length > 0 && s !== '.')) {
      return { problem: `The image ${href} is outside the site (or in a hidden folder): images are read only from the content folders and static/` };
    }
    if (!IMAGE_EXT.test(rel)) return { problem: `The image ${href} is not a ${IMAGE_FORMATS} file` };
    const abs = path.join(o.root, rel);
    let st: fs.Stats;
    let r: ReturnType<typeof sourceFactsOfFile>;
    try {
      // A link anywhere on the way (the file or a folder) may lead out of the site: where it really is counts.
      const real = fs.realpathSync(abs);
      const inside = path.relative(fs.realpathSync(o.root), real);
      if (inside.startsWith('..') || path.isAbsolute(inside)) return { problem: `The image ${href} is a link to a file outside the site` };
      st = fs.statSync(real);
      if (!st.isFile()) return { problem: `The image ${href} is not a file (${rel})` };
      r = sourceFactsOfFile(real, rel, o.maxPixels); // read a chunk at a time, never whole
    } catch (e: any) {
      return { problem: e?.code === 'ENOENT' ? `The image ${href} does not exist (looked for ${rel})${missingHint(o.root, rel, p)}` : `The image ${href} cannot be read: ${e?.code ?? e?.message}` };
    }
    const dep: ImageDep = [rel, st.size, st.mtimeMs];
    deps.push(dep);
    if ('problem' in r) return r;
    const where: Location = { file: o.file, line: at.line, column: at.column, lineText: at.lineText };
    recordSource(o.root, r.facts.hash, { file: rel, where });
    dep[3] = r.facts.hash;
    dep[4] = where;
    const model = pictureModel(r.facts, o.settings, { alt, base: o.base, ...asked });
    return { html: pictureHtml(model, t.title ?? undefined) };
  };
}

/** What a missing image's path likely meant: a file of static/ written without its leading "/" (a path without
 *  one is read from the Markdown file's folder), else an image of the same folder a typo away (its case, say). */
function missingHint(root: string, rel: string, written: string): string {
  // (a path that climbs out of static/ is never offered: the build refuses such a path)
  if (!written.startsWith('/') && !written.startsWith('.') && !written.split('/').includes('..') && fs.existsSync(path.join(root, 'static', written))) {
    return `. Did you mean /${written}? A path without "/" is read from the Markdown file's folder; one from the root, from static/`;
  }
  let names: string[];
  try { names = fs.readdirSync(path.join(root, path.posix.dirname(rel))).filter((n) => IMAGE_EXT.test(n)); } catch { return ''; }
  const near = names.length <= 5_000 ? closestName(path.posix.basename(rel), names) : undefined;
  return near ? `. Did you mean ${written.slice(0, written.length - path.posix.basename(rel).length)}${near}?` : '';
}
