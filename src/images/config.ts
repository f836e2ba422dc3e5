// The site config's `images` as the engine uses it: the encoder settings, the pixel limit and the remote
// hosts, with their defaults.
import type { SiteConfig } from '../core/types.ts';
import { DEFAULT_MAX_PIXELS, imageSettings, settingsTag, type ImageSettings } from './model.ts';
import type { ContentImageOptions } from '../content/parse.ts';

export function siteImageSettings(config: Pick<SiteConfig, 'images'>): ImageSettings {
  return imageSettings(config.images);
}

export const maxPixelsOf = (config: Pick<SiteConfig, 'images'>) => config.images?.maxPixels ?? DEFAULT_MAX_PIXELS;

/** What a Markdown body's images need besides the file (see images/markdown.ts). */
export function markdownImageOptions(config: Pick<SiteConfig, 'images'>, base: string): ContentImageOptions {
  return { settings: siteImageSettings(config), maxPixels: maxPixelsOf(config), remote: config.images?.remote ?? [], base };
}

/** The part of the content cache's key the image settings make ('' for the defaults). */
export function imageOptionsKey(config: Pick<SiteConfig, 'images'>): string {
  const i = config.images;
  if (!i || (!i.widths && !i.formats && !i.quality && !i.maxWidth && !i.maxPixels && !i.remote && !i.sizes)) return '';
  const s = siteImageSettings(config);
  return `:img=${settingsTag(s)}/${s.widths.join(',')}/${s.formats.join(',')}/${s.maxWidth}/${maxPixelsOf(config)}/${(i.remote ?? []).join(',')}/${JSON.stringify(s.sizes ?? '')}`;
}
