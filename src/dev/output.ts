// The dev server's output folder, in memory: what `sitegen build` would write to dist/, updated page by
// page as rebuilds commit. Lookups follow the preview server (sirv with extensions ['html']), so a URL
// resolves to the same file in dev as in preview. Nothing here touches the disk.
import { parseHeadersFile, parseRedirectsFile } from '../hostfiles.ts';
import type { AssetManifest } from '../types.ts';

export interface PageFile {
  html: string;
  /** The route path the file belongs to (an alias's own path for alias pages): what the dev client compares. */
  route: string;
}

export interface Found {
  rel: string;
  body: Uint8Array | string;
  /** Set for generated pages (the dev client script goes into them). */
  route?: string;
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
  /** Set once the first build committed; before that every page request gets a placeholder. */
  built: boolean;
  /** Re-reads the _headers and _redirects rules after host or static files changed. */
  refreshRules(): void;
  headersFor(pathname: string): [string, string][];
  redirectFor(pathname: string): string | undefined;
  find(pathname: string): Found | null;
}

/** sirv's candidates for a URL path: itself, then /index, .html and /index.html. */
function candidates(pathname: string): string[] {
  const uri = pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const out: string[] = [];
  for (const ext of ['', '.html']) {
    if (uri) out.push(uri + ext);
    out.push(`${uri}/index${ext}`);
  }
  return out.map((c) => c.slice(1));
}

export function createDevOutput(): DevOutput {
  let headerRules: ReturnType<typeof parseHeadersFile> = [];
  let redirects = new Map<string, string>();
  const out: DevOutput = {
    pages: new Map(), assets: new Map(), previousAssets: new Map(), statics: new Map(), hostFiles: new Map(), built: false,
    refreshRules() {
      const text = (f: string) => {
        const s = out.statics.get(f) ?? out.hostFiles.get(f) ?? '';
        return typeof s === 'string' ? s : Buffer.from(s).toString('utf8');
      };
      headerRules = parseHeadersFile(text('_headers'));
      redirects = parseRedirectsFile(text('_redirects'));
    },
    headersFor(pathname) {
      const list: [string, string][] = [];
      for (const rule of headerRules) if (rule.pattern.test(pathname)) list.push(...rule.headers);
      return list;
    },
    redirectFor: (pathname) => redirects.get(pathname),
    find(pathname) {
      if (pathname.split('/').includes('..')) return null;
      for (const rel of candidates(pathname)) {
        const page = out.pages.get(rel);
        if (page) return { rel, body: page.html, route: page.route };
        const bytes = out.assets.get(rel) ?? out.previousAssets.get(rel) ?? out.statics.get(rel);
        if (bytes) return { rel, body: bytes };
        const host = out.hostFiles.get(rel);
        if (host !== undefined) return { rel, body: host };
      }
      return null;
    },
  };
  return out;
}
