// Compiles the site's sitegen.config.ts (and the templates it imports) with esbuild into one ESM module,
// then imports it. The engine's render code is bundled into the same module, so island collection and
// React share one instance. Imports of templates/islands/<Name> are wrapped with defineIsland(Name).
//
// For `build` and `check` the module also bundles the packages every build loads (React, zod, yaml, marked,
// gray-matter): Node's ESM loader pays per file, and zod alone is ~100 files (70 ms to import, 30 ms as one
// bundle). It is cached in node_modules/.cache/sitegen/server/: the next build stats the files it was made
// from and, when none changed, imports it without starting esbuild. Dev mode keeps those packages external
// (each template edit imports a new module; bundled copies of React would pile up in memory).
import path from 'node:path';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createHash } from 'node:crypto';
import Module from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import type { Message, SiteConfig } from './types.ts';
import { message, thrownBySite } from './errors.ts';
import type { renderPage as RenderPage, renderAliasPage as RenderAlias } from './render/document.tsx';
import type * as Engine from './engine.ts';

/** esbuild's JS API, imported on first use (a cached build never needs it: ~40 ms saved). */
export const loadEsbuild = (): Promise<typeof esbuild> => import('esbuild');

export const ENGINE_DIR = path.dirname(fileURLToPath(import.meta.url));
export const PACKAGE_DIR = path.dirname(ENGINE_DIR);

export interface SiteModule {
  config: SiteConfig;
  renderPage: typeof RenderPage;
  renderAliasPage: typeof RenderAlias;
  /** The content loader and render stage, from the module (so from its bundled packages). */
  engine: typeof Engine;
  /** Every source file the module was built from, relative to the root (for dev-mode invalidation). */
  inputs: string[];
  /** The compiled module's file, which render workers import. */
  file: string;
  /** The vendor bundle a build's module takes its packages from (loaded first, by workers too). */
  vendor?: string;
}

export function esbuildMessages(list: esbuild.Message[], root: string, id: 'BundleError' | 'ConfigError' = 'BundleError'): Message[] {
  return list.map((m) => message(id, m.text, m.location ? {
    file: path.relative(root, path.resolve(root, m.location.file)).split(path.sep).join('/'),
    line: m.location.line, column: m.location.column + 1, lineText: m.location.lineText,
  } : null));
}

/** Packages bundled into the module for `build` (pure JS, no files of their own read at run time). */
export const BUNDLED_PACKAGES = new Set(['react', 'react-dom', 'scheduler', 'zod', 'yaml', 'marked', 'gray-matter']);
const packageName = (spec: string) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/**
 * The packages every build loads, compiled once per installed version into sitegen's vendor bundle
 * (node_modules/.cache/sitegen/vendor/): a build's site module takes them from it instead of compiling
 * them in (esbuild spent ~250 ms of a site compile on them). Specifier → vendor export. The engine's
 * react-dom/server is React's legacy server build only (renderToString/renderToStaticMarkup).
 */
const VENDORED = ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'zod', 'yaml', 'marked', 'gray-matter'];
const ENGINE_REACT_DOM_SERVER = 'react-dom/server (legacy)';

/**
 * Resolves bare imports to absolute paths (from the site, else from sitegen's own node_modules), so the
 * module runs from any folder. They stay external (ES module URLs in dev). With `bundle` (a build's CommonJS
 * module): VENDORED specifiers come from the vendor bundle, other parts of BUNDLED_PACKAGES and whatever
 * those import are compiled in, the rest is required by path (CommonJS builds preferred).
 */
