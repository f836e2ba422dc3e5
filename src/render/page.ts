// page: renders one route to HTML in the site's context, turning a template's exception into a located
// message (and, when the page's content file writes a path the error quotes, a note at that line). Kept free of
// esbuild: worker threads run it too.
import fs from 'node:fs';
import path from 'node:path';
import type { Content, Message, Route, SiteConfig } from '../core/types.ts';
import type { AssetManifest } from '../core/types.ts';
import { message, fileLocation, locationAt, pluginAt, renderFailedText, siteFrame, readOnlyHint, undefinedNameHint } from '../core/errors.ts';
import type { RenderContext, RenderedPage } from './document.tsx';
import { urlPolicy, withBase } from './urls.ts';
import { IslandPropsError } from './island.tsx';
import type { ImageTable } from '../output/staticImages.ts';
import type { ComponentRenderFailure } from './components.tsx';

/** What rendering needs of the asset manifest (no file bytes): plain data, so it can go to a worker. */
export type ManifestLinks = Pick<AssetManifest, 'css' | 'runtime' | 'baseChunks' | 'islandChunks' | 'reactIslands'> & {
  /** The static images' sizes and URLs (output/staticImages.ts), for image() in templates. */
  images?: ImageTable;
  /** With `cspMeta`, the policy each page carries in its head: the site's, and those of routes with their own `csp`, by path. */
  cspMeta?: { site: string; routes?: Record<string, string> };
};

/** The part of a site module that renders. */
export interface PageRenderer {
  config: SiteConfig;
  renderPage(route: Route, ctx: RenderContext): RenderedPage;
}

/** The context every page renders with: config, content, origin and the asset URLs pages link. */
export function renderContext(config: SiteConfig, content: Content, siteUrl: string, manifest: ManifestLinks): RenderContext {
  const policy = urlPolicy(config);
  // The manifest's URLs are base-less ("/assets/…"); pages link them under the site's base.
  const url = policy.base === '/' ? (u: string) => u : (u: string) => withBase(u, policy.base);
  return {
    config, content, siteUrl, policy, images: manifest.images, ...(manifest.cspMeta ? { cspMeta: manifest.cspMeta } : {}),
    assets: {
      css: manifest.css.map(url), runtime: manifest.runtime && url(manifest.runtime),
      preload: (eager) => pageChunks(manifest, eager).map(url),
    },
  };
}

/** Renders one route; a template's exception becomes a located RenderError (or IslandPropsError) message. */
export function renderRoute(site: PageRenderer, route: Route, ctx: RenderContext, root: string): { page?: RenderedPage; error?: Message } {
  try {
    return { page: site.renderPage(route, ctx) };
  } catch (e: any) {
    // By shape, not class: the site module may bundle its own copy of components.tsx.
    if (e?.directive && 'thrown' in e) return { error: componentFailure(e as ComponentRenderFailure, route, root) };
    const thrown = String(e?.message ?? e);
    const hint = readOnlyHint(e) ?? undefinedNameHint(e);
    const at = typeof e?.sitegenPlugin === 'string' ? pluginAt(root, e.sitegenPlugin) ?? fileLocation('sitegen.config.ts') : siteFrame(e, root);
    const m = message(e instanceof IslandPropsError ? 'IslandPropsError' : 'RenderError', renderFailedText(route.path, thrown), at ?? (route.source ? fileLocation(route.source) : null), { render: { page: route.path, thrown }, ...(hint ? { hint } : {}) });
    const from = route.source ? valueInSource(root, route.source, thrown) : null;
    if (from && from.location.file !== m.location?.file) m.notes.push({ text: `${from.value} is written in the page's content file`, location: from.location });
    return { error: m };
  }
}

// What a message quotes; only a path or URL ("/images/cover.jpg", with a "/") is looked for, not a word or a number.
const QUOTED = /"([^"\n]{3,400})"/g;

/** Where the page's content file writes a value the template's error quotes (a front matter image path that
 *  <Image> cannot find): the line to fix is there, not in the template. Null when it writes none of them. */
function valueInSource(root: string, source: string, thrown: string): { value: string; location: ReturnType<typeof fileLocation> } | null {
  let text: string;
  try { text = fs.readFileSync(path.join(root, source), 'utf8'); } catch { return null; }
  for (const q of thrown.matchAll(QUOTED)) {
    if (!q[1]!.includes('/')) continue;
    const i = text.indexOf(q[1]!);
    if (i >= 0) return { value: q[0]!, location: locationAt(source, text, i) };
  }
  return null;
}

/** A component in a Markdown body that threw: located at its directive, with the component's line as a note. */
function componentFailure(e: ComponentRenderFailure, route: Route, root: string): Message {
  const d = e.directive;
  const thrown = String((e.thrown as Error)?.message ?? e.thrown);
  const frame = siteFrame(e.thrown, root);
  const hint = readOnlyHint(e.thrown);
  return message('ComponentRenderError', `rendering component ${d.n} on ${route.path} failed: ${thrown}`, fileLocation(d.f, d.l, d.c, d.t), {
    ...(hint ? { hint } : {}),
    render: { page: route.path, thrown: `${d.n}: ${thrown}` },
    notes: frame ? [{ text: `${d.n} threw here`, location: frame }] : [],
  });
}

/** The JS files a set of islands loads before interaction: their chunks, plus React when one needs it. */
export function pageChunks(manifest: ManifestLinks, islands: string[]): string[] {
  const react = islands.some((n) => manifest.reactIslands.includes(n)) ? manifest.baseChunks : [];
  return [...new Set([...react, ...islands.flatMap((n) => manifest.islandChunks[n] ?? [])])];
}

