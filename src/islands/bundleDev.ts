// bundleDev: the client bundle of `sitegen dev` (islands/bundle.ts makes a build's). Kept esbuild contexts,
// rebuilt per change, and the packages the site's client code imports (React's development build among
// them) bundled once, apart: the scripts import them from that bundle's URLs (bundle.ts
// ClientPlanOptions.vendor), so an island edit rebuilds and links the site's own modules only.
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as esbuild from 'esbuild';
import type { AssetManifest, Message, SiteConfig } from '../core/types.ts';
import { PACKAGE_DIR, esbuildMessages, loadEsbuild, metafileFiles } from '../site/index.ts';
import { stampFiles, stampsMatch, type Stamp } from '../cache/index.ts';
import { message } from '../core/errors.ts';
import { EMPTY_MANIFEST, clientManifest, clientPlan, findIslands, type ClientBuildResult } from './bundle.ts';
import { lookup, store } from './clientStore.ts';
import { urlPolicy, withBase } from '../render/urls.ts';

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

/** React's modules: always in the vendor bundle (CommonJS, so each gets an entry listing its exports). */
const REACT_MODULES = ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'react-dom', 'react-dom/client'];

/** The packages bundled apart: specifier → URL ("/assets/…"), every file, and React's files (preloaded). */
export interface Vendor { urls: Record<string, string>; react: string[]; files: Map<string, Uint8Array> }

/** Per process: made once per set of packages (a new package an island imports makes a new one). */
const vendors = new Map<string, Promise<Vendor | Message[]>>();

/**
 * The packages the site's client code imports, bundled once, apart from the site's own code (development
 * build, no source maps), as ES modules sharing one copy of each package: an island edit then rebuilds
 * and links the site's modules only. React and react-dom (sitegen's own, as the server renders with) get
 * an entry listing their CommonJS exports (loaded here), so `import { useState } from "react"` finds a
 * real export. Any other package whose bundle exports no names (CommonJS) stays in the site's bundle.
 */
