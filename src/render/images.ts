// image(): what a template knows of a static image — its URL (the fingerprinted copy when the site asks for
// one, under the base) and its pixel width and height, for <img width height> that reserve space (no
// layout shift). The table is made by the build from static/ (output/images.ts) and set by the renderer
// before each page, like the URL policy, so image() is a plain call in any component.
import type { ImageTable } from '../output/images.ts';
import { currentUrlPolicy, withBase } from './urls.ts';

let current: ImageTable = {};

export function setImageTable(table: ImageTable | undefined): void {
  current = table ?? {};
}

export interface StaticImage {
  src: string;
  width: number;
  height: number;
}

/** A static image by its path under static/ ("/img/team.png"); an unknown path throws, naming it (a located build error). */
export function image(p: string): StaticImage {
  const info = current[p.startsWith('/') ? p : `/${p}`];
  if (!info) throw new Error(`image("${p}"): there is no such image in static/ (png, jpg, gif, webp or svg)`);
  return { src: withBase(info.src, currentUrlPolicy().base), width: info.width, height: info.height };
}
