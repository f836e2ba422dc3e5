// originals: a big image of static/ that pages show only through its versions (<Image>, a Markdown image named
// from the root) is still published as it is, since everything in static/ is. A warning says so, once per file,
// with its size and what to do: the 20 MB photo a newcomer put there as a post's cover ships whole otherwise.
// An original some page links itself (a "full size" link) is meant to be published: no warning.
import fs from 'node:fs';
import type { Message } from '../core/types.ts';
import { fileLocation, message } from '../core/errors.ts';
import { parseVariantPath } from './model.ts';
import type { MadeVariant } from './store.ts';

/** From this size an original published beside its versions is said. */
export const BIG_ORIGINAL = 2 * 1024 * 1024;

const mb = (n: number) => (n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);
const decoded = (links: ReadonlySet<string>) => new Set([...links].map((l) => { const p = l.split(/[?#]/, 1)[0]!; try { return decodeURI(p); } catch { return p; } }));
const sizeOf = (file: string | undefined) => { try { return file ? fs.statSync(file).size : 0; } catch { return 0; } };

/** The warnings for the static images the variants `made` come from that are at least BIG_ORIGINAL and that no
 *  page links itself. `sourceOf` names a variant hash's source file (the image store's); `linked` gives every page
 *  link, as written (with the base), asked only when there is a big original. */
export function bigOriginals(made: readonly MadeVariant[], sourceOf: (hash: string) => { file: string } | undefined, statics: ReadonlyMap<string, Uint8Array>, linked: () => ReadonlySet<string>, base: string): Message[] {
  const biggest = new Map<string, number>(); // static file → its largest version's bytes
  for (const v of made) {
    const hash = parseVariantPath(v.path)?.hash;
    const file = hash ? sourceOf(hash)?.file : undefined;
    if (!file?.startsWith('static/')) continue;
    biggest.set(file, Math.max(biggest.get(file) ?? 0, v.bytes?.length ?? sizeOf(v.file)));
  }
  const out: Message[] = [];
  let links: ReadonlySet<string> | undefined;
  for (const [file, largest] of biggest) {
    const rel = file.slice('static/'.length), size = statics.get(rel)?.length ?? 0;
    // (links as written are %-encoded: "/img/my%20photo.jpg" links static/img/my photo.jpg)
    if (size < BIG_ORIGINAL || (links ??= decoded(linked())).has(`${base}${rel}`)) continue;
    out.push(message('BigOriginal', `This image (${mb(size)}) is published as it is, though pages show it only through its versions${largest ? ` (the largest ${mb(largest)})` : ''}: everything in static/ is published`, fileLocation(file), {
      hint: `Scale it down before putting it in static/ (2,400 px wide is more than any page shows), or keep it beside the post that shows it, whose original is not published: in its Markdown (![…](./photo.jpg)), or in a front matter field declared with imageFile() (cover: ./photo.jpg) that a template gives <Image src={…}>.`,
    }));
  }
  return out;
}