export function vendorBundle(root: string, packages: string[], base = '/'): Promise<Vendor | Message[]> {
  const require = createRequire(path.join(PACKAGE_DIR, 'package.json'));
  const version = (m: string) => (require(`${m}/package.json`) as { version: string }).version;
  const outdir = path.join(root, '.sitegen', 'client', 'assets');
  const list = [...new Set([...REACT_MODULES, ...packages])].sort();
  const key = JSON.stringify([version('react'), version('react-dom'), outdir, list, base]);
  let made = vendors.get(key);
  if (!made) {
    made = buildVendor(root, outdir, list, (m) => Object.keys(require(m) as object), base);
    vendors.set(key, made);
    made.then((r) => { if (Array.isArray(r)) vendors.delete(key); }, () => vendors.delete(key));
  }
  return made;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The store's plan of the packages' bundle (with the packages' places relative to the site, in clientStore.ts).
 *  Under a site base the bundle's files import each other below it: a bundle of its own. */
export const packagesPlanKey = (list: string[], base = '/') => JSON.stringify(['dev packages', [...new Set([...REACT_MODULES, ...list])].sort(), ...(base === '/' ? [] : [base])]);

async function buildVendor(root: string, outdir: string, list: string[], exportsOf: (m: string) => string[], base: string): Promise<Vendor | Message[]> {
  // In the install's store (clientStore.ts) once made for any site with the same packages at the same places.
  const planKey = packagesPlanKey(list, base);
  const stored = await lookup<Omit<Vendor, 'files'>>(root, planKey);
  if (stored) return { ...stored.data, files: stored.files };
  const esbuild = await loadEsbuild();
  const entry = (m: string) => `vendor-${m.replace(/[^\w-]+/g, '-')}`;
  const wrapper = (m: string) => [`import m from ${JSON.stringify(m)};`, 'export default m;',
    ...exportsOf(m).filter((k) => IDENTIFIER.test(k) && k !== 'default' && k !== 'm').map((k) => `export const ${k} = m.${k};`)].join('\n');
  const plugin: esbuild.Plugin = {
    name: 'sitegen-vendor',
    setup(build) {
      build.onResolve({ filter: /^sitegen-vendor:/ }, async (args) => {
        const m = args.path.slice('sitegen-vendor:'.length);
        if (REACT_MODULES.includes(m)) return { path: m, namespace: 'sitegen-vendor' };
        // The package as the site's bundle would have resolved it (its folder first, then sitegen's).
        const r = await build.resolve(m, { resolveDir: root, kind: 'import-statement' });
        return r.errors.length ? { errors: r.errors } : { path: r.path, namespace: r.namespace, sideEffects: r.sideEffects };
      });
      build.onLoad({ filter: /.*/, namespace: 'sitegen-vendor' }, (args) => ({ contents: wrapper(args.path), loader: 'js', resolveDir: PACKAGE_DIR }));
    },
  };
  let result: ClientBuildResult;
  const started = Date.now();
  try {
    result = await esbuild.build({
      // (paths relative to the site, as in the site's bundle: the same packages give the same files for any site)
      absWorkingDir: root,
      entryPoints: Object.fromEntries(list.map((m) => [entry(m), `sitegen-vendor:${m}`])),
      bundle: true, splitting: true, format: 'esm', platform: 'browser', target: ['es2020', 'chrome100', 'safari15', 'firefox100'],
      write: false, metafile: true, logLevel: 'silent', outdir, entryNames: '[name]-[hash]', chunkNames: 'vendor-chunk-[hash]',
      sourcemap: 'linked', // made once per process: the browser's devtools and the error mapping see React's own sources
      define: { 'process.env.NODE_ENV': '"development"' }, nodePaths: [path.join(PACKAGE_DIR, 'node_modules')], legalComments: 'none',
      // (its chunks import each other, and its files are linked, at this URL: under the site's base)
      loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file', '.jpg': 'file', '.webp': 'file' }, publicPath: withBase('/assets', base),
      plugins: [plugin],
    });
  } catch (e: any) {
    const errors = esbuildMessages(e.errors ?? [], root, 'BundleError', root);
    return errors.length ? errors : [message('BundleError', `bundling the site's packages failed: ${e?.message ?? e}`)];
  }
  const outBase = path.dirname(outdir);
  const url = (file: string) => '/' + path.relative(outBase, path.resolve(root, file)).split(path.sep).join('/');
  const files = new Map(result.outputFiles.map((f) => [url(f.path).slice(1), f.contents]));
  const urls: Record<string, string> = {};
  const outputs = result.metafile.outputs;
  const byEntry = new Map(Object.entries(outputs).flatMap(([out, info]) => (info.entryPoint ? [[info.entryPoint, out] as const] : [])));
  for (const m of list) {
    const named = new RegExp(`^${entry(m)}-[A-Z0-9]+\\.js$`);
    const out = byEntry.get(`sitegen-vendor:${m}`) ?? Object.keys(outputs).find((o) => named.test(path.basename(o)));
    // A package that exports no names (CommonJS) stays in the site's bundle, which knows its exports.
    if (out && (REACT_MODULES.includes(m) || outputs[out].exports.some((x) => x !== 'default'))) urls[m] = url(out);
  }
  // React's files, with the chunks they import: what a page with a React island preloads.
  const react = new Set<string>();
  const walk = (o: string) => { if (react.has(o)) return; react.add(o); for (const i of outputs[o]?.imports ?? []) if (!i.external && i.kind === 'import-statement') walk(i.path); };
  for (const m of REACT_MODULES) { const u = urls[m]; const o = u && Object.keys(outputs).find((x) => url(x) === u); if (o) walk(o); }
  const vendor = { urls, react: [...react].map(url) };
  await store(root, planKey, vendor, files, metafileFiles(result.metafile, root), started);
  return { ...vendor, files };
}

/** The packages the site's client code imports (bare specifiers outside node_modules), found by a quick
 *  build that leaves every package out. A build that fails (the site's own error) finds none. */
async function scanPackages(root: string, config: SiteConfig, opts: { define?: Record<string, string>; islands?: Record<string, string> }): Promise<string[]> {
  const found = new Set<string>();
  const plan = await clientPlan(root, config, { ...opts, dev: true, scan: (s) => found.add(s) });
  if (!plan.options) return [];
  const scripts = Object.entries(plan.options.entryPoints as Record<string, string>).filter(([, f]) => !f.endsWith('.css'));
  if (!scripts.length) return [];
  try {
    const esbuild = await loadEsbuild();
    await esbuild.build({ ...plan.options, entryPoints: Object.fromEntries(scripts), sourcemap: false, metafile: false, write: false });
  } catch {
    return [];
  }
  return [...found];
}

/** One esbuild context of the dev bundler, and what it built last with the stamps of the files it read. */
interface DevPart {
  ctx: esbuild.BuildContext<{ metafile: true; write: false }>;
  last: ClientBuildResult | null;
  stamps: Stamp[];
}

/** A project's own input files of a build of the plan (not packages, not virtual modules), absolute: the plan's
 *  builds name them relative to the site (clientPlan's absWorkingDir). */
const ownInputs = (meta: esbuild.Metafile, root: string) => Object.keys(meta.inputs).filter((f) => !f.includes('node_modules') && !f.includes(':')).map((f) => path.resolve(root, f));

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
  /** The packages the last scan found, and the plan (without them) it scanned. */
  let packages: string[] = [];
  let scannedFor = '';
  const disposeAll = async () => { await Promise.all(parts.map((p) => p.ctx.dispose())); parts = []; };

  async function rebuild(part: DevPart): Promise<ClientBuildResult> {
    if (part.last && stampsMatch(part.stamps)) return part.last;
    // Stamped before the build: a file saved while esbuild reads it is seen as changed next time.
    const before = new Map(part.stamps.map((s) => [s[0], s]));
    const result = await part.ctx.rebuild();
    const files = ownInputs(result.metafile, root);
    const fresh = new Map(stampFiles(files.filter((f) => !before.has(f))).map((s) => [s[0], s]));
    part.stamps = files.map((f) => before.get(f) ?? fresh.get(f)!);
    part.last = result;
    return result;
  }

  return {
    async bundle(config, opts) {
      // The packages apart, for a site with islands (found again whenever the plan changes).
      let vendor: Vendor | null = null;
      const islands = await findIslands(root, config);
      if (Object.keys(islands).length) {
        const bare = await clientPlan(root, config, { ...opts, dev: true, islands });
        if (bare.key !== scannedFor) { packages = await scanPackages(root, config, { ...opts, islands }); scannedFor = bare.key; }
        const base = urlPolicy(config).base;
        const made = await vendorBundle(root, packages, base);
        if (Array.isArray(made)) {
          // A package that does not bundle alone: React alone, the rest in the site's bundle as before.
          const react = await vendorBundle(root, [], base);
          if (Array.isArray(react)) return { inputs: [], errors: react };
          vendor = react;
        } else vendor = made;
      }
      const plan = await clientPlan(root, config, { ...opts, dev: true, islands, ...(vendor ? { vendor: vendor.urls } : {}) });
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
        const errors = esbuildMessages(e.errors ?? [], root, 'BundleError', root, Object.values(islands));
        return { inputs: [], errors: errors.length ? errors : [message('BundleError', `bundling failed: ${e?.message ?? e}`)] };
      }
      const result: ClientBuildResult = {
        ...results[0],
        outputFiles: results.flatMap((r) => r.outputFiles),
        metafile: { inputs: Object.assign({}, ...results.map((r) => r.metafile.inputs)), outputs: Object.assign({}, ...results.map((r) => r.metafile.outputs)) },
      };
      const inputs = ownInputs(result.metafile, root);
      const manifest = stableStylesheets(clientManifest(root, plan, result));
      if (!vendor) return { manifest, inputs, errors: [] };
      // The packages' files are served beside the site's; React's load with the React islands (preloaded as before).
      return { manifest: { ...manifest, baseChunks: [...vendor.react, ...manifest.baseChunks], files: new Map([...vendor.files, ...manifest.files]) }, inputs, errors: [] };
    },
    dispose: () => { key = ''; scannedFor = ''; return disposeAll(); },
  };
}
