// bundle: the client side. One esbuild build: a hydration runtime whose island loaders are dynamic
// imports (so each island is its own chunk and React one shared chunk), plus the site's CSS.
// Minified, ESM, code-split, content-hashed; returns the manifest pages link from.
//
// A build's bundle is kept in the install's store, with a record in <root>/.sitegen/cache/client/ (clientStore.ts):
// when the plan (entries, islands, defines) and every file esbuild read are unchanged, or another site's bundle
// was made from the same files, the build reads the outputs back without starting esbuild.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type * as esbuild from 'esbuild';
import type { Message, SiteConfig } from '../core/types.ts';
import { ENGINE_DIR, PACKAGE_DIR, esbuildMessages, loadEsbuild } from '../site/index.ts';
import { listFiles } from '../content/glob.ts';
import { urlPolicy, withBase } from '../render/urls.ts';
import { refreshPlugin } from '../dev/hmrTransform.ts';

import type { AssetManifest } from '../core/types.ts';
import { gzipSizes } from './gzipSizes.ts';
import { fromRecord, fromStore, saveBundle } from './clientStore.ts';
export type { AssetManifest };

/**
 * Island name → the module the browser loads for it. `Name.tsx` is the island; when `Name.client.ts` sits
 * beside it, the browser loads that instead and calls its `enhance(element, props)` on the server HTML,
 * so small widgets need no React at all.
 */
export async function findIslands(root: string, config: SiteConfig): Promise<Record<string, string>> {
  const dir = path.join(root, config.islandsDir ?? 'templates/islands');
  const files = (await listFiles(dir)).filter((f) => !f.includes('/') && /\.[jt]sx?$/.test(f));
  const clients = new Set(files.filter((f) => /\.client\.[jt]sx?$/.test(f)));
  const out: Record<string, string> = {};
  for (const f of files) {
    if (clients.has(f)) continue;
    const name = f.replace(/\.[jt]sx?$/, '');
    const client = [...clients].find((c) => c.replace(/\.client\.[jt]sx?$/, '') === name);
    out[name] = path.join(dir, client ?? f);
  }
  return out;
}

export type ClientBuildResult = esbuild.BuildResult<{ metafile: true; write: false }>;

export interface ClientPlan {
  /** esbuild options, or null when the site has neither islands nor CSS (nothing to bundle). */
  options: (esbuild.BuildOptions & { metafile: true; write: false }) | null;
  /** Island name → source module, as findIslands returns. */
  islands: Record<string, string>;
  /** Changes when the entry points or defines change, which a kept esbuild context cannot follow. */
  key: string;
}

export const EMPTY_MANIFEST = (): AssetManifest => ({ runtime: null, css: [], islandChunks: {}, baseChunks: [], reactIslands: [], files: new Map(), islands: [] });

/** What to bundle for a site: the runtime with one dynamic import per island, and the site's CSS. */
export interface ClientPlanOptions {
  define?: Record<string, string>;
  minify?: boolean;
  /**
   * For `sitegen dev`: React's development build (its warnings, full error messages), no minifying, and
   * linked source maps, so an island's error in the browser maps back to file:line:col of its source.
   */
  dev?: boolean;
  /** Dev: packages ("react", "zod", …) → the URL of their bundle made apart (bundleDev.ts vendorBundle),
   *  imported from there instead of being linked into every rebuild. */
  vendor?: Record<string, string>;
  /** Dev: told each package the site's own code (and the runtime) imports; those are left out (a scan). */
  scan?: (specifier: string) => void;
  /** The islands, when the caller has just found them (findIslands). */
  islands?: Record<string, string>;
}