export function externalsPlugin(bundle = false): esbuild.Plugin {
  return {
    name: 'sitegen-externals',
    setup(build) {
      build.onResolve({ filter: /^sitegen$/ }, () => ({ path: path.join(ENGINE_DIR, 'public.ts') }));
      if (bundle) {
        build.onLoad({ filter: /.*/, namespace: 'sitegen-vendor' }, (args) => ({
          contents: `module.exports = globalThis.__sitegenVendor[${JSON.stringify(args.path)}];`, loader: 'js',
        }));
      }
      build.onResolve({ filter: /^[^./]|^\.[^./]|^\.\.[^/]/ }, async (args) => {
        if (args.pluginData === 'inner' || args.path.startsWith('node:')) return undefined;
        if (bundle && VENDORED.includes(args.path)) return { path: args.path, namespace: 'sitegen-vendor' };
        if (bundle && args.path === 'react-dom/server' && args.importer.startsWith(ENGINE_DIR + path.sep)) return { path: ENGINE_REACT_DOM_SERVER, namespace: 'sitegen-vendor' };
        const inline = bundle && (BUNDLED_PACKAGES.has(packageName(args.path)) || args.importer.includes(NODE_MODULES));
        for (const resolveDir of [args.resolveDir, PACKAGE_DIR]) {
          const r = await build.resolve(args.path, { kind: args.kind, resolveDir, pluginData: 'inner' });
          if (r.errors.length) continue;
          if (r.external) return { path: r.path, external: true }; // a Node built-in required without node:
          if (inline) return { path: r.path };
          if (bundle) {
            const req = args.kind === 'import-statement' ? await build.resolve(args.path, { kind: 'require-call', resolveDir, pluginData: 'inner' }) : r;
            return { path: req.errors.length ? r.path : req.path, external: true };
          }
          return { path: pathToFileURL(r.path).href, external: true };
        }
        return undefined;
      });
    },
  };
}

const VENDOR_DIR = path.join(PACKAGE_DIR, 'node_modules', '.cache', 'sitegen', 'vendor');

/** The vendor bundle's file for the installed versions and NODE_ENV (it need not exist yet). */
export function vendorFile(): string {
  const versions = ['react', 'react-dom', 'scheduler', 'zod', 'yaml', 'marked', 'gray-matter', 'js-yaml'].map((p) => {
    try { return `${p}@${JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'node_modules', p, 'package.json'), 'utf8')).version}`; } catch { return `${p}@?`; }
  });
  const recipe = stampFiles([fileURLToPath(import.meta.url)]);
  const key = createHash('sha1').update(JSON.stringify([versions, nodeEnv(), process.version, recipe])).digest('hex').slice(0, 16);
  return path.join(VENDOR_DIR, `vendor-${key}.cjs`);
}

/** Builds the vendor bundle when it is missing (once per install; ~0.4 s). Its exports are getters, so a
 *  package is evaluated only when the build uses it (a warm build never runs yaml, marked or gray-matter). */
export async function ensureVendor(): Promise<string> {
  const file = vendorFile();
  if (fs.existsSync(file)) return file;
  // By path: react-dom's exports map does not expose its cjs/ files.
  const reactDom = path.dirname(Module.createRequire(path.join(PACKAGE_DIR, 'package.json')).resolve('react-dom/package.json'));
  const legacy = path.join(reactDom, 'cjs', `react-dom-server-legacy.node.${nodeEnv() === 'production' ? 'production' : 'development'}.js`);
  const exportsOf: [string, string][] = [...VENDORED.map((v) => [v, v] as [string, string]), [ENGINE_REACT_DOM_SERVER, legacy]];
  const contents = exportsOf.map(([name, spec]) => `Object.defineProperty(module.exports, ${JSON.stringify(name)}, { enumerable: true, get: () => require(${JSON.stringify(spec)}) });`).join('\n');
  const esbuild = await loadEsbuild();
  await fsp.mkdir(VENDOR_DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await esbuild.build({
    stdin: { contents, resolveDir: PACKAGE_DIR, sourcefile: 'sitegen-vendor.js', loader: 'js' },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: tmp, logLevel: 'silent',
    define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv()) }, legalComments: 'none',
    // js-yaml (through gray-matter) tries an optional esprima; leave that require to run time.
    external: ['esprima'],
  });
  await fsp.rename(tmp, file);
  // Bundles of earlier versions (and their code caches) are not needed again; one made in the last hour
  // may be another NODE_ENV's that a concurrent build is loading.
  const hourAgo = Date.now() - 3600_000;
  for (const n of await fsp.readdir(VENDOR_DIR)) {
    if (n.startsWith(path.basename(file)) || n.endsWith('.tmp')) continue;
    const st = await fsp.stat(path.join(VENDOR_DIR, n)).catch(() => null);
    if (st && st.mtimeMs < hourAgo) await fsp.rm(path.join(VENDOR_DIR, n), { force: true });
  }
  return file;
}

