// Compiles the site's sitegen.config.ts (and the templates it imports) with esbuild into one ESM module,
// then imports it. The engine's render code is bundled into the same module, so island collection and
// React share one instance. Imports of templates/islands/<Name> are wrapped with defineIsland(Name).
import path from 'node:path';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { Message, SiteConfig } from './types.ts';
import { message, fileLocation, siteFrame } from './errors.ts';
import type { renderPage as RenderPage, renderAliasPage as RenderAlias } from './render/document.tsx';

export const ENGINE_DIR = path.dirname(fileURLToPath(import.meta.url));
export const PACKAGE_DIR = path.dirname(ENGINE_DIR);

export interface SiteModule {
  config: SiteConfig;
  renderPage: typeof RenderPage;
  renderAliasPage: typeof RenderAlias;
  /** Every source file the module was built from, relative to the root (for dev-mode invalidation). */
  inputs: string[];
  /** The compiled module's file, which render workers import. */
  file: string;
}

export function esbuildMessages(list: esbuild.Message[], root: string, id: 'BundleError' | 'ConfigError' = 'BundleError'): Message[] {
  return list.map((m) => message(id, m.text, m.location ? {
    file: path.relative(root, path.resolve(root, m.location.file)).split(path.sep).join('/'),
    line: m.location.line, column: m.location.column + 1, lineText: m.location.lineText,
  } : null));
}

/** Marks bare imports external but resolves them to absolute paths, so the module runs from any folder. */
export function externalsPlugin(): esbuild.Plugin {
  return {
    name: 'sitegen-externals',
    setup(build) {
      build.onResolve({ filter: /^sitegen$/ }, () => ({ path: path.join(ENGINE_DIR, 'public.ts') }));
      build.onResolve({ filter: /^[^./]|^\.[^./]|^\.\.[^/]/ }, async (args) => {
        if (args.pluginData === 'inner' || args.path.startsWith('node:')) return undefined;
        for (const resolveDir of [args.resolveDir, PACKAGE_DIR]) {
          const r = await build.resolve(args.path, { kind: args.kind, resolveDir, pluginData: 'inner' });
          if (!r.errors.length) return { path: pathToFileURL(r.path).href, external: true };
        }
        return undefined;
      });
    },
  };
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

type SiteBuildResult = esbuild.BuildResult<{ metafile: true; write: false }>;

const noConfig = (root: string) => [message('ConfigError', `No sitegen.config.ts in ${root}`, null, { hint: 'Run sitegen in a site folder or pass --root.' })];

// Outside the site and inside node_modules, so tsx's loader leaves the bundle (and its source map) alone;
// every import in it is absolute, so where it lives does not matter.
const SERVER_OUTDIR = path.join(PACKAGE_DIR, 'node_modules', '.cache', 'sitegen', 'server');

/** The esbuild options that compile a site's config, templates and the engine's renderer into one module. */
export function siteModuleOptions(root: string) {
  const configFile = path.join(root, 'sitegen.config.ts');
  const entry = [
    `export { default as config } from ${JSON.stringify(configFile)};`,
    `export { renderPage, renderAliasPage } from ${JSON.stringify(path.join(ENGINE_DIR, 'render/document.tsx'))};`,
    // What a render worker runs (src/parallel/): it imports this file and nothing else.
    `export { workerMain } from ${JSON.stringify(path.join(ENGINE_DIR, 'parallel/batch.ts'))};`,
  ].join('\n');
  return {
    stdin: { contents: entry, resolveDir: root, sourcefile: 'sitegen-entry.js', loader: 'js' },
    bundle: true, platform: 'node', format: 'esm', target: 'node20', jsx: 'automatic',
    write: false, metafile: true, logLevel: 'silent', outdir: SERVER_OUTDIR, entryNames: 'site-[hash]', sourcemap: 'inline',
    plugins: [islandWrapPlugin(path.join(root, 'templates', 'islands')), externalsPlugin()],
  } satisfies esbuild.BuildOptions;
}

/** Writes the compiled module beside node_modules and imports it; `file` is where it was written. */
export async function importSiteModule(result: SiteBuildResult): Promise<{ site: SiteModule; file: string }> {
  const out = result.outputFiles[0];
  await fsp.mkdir(SERVER_OUTDIR, { recursive: true });
  const file = path.join(SERVER_OUTDIR, path.basename(out.path));
  await fsp.writeFile(file, out.contents);
  const mod = await import(pathToFileURL(file).href);
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules') && !f.startsWith('sitegen-island:'));
  return { site: { config: mod.config, renderPage: mod.renderPage, renderAliasPage: mod.renderAliasPage, inputs, file }, file };
}

export async function loadSiteModule(root: string): Promise<{ site?: SiteModule; errors: Message[] }> {
  try { await fsp.access(path.join(root, 'sitegen.config.ts')); } catch { return { errors: noConfig(root) }; }
  let result: SiteBuildResult;
  try {
    result = await esbuild.build(siteModuleOptions(root));
  } catch (e: any) {
    return { errors: esbuildMessages(e.errors ?? [], root, 'ConfigError') };
  }
  return { site: (await importSiteModule(result)).site, errors: [] };
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
  const ctx = await esbuild.context(siteModuleOptions(root));
  let previous: string | null = null;
  return {
    async compile() {
      try { await fsp.access(path.join(root, 'sitegen.config.ts')); } catch { return { errors: noConfig(root) }; }
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
      } catch (e: any) {
        // The module compiled but threw while its top level ran (config or a template module).
        return { errors: [message('ConfigError', `loading sitegen.config.ts failed: ${e?.message ?? e}`, siteFrame(e, root) ?? fileLocation('sitegen.config.ts'))] };
      }
      const { site, file } = imported;
      if (previous && previous !== file) await fsp.rm(previous, { force: true });
      previous = file;
      return { site, metafile: result.metafile, errors: [] };
    },
    async dispose() { await ctx.dispose(); },
  };
}