export async function clientPlan(root: string, config: SiteConfig, opts: ClientPlanOptions = {}): Promise<ClientPlan> {
  const islands = opts.islands ?? await findIslands(root, config);
  const names = Object.keys(islands).sort();
  const entryPoints: Record<string, string> = {};
  const cssFiles = (config.css ?? []).map((c) => path.resolve(root, c));
  // href() in an island runs again in the browser: it must see the site's base and slash rule there too.
  // The bundle's render/urlPolicy.ts holds them (a site with the default policy keeps the file as it is).
  const policy = urlPolicy(config);
  const policyModule = policy.base === '/' && policy.trailingSlash === 'always' ? null : `export const initialPolicy = ${JSON.stringify(policy)};`;
  const loaders = `{${names.map((n) => `${JSON.stringify(n)}: () => import(${JSON.stringify(islands[n])})`).join(',')}}`;
  const runtimeSource = (opts.dev ? [
    // Dev: the hot-update runtime first (it must hook React before react-dom loads), then the same hydration.
    `import { installHmr } from ${JSON.stringify(path.join(ENGINE_DIR, 'dev/hmrRuntime.ts'))};`,
    `import { hydrateIslands } from ${JSON.stringify(path.join(ENGINE_DIR, 'islands/client.ts'))};`,
    `const loaders = ${loaders};`,
    'installHmr(loaders);',
    'hydrateIslands(loaders);',
  ] : [
    `import { hydrateIslands } from ${JSON.stringify(path.join(ENGINE_DIR, 'islands/client.ts'))};`,
    `hydrateIslands(${loaders});`,
  ]).join('\n');
  const stdinPlugin: esbuild.Plugin = {
    name: 'sitegen-runtime',
    setup(build) {
      build.onResolve({ filter: /^sitegen:runtime$/ }, () => ({ path: 'runtime', namespace: 'sitegen' }));
      // An island may import from "sitegen-islands" (href()): the engine's public module, wherever the site lives,
      // as the server compile resolves it (site/esbuildPlugins.ts), also under the short name "sitegen".
      build.onResolve({ filter: /^(sitegen|sitegen-islands)$/ }, () => ({ path: path.join(ENGINE_DIR, 'public.ts') }));
      build.onLoad({ filter: /.*/, namespace: 'sitegen' }, () => ({ contents: runtimeSource, loader: 'js', resolveDir: root }));
      if (policyModule) {
        // The import in render/urls.ts (wherever the package's real folder is).
        build.onResolve({ filter: /^\.\/urlPolicy\.ts$/ }, (args) => (args.importer.endsWith(`${path.sep}render${path.sep}urls.ts`) ? { path: 'url-policy', namespace: 'sitegen-policy' } : undefined));
        build.onLoad({ filter: /.*/, namespace: 'sitegen-policy' }, () => ({ contents: policyModule, loader: 'js' }));
      }
    },
  };
  // Dev: the hydration runtime's react-dom remembers each island's root (hot updates unmount removed ones).
  const hydration = path.join(ENGINE_DIR, 'islands/client.ts');
  const hmrPlugin: esbuild.Plugin = {
    name: 'sitegen-hmr',
    setup(build) {
      // The shim is an .mts file, resolved as an import of it would be: esbuild then wraps react-dom the same
      // way in every rebuild (as a .ts file it flipped between two forms, React's chunk changed its name, and
      // hot updates could not keep React).
      build.onResolve({ filter: /^react-dom\/client$/ }, async (args) => {
        if (args.importer !== hydration) return undefined;
        const r = await build.resolve('./hmrReactDom.mts', { resolveDir: path.join(ENGINE_DIR, 'dev'), kind: args.kind, importer: args.importer });
        return r.errors.length ? { errors: r.errors } : { path: r.path };
      });
    },
  };
  if (names.length) entryPoints.runtime = 'sitegen:runtime';
  cssFiles.forEach((f, i) => { entryPoints[i === 0 ? 'site' : `site${i}`] = f; });
  const define = { 'process.env.NODE_ENV': opts.dev ? '"development"' : '"production"', ...(opts.define ?? {}) };
  const minify = opts.minify ?? !opts.dev;
  // Files CSS and JS reference (fonts, images) are linked under the site's base (site.base).
  const publicPath = withBase('/assets', policy.base);
  const key = JSON.stringify([MANIFEST_FORMAT, runtimeSource, policyModule, entryPoints, define, minify, opts.dev === true, ...(publicPath === '/assets' ? [] : [publicPath]), ...(opts.vendor ? [opts.vendor] : [])]);
  // Packages from their own bundle, under the site's base: the scripts' rebuilds leave them out.
  const { vendor, scan } = opts;
  const vendorPlugin: esbuild.Plugin = {
    name: 'sitegen-vendor',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (vendor?.[args.path]) return { path: withBase(vendor[args.path], policy.base), external: true };
        if (!scan || path.isAbsolute(args.path) || args.importer.split(path.sep).includes('node_modules')) return undefined;
        scan(args.path);
        return { path: args.path, external: true };
      });
    },
  };
  // A root-relative url() in CSS (url(/img/logo.png)) names a file of static/ as the site serves it, as Vite
  // reads one of public/: left as it is, with the site's base in front. Relative ones are bundled and hashed.
  const staticUrlPlugin: esbuild.Plugin = {
    name: 'sitegen-static-url',
    setup(build) {
      build.onResolve({ filter: /^\// }, (args) => {
        if (args.kind !== 'url-token' || args.path[1] === '/') return undefined;
        const file = args.path.split(/[?#]/, 1)[0]!;
        let name = file;
        try { name = decodeURIComponent(file); } catch { /* as written */ }
        if (!fs.existsSync(path.join(root, 'static', name))) return { errors: [{ text: `url(${args.path}) names static${file}, which does not exist (a root-relative url() is a file of static/; a relative one is bundled)` }] };
        return { path: withBase(args.path, policy.base), external: true };
      });
    },
  };
  if (!Object.keys(entryPoints).length) return { options: null, islands, key };
  return {
    islands, key,
    options: {
      entryPoints, bundle: true, splitting: true,
      // Paths in the bundle's hashes and metafile are relative to the site, not to the folder sitegen was
      // started from: the same site gets the same file names however it is built.
      absWorkingDir: root,
    // A site folder outside this package still gets React (and the runtime's imports) from sitegen's own packages.
    nodePaths: [path.join(PACKAGE_DIR, 'node_modules')], format: 'esm', platform: 'browser', target: ['es2020', 'chrome100', 'safari15', 'firefox100'],
      minify, write: false, ...(opts.dev ? { sourcemap: 'linked' as const, sourcesContent: true } : {}), metafile: true, logLevel: 'silent', jsx: 'automatic',
      outdir: path.join(root, '.sitegen', 'client', 'assets'), entryNames: '[name]-[hash]', chunkNames: 'chunk-[hash]', assetNames: '[name]-[hash]',
      publicPath, loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file', '.jpg': 'file', '.webp': 'file' },
      define,
      plugins: opts.dev ? [stdinPlugin, staticUrlPlugin, hmrPlugin, ...(vendor || scan ? [vendorPlugin] : []), refreshPlugin(root)] : [stdinPlugin, staticUrlPlugin],
      legalComments: 'none',
    },
  };
}


/** Bundles the client (or reads the cached bundle); `hit` says which. */
export async function bundleClient(root: string, config: SiteConfig, opts: ClientPlanOptions = {}): Promise<{ manifest?: AssetManifest; errors: Message[]; hit?: boolean }> {
  const plan = await clientPlan(root, config, opts);
  if (!plan.options) return { manifest: EMPTY_MANIFEST(), errors: [] };
  // The site's record of its bundle, else a bundle of the same plan and contents in the store (clientStore.ts).
  const key = createHash('sha1').update(plan.key).digest('hex');
  const cached = await fromRecord(root, key) ?? await fromStore(root, key, plan.key);
  if (cached) return { manifest: cached, errors: [], hit: true };
  let result: ClientBuildResult;
  const started = Date.now();
  try {
    const esbuild = await loadEsbuild();
    result = await esbuild.build(plan.options);
  } catch (e: any) {
    return { errors: esbuildMessages(e.errors ?? [], root, 'BundleError', root, Object.values(plan.islands)) };
  }
  const manifest = clientManifest(root, plan, result);
  manifest.gzipBytes = gzipSizes(manifest.files);
  await saveBundle(root, key, plan.key, manifest, result.metafile, started);
  return { manifest, errors: [] };
}

/** The way clientManifest reads a bundle, in the plan's key: a bundle stored by an engine that read it otherwise
 *  (3 since islands' own CSS is linked, 4 since the unlinked copy of it is left out, 5 since the images' module
 *  is not preloaded) is made again, not taken with its old manifest. */
const MANIFEST_FORMAT = 5;

/** Reads the asset manifest (which files each island needs) out of esbuild's output and metafile. */
export function clientManifest(root: string, plan: ClientPlan, result: ClientBuildResult): AssetManifest {
  const islands = plan.islands;
  const names = Object.keys(islands).sort();
  const outBase = path.join(root, '.sitegen', 'client');
  const files = new Map<string, Uint8Array>();
  for (const f of result.outputFiles) files.set(path.relative(outBase, f.path).split(path.sep).join('/'), f.contents);
  const meta = result.metafile;
  // The metafile names files relative to the build's working folder, the site (clientPlan).
  const url = (out: string) => '/' + path.relative(outBase, path.resolve(root, out)).split(path.sep).join('/');
  let runtime: string | null = null;
  // CSS that islands import (import './Counter.css'): esbuild writes it beside the runtime's JS, as the
  // runtime entry's stylesheet (its cssBundle); linked on every page after the site's own.
  let islandCss: string | null = null;
  const css: string[] = [];
  const chunkOf: Record<string, string> = {};
  const islandFiles = new Map(names.map((n) => [path.relative(root, islands[n]).split(path.sep).join('/'), n]));
  for (const [out, info] of Object.entries(meta.outputs)) {
    if (out.endsWith('.map')) continue;
    if (info.entryPoint === 'sitegen:runtime') { runtime = url(out); if (info.cssBundle) islandCss = url(info.cssBundle); }
    else if (out.endsWith('.css') && info.entryPoint) css.push(url(out));
    else if (info.entryPoint && islandFiles.has(info.entryPoint)) chunkOf[islandFiles.get(info.entryPoint)!] = out;
  }
  const islandOutputs = new Set(Object.values(chunkOf));
  // What loads with a chunk: its static imports, transitively (dynamic imports load later, on use).
  const closure = (start: string) => {
    const seen = new Set<string>();
    const walk = (o: string) => {
      if (seen.has(o)) return;
      seen.add(o);
      for (const imp of meta.outputs[o]?.imports ?? []) if (!imp.external && imp.kind === 'import-statement') walk(imp.path);
    };
    walk(start);
    return seen;
  };
  const runtimeOut = Object.keys(meta.outputs).find((o) => meta.outputs[o].entryPoint === 'sitegen:runtime');
  // The runtime's dynamic imports other than islands are React and react-dom, needed by React islands only,
  // and the static images' module, loaded only by an island whose render showed an image (islandImages.ts):
  // not preloaded, so a page whose islands show none does not fetch it.
  const imagesModule = path.join(ENGINE_DIR, 'render/images.ts');
  const base = new Set<string>();
  for (const imp of runtimeOut ? meta.outputs[runtimeOut].imports : []) {
    if (imp.kind !== 'dynamic-import' || imp.external || islandOutputs.has(imp.path)) continue;
    const entry = meta.outputs[imp.path]?.entryPoint;
    if (entry && path.resolve(root, entry) === imagesModule) continue;
    closure(imp.path).forEach((o) => base.add(o));
  }
  const islandChunks: Record<string, string[]> = {};
  const reactIslands: string[] = [];
  for (const [name, out] of Object.entries(chunkOf)) {
    islandChunks[name] = [...closure(out)].map(url);
    if (!/\.client\.[jt]sx?$/.test(islands[name])) reactIslands.push(name);
  }
  const linked = [...css.sort(), ...(islandCss ? [islandCss] : [])];
  // esbuild also writes the CSS an island's chunk imports as that chunk's own stylesheet, a copy of what the
  // runtime's has; no page links it and no script loads it, so it is not published.
  const kept = new Set(linked.map((u) => u.slice(1)));
  for (const f of [...files.keys()]) if (/\.css(?:\.map)?$/.test(f) && !kept.has(f.replace(/\.map$/, ''))) files.delete(f);
  return { runtime, css: linked, islandChunks, baseChunks: [...base].map(url), reactIslands, files, islands: names };
}
