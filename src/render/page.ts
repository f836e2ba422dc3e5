// page: renders one route to HTML in the site's context, turning a template's exception into a located
// message. Kept free of esbuild and the file system: worker threads run it too.
import type { Content, Message, Route, SiteConfig } from '../core/types.ts';
import type { AssetManifest } from '../core/types.ts';
import { message, fileLocation, renderFailedText, siteFrame, readOnlyHint } from '../core/errors.ts';
import type { RenderContext, RenderedPage } from './document.tsx';
import { urlPolicy, withBase } from './urls.ts';
import { IslandPropsError } from './island.tsx';
import type { ImageTable } from '../output/staticImages.ts';
import type { ComponentRenderFailure } from './components.tsx';

/** What rendering needs of the asset manifest (no file bytes): plain data, so it can go to a worker. */
export type ManifestLinks = Pick<AssetManifest, 'css' | 'runtime' | 'baseChunks' | 'islandChunks' | 'reactIslands'> & {
  /** The static images' sizes and URLs (output/staticImages.ts), for image() in templates. */
  images?: ImageTable;
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
    config, content, siteUrl, policy, images: manifest.images,
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
    const hint = readOnlyHint(e);
    const m = message(e instanceof IslandPropsError ? 'IslandPropsError' : 'RenderError', renderFailedText(route.path, thrown), siteFrame(e, root) ?? (route.source ? fileLocation(route.source) : null), { render: { page: route.path, thrown }, ...(hint ? { hint } : {}) });
    return { error: m };
  }
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

