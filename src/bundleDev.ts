// bundleDev: the client bundle of `sitegen dev` (src/bundle.ts makes a build's). Kept esbuild contexts,
// rebuilt per change, and React's development build made once, apart: the scripts import React and
// react-dom from that bundle's URLs (bundle.ts ClientPlanOptions.vendor), so an island edit rebuilds and
// links the site's own modules only, not React's 1.1 MB again.
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as esbuild from 'esbuild';
import type { AssetManifest, Message, SiteConfig } from './types.ts';
import { PACKAGE_DIR, esbuildMessages, loadEsbuild } from './siteModule.ts';
import { stampFiles, stampsMatch, type Stamp } from './cache/index.ts';
import { message } from './errors.ts';
import { EMPTY_MANIFEST, clientManifest, clientPlan, findIslands, type ClientBuildResult } from './bundle.ts';

export interface ClientBundler {
  /** Rebuilds the client bundle (incrementally while the entry points stay the same). */
  bundle(config: SiteConfig, opts: { define?: Record<string, string> }): Promise<{ manifest?: AssetManifest; inputs: string[]; errors: Message[] }>;
  dispose(): Promise<void>;
}

/**
 * Dev: stylesheets under names without a hash ("/assets/site.css"), so a CSS edit changes no page's HTML
 * (no page re-renders); open pages swap the stylesheet in place and the dev server serves it uncached.
 */
function stableStylesheets(m: AssetManifest): AssetManifest {
  const css = m.css.map((u) => u.replace(/-[A-Za-z0-9]+\.css$/, '.css'));
  const files = new Map(m.files);
  m.css.forEach((u, i) => {
    const bytes = files.get(u.slice(1));
    if (!bytes || css[i] === u) return;
    files.delete(u.slice(1));
    files.set(css[i].slice(1), bytes);
  });
  return { ...m, css, files };
}

/** React's modules an island (or the hydration runtime) may import; each is one entry of the React bundle. */
const REACT_MODULES = ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'react-dom', 'react-dom/client'];

/** React's development build as its own ES modules: module → URL ("/assets/…"), every file, the chunks. */
export interface ReactVendor { urls: Record<string, string>; chunks: string[]; files: Map<string, Uint8Array> }

/** Per process and React version: made once, at the first bundle of a site with islands. */
const vendors = new Map<string, Promise<ReactVendor | Message[]>>();

/**
 * React and react-dom (sitegen's own, as the server renders with) bundled alone, development build,
 * one ES module per entry with named exports, sharing one React. Their CommonJS exports are listed
 * by loading each module here, so `import { useState } from "react"` finds a real export.
 */
