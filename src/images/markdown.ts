// Markdown images through the image pipeline: `![alt](./photo.jpg)` (next to the content file) or
// `![alt](/img/photo.jpg)` (under static/) becomes the same <picture> an <Image> renders, at content
// compile. The file is read here (its hash names the variants; its header gives the size), and recorded for
// the thread that makes the variants (store.ts). Everything that cannot be published is a problem located
// at the image: a missing file, a file that is no image, too many pixels, an empty or missing alt, a remote
// URL whose host the site does not list, a path out of the site.
import type { Tokens } from 'marked';
import type { Location } from '../core/types.ts';
import { MAX_ASKED_WIDTH, pictureModel, remoteImage, pictureHtml, type ImageSettings } from './model.ts';
import { readAndNote } from './local.ts';
import { closest } from '../authoring/issues.ts';

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
    const where: Location = { file: o.file, line: at.line, column: at.column, lineText: at.lineText };
    const r = readAndNote(o, href, deps, where);
    if (!('facts' in r)) return { problem: r.problem };
    const model = pictureModel(r.facts, o.settings, { alt, base: o.base, ...asked });
    return { html: pictureHtml(model, t.title ?? undefined) };
  };
}
