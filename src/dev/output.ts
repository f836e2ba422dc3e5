// The dev server's output folder, in memory: what `sitegen build` would write to dist/, updated page by
// page as rebuilds commit (pass.ts). It is only data: the dev server serves it through the same static
// host as `sitegen preview` (src/server/host/, over dev/server.ts devFileSource), so a URL resolves to the same
// file, redirect and headers in dev as in preview. Nothing here touches the disk.
import type { AssetManifest } from '../core/types.ts';

export interface PageFile {
  html: string;
  /** The route path the file belongs to (an alias's own path for alias pages): what the dev client compares. */
  route: string;
}

export interface DevOutput {
  /** Pages and alias pages by output file ("items/alpha/index.html", "404.html"). */
  pages: Map<string, PageFile>;
  /** Bundled assets ("assets/site-HASH.css"); the previous bundle's stay for pages loaded before a rebuild. */
  assets: Map<string, Uint8Array>;
  previousAssets: Map<string, Uint8Array>;
  statics: Map<string, Uint8Array>;
  /** Generated host files (sitemap.xml, robots.txt, _headers, _redirects; a static file of the same name wins)
   *  and the plugins' extra outputs. */
  hostFiles: Map<string, string | Uint8Array>;
  /** The client bundle's manifest of the last commit (hot updates compare it with the next). */
  manifest?: AssetManifest;
  /** Set once the first build committed, or while the first pass renders pages as they are asked for;
   *  before that every page request gets a placeholder. */
  built: boolean;
  /** While a pass renders: renders the page of this output file now when it is one still to render
   *  (undefined when it is not), so a request never gets a stale page nor waits for the whole site. */
  ensure?: (rel: string) => Promise<void> | undefined;
  /** Requests being answered now (not the event streams): a pass rendering in the background gives way. */
  inflight: number;
}

export function createDevOutput(): DevOutput {
  return { pages: new Map(), assets: new Map(), previousAssets: new Map(), statics: new Map(), hostFiles: new Map(), built: false, inflight: 0 };
}

/** The client bundle pages link from now on (the previous one's files stay for pages loaded before). */
export function useManifest(out: DevOutput, manifest: AssetManifest): void {
  if (out.assets !== manifest.files) {
    out.previousAssets = out.assets;
    out.assets = manifest.files;
  }
  out.manifest = manifest;
}