export function reactVendor(root: string): Promise<ReactVendor | Message[]> {
  const require = createRequire(path.join(PACKAGE_DIR, 'package.json'));
  const version = (m: string) => (require(`${m}/package.json`) as { version: string }).version;
  const outdir = path.join(root, '.sitegen', 'client', 'assets');
  const key = JSON.stringify([version('react'), version('react-dom'), outdir]);
  let made = vendors.get(key);
  if (!made) {
    made = buildReactVendor(outdir, (m) => Object.keys(require(m) as object));
    vendors.set(key, made);
    made.then((r) => { if (Array.isArray(r)) vendors.delete(key); }, () => vendors.delete(key));
  }
  return made;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

async function buildReactVendor(outdir: string, exportsOf: (m: string) => string[]): Promise<ReactVendor | Message[]> {
  const esbuild = await loadEsbuild();
  const entry = (m: string) => `vendor-${m.replace(/\//g, '-')}`;
  const wrapper = (m: string) => [`import m from ${JSON.stringify(m)};`, 'export default m;',
    ...exportsOf(m).filter((k) => IDENTIFIER.test(k) && k !== 'default' && k !== 'm').map((k) => `export const ${k} = m.${k};`)].join('\n');
  const plugin: esbuild.Plugin = {
    name: 'sitegen-vendor',
    setup(build) {
      build.onResolve({ filter: /^sitegen-vendor:/ }, (args) => ({ path: args.path.slice('sitegen-vendor:'.length), namespace: 'sitegen-vendor' }));
      build.onLoad({ filter: /.*/, namespace: 'sitegen-vendor' }, (args) => ({ contents: wrapper(args.path), loader: 'js', resolveDir: PACKAGE_DIR }));
    },
  };
  let result: ClientBuildResult;
  try {
    result = await esbuild.build({
      entryPoints: Object.fromEntries(REACT_MODULES.map((m) => [entry(m), `sitegen-vendor:${m}`])),
      bundle: true, splitting: true, format: 'esm', platform: 'browser', target: ['es2020', 'chrome100', 'safari15', 'firefox100'],
      write: false, metafile: true, logLevel: 'silent', outdir, entryNames: '[name]-[hash]', chunkNames: 'vendor-chunk-[hash]',
      define: { 'process.env.NODE_ENV': '"development"' }, nodePaths: [path.join(PACKAGE_DIR, 'node_modules')], legalComments: 'none',
      plugins: [plugin],
    });
  } catch (e: any) {
    const errors = esbuildMessages(e.errors ?? [], PACKAGE_DIR);
    return errors.length ? errors : [message('BundleError', `bundling React failed: ${e?.message ?? e}`)];
  }
  const outBase = path.dirname(outdir);
  const url = (file: string) => '/' + path.relative(outBase, path.resolve(file)).split(path.sep).join('/');
  const files = new Map(result.outputFiles.map((f) => [url(f.path).slice(1), f.contents]));
  const urls: Record<string, string> = {};
  for (const [out, info] of Object.entries(result.metafile.outputs)) {
    const m = info.entryPoint?.replace(/^sitegen-vendor:/, '');
    if (m && REACT_MODULES.includes(m)) urls[m] = url(out);
  }
  return { urls, files, chunks: [...files.keys()].map((f) => `/${f}`) };
}

/** One esbuild context of the dev bundler, and what it built last with the stamps of the files it read. */
interface DevPart {
  ctx: esbuild.BuildContext<{ metafile: true; write: false }>;
  last: ClientBuildResult | null;
  stamps: Stamp[];
}

/** A project's own input files of a build (not packages, not virtual modules), absolute. */
const ownInputs = (meta: esbuild.Metafile) => Object.keys(meta.inputs).filter((f) => !f.includes('node_modules') && !f.includes(':')).map((f) => path.resolve(f));

/**
 * For dev mode: keeps esbuild contexts and calls rebuild(), so an island edit re-reads only that file.
 * Two of them: the scripts (runtime, islands) and the stylesheets, and a part whose files are all
 * unchanged is not rebuilt — a CSS edit costs the CSS only. React comes from reactVendor's bundle, made
 * once: no rebuild links it again. Its bundle is the development one (see ClientPlanOptions.dev): its
 * .map files are served beside it. A new island, a removed one, or new CSS entries or defines change the
 * plan, which needs new contexts.
 */
export function createClientBundler(root: string): ClientBundler {
  let parts: DevPart[] = [];
  let key = '';
  const disposeAll = async () => { await Promise.all(parts.map((p) => p.ctx.dispose())); parts = []; };

  async function rebuild(part: DevPart): Promise<ClientBuildResult> {
    if (part.last && stampsMatch(part.stamps)) return part.last;
    // Stamped before the build: a file saved while esbuild reads it is seen as changed next time.
    const before = new Map(part.stamps.map((s) => [s[0], s]));
    const result = await part.ctx.rebuild();
    const files = ownInputs(result.metafile);
    const fresh = new Map(stampFiles(files.filter((f) => !before.has(f))).map((s) => [s[0], s]));
    part.stamps = files.map((f) => before.get(f) ?? fresh.get(f)!);
    part.last = result;
    return result;
  }

  return {
    async bundle(config, opts) {
      // React apart, for a site with islands (the hydration runtime imports it for React islands).
      const react = Object.keys(await findIslands(root, config)).length ? await reactVendor(root) : null;
      if (Array.isArray(react)) return { inputs: [], errors: react };
      const plan = await clientPlan(root, config, { ...opts, dev: true, ...(react ? { vendor: react.urls } : {}) });
      if (plan.key !== key) { await disposeAll(); key = plan.key; }
      if (!plan.options) return { manifest: EMPTY_MANIFEST(), inputs: [], errors: [] };
      if (!parts.length) {
        const esbuild = await loadEsbuild();
        const entries = Object.entries(plan.options.entryPoints as Record<string, string>);
        const groups = [entries.filter(([, f]) => !f.endsWith('.css')), entries.filter(([, f]) => f.endsWith('.css'))].filter((g) => g.length);
        parts = await Promise.all(groups.map(async (g) => ({ ctx: await esbuild.context({ ...plan.options!, entryPoints: Object.fromEntries(g) }), last: null, stamps: [] })));
      }
      let results: ClientBuildResult[];
      try {
        results = await Promise.all(parts.map(rebuild));
      } catch (e: any) {
        for (const p of parts) p.last = null;
        const errors = esbuildMessages(e.errors ?? [], root);
        return { inputs: [], errors: errors.length ? errors : [message('BundleError', `bundling failed: ${e?.message ?? e}`)] };
      }
      const result: ClientBuildResult = {
        ...results[0],
        outputFiles: results.flatMap((r) => r.outputFiles),
        metafile: { inputs: Object.assign({}, ...results.map((r) => r.metafile.inputs)), outputs: Object.assign({}, ...results.map((r) => r.metafile.outputs)) },
      };
      const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules') && !f.includes(':'));
      const manifest = stableStylesheets(clientManifest(root, plan, result));
      if (!react) return { manifest, inputs, errors: [] };
      // React's files are served beside the site's, and load with the React islands (preloaded as before).
      return { manifest: { ...manifest, baseChunks: [...react.chunks, ...manifest.baseChunks], files: new Map([...react.files, ...manifest.files]) }, inputs, errors: [] };
    },
    dispose: () => { key = ''; return disposeAll(); },
  };
}
