// The esbuild options of the server compile (the site's config and templates).
import path from 'node:path';
import type { SiteConfig } from '../core/types.ts';
import { SERVER_OUTDIR, nodeEnv } from './paths.ts';
import { externalsPlugin, islandWrapPlugin, type ResolveMemo } from './esbuildPlugins.ts';
import { exportRegistryPlugin } from './exportRegistry.ts';
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
 * The esbuild options that compile a site's config and what it imports (templates, islands, plugins) into one
 * CommonJS module: the site's own code only. The engine, React and zod are the running engine's (provided.ts);
 * other packages are required from their paths. CommonJS, so that the loader can hand it the engine's modules
 * and keep V8's code cache for it (Node 20 has none for ES modules). Dev's modules have names of their
 * own: dev deletes each one it replaces, never a build's cached module.
 */
export function siteModuleOptions(root: string, { islandsDir = DEFAULT_ISLANDS, dev = false, memo }: { islandsDir?: string; dev?: boolean; memo?: ResolveMemo } = {}) {
  const configFile = path.join(root, 'sitegen.config.ts');
  return {
    stdin: { contents: `export { default as config } from ${JSON.stringify(configFile)};`, resolveDir: root, sourcefile: 'sitegen-entry.js', loader: 'js' },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', jsx: 'automatic',
    // Strict, as the site's modules are (ES modules, run as such by Node and by other tools): a CommonJS bundle
    // is not by itself, and there a write to a read-only entry (content/readOnly.ts) would pass without a word.
    banner: { js: '"use strict";' },
    write: false, metafile: true, logLevel: 'silent', outdir: SERVER_OUTDIR, entryNames: dev ? 'site-dev-[hash]' : 'site-[hash]', outExtension: { '.js': '.cjs' },
    // A separate .map, read only when a template throws (errors.ts): Node would otherwise parse it on every start.
    sourcemap: 'linked', sourcesContent: false,
    plugins: [islandWrapPlugin(path.resolve(root, islandsDir), memo, root), externalsPlugin(memo), exportRegistryPlugin(root)],
    define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv()) },
  } satisfies esbuild.BuildOptions;
}
