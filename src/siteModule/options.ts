// The esbuild options of the server compile (the site's config, templates and the engine's renderer).
import path from 'node:path';
import type { SiteConfig } from '../types.ts';
import { ENGINE_DIR, SERVER_OUTDIR, nodeEnv } from './paths.ts';
import { externalsPlugin, islandWrapPlugin } from './plugins.ts';
import type * as esbuild from 'esbuild';

/**
 * The islands folder is a config setting, known only once the module ran: a compile assumes the default,
 * and a config that names another folder is compiled once more with it (the bundler reads the same field),
 * so its islands are wrapped (and hydrate) in every command.
 */
export const DEFAULT_ISLANDS = 'templates/islands';
export const islandsDirOf = (config: SiteConfig | undefined): string => config?.islandsDir ?? DEFAULT_ISLANDS;
export const sameDir = (root: string, a: string, b: string) => path.resolve(root, a) === path.resolve(root, b);

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