/** Loads the vendor bundle (with its code cache) where site modules find it, once per thread. */
function loadVendor(file: string): void {
  const g = globalThis as { __sitegenVendor?: unknown; __sitegenVendorFile?: string };
  if (g.__sitegenVendorFile === file) return;
  g.__sitegenVendor = loadCompiled(file);
  g.__sitegenVendorFile = file;
}

/** Wraps every import of a file directly inside the islands folder (from outside it) with defineIsland. */
export function islandWrapPlugin(islandsDir: string): esbuild.Plugin {
  // esbuild resolves symlinks, so compare against the folder's real path (a site may link templates/ in).
  try { islandsDir = fs.realpathSync(islandsDir); } catch { /* no islands folder */ }
  return {
    name: 'sitegen-islands',
    setup(build) {
      build.onResolve({ filter: /islands\// }, async (args) => {
        if (args.pluginData === 'island-inner' || args.namespace === 'sitegen-island') return undefined;
        const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'island-inner' });
        if (r.errors.length || path.dirname(r.path) !== islandsDir || path.dirname(args.importer) === islandsDir || /\.client\.[jt]sx?$/.test(r.path)) return undefined;
        return { path: r.path, namespace: 'sitegen-island' };
      });
      build.onLoad({ filter: /.*/, namespace: 'sitegen-island' }, (args) => {
        const name = path.basename(args.path).replace(/\.[jt]sx?$/, '');
        // An island with a Name.client.ts beside it is enhanced in the browser, not hydrated: no props travel.
        const enhance = ['.ts', '.js'].some((ext) => fs.existsSync(path.join(path.dirname(args.path), `${name}.client${ext}`)));
        return {
          contents: `import C from ${JSON.stringify(args.path)};\nimport { defineIsland } from ${JSON.stringify(path.join(ENGINE_DIR, 'render/island.tsx'))};\nexport default defineIsland(${JSON.stringify(name)}, C, ${JSON.stringify({ enhance })});\n`,
          loader: 'js',
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

/** The module compiled but threw while its top level ran (the config or a template module): a user error. */
const loadFailed = (e: unknown, root: string) => thrownBySite(e, root, 'loading sitegen.config.ts failed');

/**
 * The islands folder is a config setting, known only once the module ran: a compile assumes the default,
 * and a config that names another folder is compiled once more with it (the bundler reads the same field),
 * so its islands are wrapped (and hydrate) in every command.
 */
export const DEFAULT_ISLANDS = 'templates/islands';
export const islandsDirOf = (config: SiteConfig | undefined): string => config?.islandsDir ?? DEFAULT_ISLANDS;
const sameDir = (root: string, a: string, b: string) => path.resolve(root, a) === path.resolve(root, b);

type SiteBuildResult = esbuild.BuildResult<{ metafile: true; write: false }>;

const noConfig = (root: string) => [message('ConfigError', `No sitegen.config.ts in ${root}`, null, { hint: 'Run sitegen in a site folder or pass --root.' })];

// Outside the site and inside node_modules, so tsx's loader leaves the bundle (and its source map) alone;
// every import in it is absolute, so where it lives does not matter.
const SERVER_OUTDIR = path.join(PACKAGE_DIR, 'node_modules', '.cache', 'sitegen', 'server');

/**
 * The esbuild options that compile a site's config, templates and the engine's renderer into one module;
 * with `bundleDeps` (a build), the CommonJS module that takes its packages from the vendor bundle.
 */
export function siteModuleOptions(root: string, { bundleDeps = false, islandsDir = DEFAULT_ISLANDS } = {}) {
  const configFile = path.join(root, 'sitegen.config.ts');
  const entry = [
    `export { default as config } from ${JSON.stringify(configFile)};`,
    `export { renderPage, renderAliasPage } from ${JSON.stringify(path.join(ENGINE_DIR, 'render/document.tsx'))};`,
    `export * as engine from ${JSON.stringify(path.join(ENGINE_DIR, 'engine.ts'))};`,
    // What a render worker runs (src/parallel/): it imports this file and nothing else.
    `export { workerMain } from ${JSON.stringify(path.join(ENGINE_DIR, 'parallel/batch.ts'))};`,
  ].join('\n');
  return {
    stdin: { contents: entry, resolveDir: root, sourcefile: 'sitegen-entry.js', loader: 'js' },
    bundle: true, platform: 'node', format: bundleDeps ? 'cjs' : 'esm', target: 'node20', jsx: 'automatic',
    write: false, metafile: true, logLevel: 'silent', outdir: SERVER_OUTDIR, entryNames: 'site-[hash]',
    ...(bundleDeps ? { outExtension: { '.js': '.cjs' } } : {}),
    // Inline for dev (Node maps template errors itself); for a build a separate .map that is read only when
    // a template throws (errors.ts): Node would otherwise parse megabytes of map on every start.
    sourcemap: bundleDeps ? 'linked' : 'inline', sourcesContent: !bundleDeps,
    plugins: [islandWrapPlugin(path.resolve(root, islandsDir)), externalsPlugin(bundleDeps)],
    // A build's module is CommonJS, so that loadCompiled can keep V8's code cache for it (Node 20 has none
    // for ES modules): the next build skips compiling its ~1.5 MB. The engine's import.meta.url becomes the
    // module's own URL.
    ...(bundleDeps ? {
      // (the key is split so that bin/sitegen.js, which rewrites that expression in sources, leaves it)
      define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv()), ['import.meta' + '.url']: '__sitegen_module_url' },
      banner: { js: 'var __sitegen_module_url = require("node:url").pathToFileURL(__filename).href;' },
    } : {}),
  } satisfies esbuild.BuildOptions;
}

const nodeEnv = () => process.env.NODE_ENV ?? 'development';

/** Writes the compiled module beside node_modules and imports it; `file` is where it was written. */
export async function importSiteModule(result: SiteBuildResult): Promise<{ site: SiteModule; file: string }> {
  await fsp.mkdir(SERVER_OUTDIR, { recursive: true });
  let file = '';
  for (const out of result.outputFiles) {
    const to = path.join(SERVER_OUTDIR, path.basename(out.path));
    await fsp.writeFile(to, out.contents);
    if (/\.c?js$/.test(to)) file = to;
  }
  return { site: await importCompiled(file, sourceInputs(result.metafile)), file };
}

/** The metafile's inputs that are the site's or the engine's own files (dev mode watches these). */
function sourceInputs(meta: esbuild.Metafile): string[] {
  return Object.keys(meta.inputs).filter((f) => !f.includes('node_modules') && !f.startsWith('sitegen-island:'));
}

async function importCompiled(file: string, inputs: string[]): Promise<SiteModule> {
  let vendor: string | undefined;
  if (file.endsWith('.cjs')) { vendor = await ensureVendor(); loadVendor(vendor); }
  const mod = file.endsWith('.cjs') ? loadCompiled(file) : await import(pathToFileURL(file).href);
  return { config: mod.config, renderPage: mod.renderPage, renderAliasPage: mod.renderAliasPage, engine: mod.engine, inputs, file, vendor };
}

/** Code caches still to write: V8's cache is made after the build ran, so it holds the functions it used. */
const codeCaches: (() => void)[] = [];

/** The one loader of compiled CommonJS modules, shared with render workers (parallel/worker.cjs). */
const compiledLoader = Module.createRequire(import.meta.url)('./parallel/worker.cjs') as {
  loadCompiled(file: string): { exports: any; saveCodeCache: (() => void) | null };
};

/** Loads a build's CommonJS module with V8's code cache; a missing or rejected cache is written after the build. */
export function loadCompiled(file: string): any {
  const { exports, saveCodeCache } = compiledLoader.loadCompiled(file);
  if (saveCodeCache) codeCaches.push(saveCodeCache);
  return exports;
}

/** Writes the code caches of modules loaded in this process (after a successful build). */
export function saveCodeCaches(): void {
  for (const save of codeCaches.splice(0)) { try { save(); } catch { /* an optimisation only */ } }
}

// ---------- the build cache ----------

/** What a cached compile was made from: absolute path, size and mtime of every input file. */
type Stamp = [file: string, size: number, mtimeMs: number];
interface CacheRecord { file: string; inputs: string[]; stamps: Stamp[]; root?: string; vendor?: string; islandsDir?: string; islands?: string[] }

/** Sizes and mtimes of files (a missing file gets -1, so it never matches). */
export function stampFiles(files: string[]): Stamp[] {
  return files.map((f) => {
    try { const s = fs.statSync(f); return [f, s.size, s.mtimeMs]; } catch { return [f, -1, -1]; }
  });
}

export function stampsMatch(stamps: Stamp[]): boolean {
  for (const [f, size, mtime] of stamps) {
    let s: fs.Stats;
    try { s = fs.statSync(f); } catch { return false; }
    if (s.size !== size || s.mtimeMs !== mtime) return false;
  }
  return true;
}

/** Every file the compile read (esbuild names them relative to its working folder), absolute. */
export function metafileFiles(meta: esbuild.Metafile): string[] {
  return Object.keys(meta.inputs).filter((f) => !/^[a-z-]+:/.test(f) && f !== '<stdin>' && path.basename(f) !== 'sitegen-entry.js').map((f) => path.resolve(f));
}

/** The files of the islands folder: which islands have a Name.client.ts decides how islandWrapPlugin wraps them. */
function islandFiles(root: string, islandsDir: string): string[] {
  try { return fs.readdirSync(path.resolve(root, islandsDir)).sort(); } catch { return []; }
}

function cacheKey(root: string): string {
  // This file is the recipe (plugins, options), so its own stamp is part of the key.
  const recipe = stampFiles([fileURLToPath(import.meta.url)]);
  return createHash('sha1').update(JSON.stringify([path.resolve(root), nodeEnv(), process.version, recipe, path.basename(vendorFile())])).digest('hex').slice(0, 16);
}

/** The cached module for this site, when nothing it was built from changed since. */
export function cachedSiteModule(root: string): (CacheRecord & { vendor: string }) | null {
  if (process.env.SITEGEN_NO_CACHE === '1') return null;
  try {
    const record = JSON.parse(fs.readFileSync(path.join(SERVER_OUTDIR, `build-${cacheKey(root)}.json`), 'utf8')) as CacheRecord;
    const islandsSame = JSON.stringify(islandFiles(root, record.islandsDir ?? DEFAULT_ISLANDS)) === JSON.stringify(record.islands ?? []);
    return islandsSame && fs.existsSync(record.file) && fs.existsSync(vendorFile()) && stampsMatch(record.stamps) ? { ...record, vendor: vendorFile() } : null;
  } catch {
    return null;
  }
}

/**
 * The site module for a build: from the cache when valid (`hit` is returned with it so the build can say
 * so), else compiled with the packages bundled in and remembered. `cached` is what cachedSiteModule gave.
 */
export async function loadSiteModule(root: string, cached: CacheRecord | null = cachedSiteModule(root)): Promise<{ site?: SiteModule; errors: Message[]; hit?: boolean }> {
  try { await fsp.access(path.join(root, 'sitegen.config.ts')); } catch { return { errors: noConfig(root) }; }
  if (cached) {
    try { return { site: await importCompiled(cached.file, cached.inputs), errors: [], hit: true }; } catch { /* recompile below */ }
  }
  let islandsDir = DEFAULT_ISLANDS;
  let result: SiteBuildResult;
  let imported: Awaited<ReturnType<typeof importSiteModule>>;
  for (;;) {
    try {
      const esbuild = await loadEsbuild();
      result = await esbuild.build(siteModuleOptions(root, { bundleDeps: true, islandsDir }));
    } catch (e: any) {
      return { errors: esbuildMessages(e.errors ?? [], root, 'ConfigError') };
    }
    try {
      imported = await importSiteModule(result);
    } catch (e) {
      return { errors: [loadFailed(e, root)] };
    }
    const wanted = islandsDirOf(imported.site.config);
    if (sameDir(root, wanted, islandsDir)) break;
    await fsp.rm(imported.file, { force: true });
    islandsDir = wanted;
  }
  const { site, file } = imported;
  // Remembered only once it imported cleanly; a stale module of the same site is removed.
  const recordFile = path.join(SERVER_OUTDIR, `build-${cacheKey(root)}.json`);
  try {
    const old = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as CacheRecord;
    if (old.file !== file) await Promise.all(['', '.map', '.v8cache'].map((ext) => fsp.rm(`${old.file}${ext}`, { force: true })));
  } catch { /* first build of this site */ }
  const record: CacheRecord = { file, inputs: site.inputs, stamps: stampFiles(metafileFiles(result.metafile)), root: path.resolve(root), islandsDir, islands: islandFiles(root, islandsDir) };
  await writeAtomic(recordFile, JSON.stringify(record));
  await pruneServerCache().catch(() => {});
  return { site, errors: [] };
}

/**
 * Keeps the module cache from growing without end (each compiled site is ~2 MB, and test suites build
 * hundreds of temporary sites): drops the records of sites whose folder is gone, with their modules, and
 * any module no record names that is over an hour old (dev mode's are deleted as it replaces them).
 */
async function pruneServerCache(): Promise<void> {
  const names = await fsp.readdir(SERVER_OUTDIR);
  const kept = new Set<string>();
  for (const n of names.filter((f) => f.startsWith('build-') && f.endsWith('.json'))) {
    try {
      const r = JSON.parse(await fsp.readFile(path.join(SERVER_OUTDIR, n), 'utf8')) as CacheRecord;
      if (r.root && !fs.existsSync(r.root)) { await fsp.rm(path.join(SERVER_OUTDIR, n), { force: true }); continue; }
      kept.add(path.basename(r.file));
    } catch { /* being written by another build */ }
  }
  const hourAgo = Date.now() - 3600_000;
  for (const n of names.filter((f) => /^site-.*\.c?js(\.map|\.v8cache)?$/.test(f))) {
    if (kept.has(n.replace(/\.(map|v8cache)$/, ''))) continue;
    const st = await fsp.stat(path.join(SERVER_OUTDIR, n)).catch(() => null);
    if (st && st.mtimeMs < hourAgo) await fsp.rm(path.join(SERVER_OUTDIR, n), { force: true });
  }
}

/** Writes beside the target and renames, so a concurrent reader sees the old file or the new one. */
export async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fsp.writeFile(tmp, data);
  await fsp.rename(tmp, file);
}

export interface SiteCompiler {
  /** Recompiles what changed since the last call and imports the new module. */
  compile(): Promise<{ site?: SiteModule; metafile?: esbuild.Metafile; errors: Message[] }>;
  dispose(): Promise<void>;
}

/**
 * For dev mode: one esbuild context kept across compiles, so a template edit re-reads only changed files.
 * Each compile imports a module under a new content-hashed name (Node caches modules by URL), and deletes
 * the previous file so edits do not pile up in the cache folder.
 */
export async function createSiteCompiler(root: string): Promise<SiteCompiler> {
  const esbuild = await loadEsbuild();
  let islandsDir = DEFAULT_ISLANDS;
  let ctx = await esbuild.context(siteModuleOptions(root, { islandsDir }));
  let previous: string | null = null;
  return {
    async compile() {
      try { await fsp.access(path.join(root, 'sitegen.config.ts')); } catch { return { errors: noConfig(root) }; }
      for (;;) {
        let result: SiteBuildResult;
        try {
          result = await ctx.rebuild();
        } catch (e: any) {
          const errors = esbuildMessages(e.errors ?? [], root, 'ConfigError');
          // A failure without messages (esbuild's service gone) must still count as a failure.
          return { errors: errors.length ? errors : [message('ConfigError', `compiling the site failed: ${e?.message ?? e}`)] };
        }
        let imported;
        try {
          imported = await importSiteModule(result);
        } catch (e) {
          return { errors: [loadFailed(e, root)] };
        }
        const { site, file } = imported;
        if (previous && previous !== file) await fsp.rm(previous, { force: true });
        previous = file;
        const wanted = islandsDirOf(site.config);
        if (sameDir(root, wanted, islandsDir)) return { site, metafile: result.metafile, errors: [] };
        // The config names another islands folder: a context that wraps that one, and compile again.
        await ctx.dispose();
        islandsDir = wanted;
        ctx = await esbuild.context(siteModuleOptions(root, { islandsDir }));
      }
    },
    async dispose() { await ctx.dispose(); },
  };
}
