// The vendor bundle: the packages every build loads, compiled once per installed version.
import path from 'node:path';
import fs from 'node:fs';
import Module from 'node:module';
import { PACKAGE_DIR, RECIPE_DIR, VENDOR_DIR, nodeEnv } from './paths.ts';
import { VENDORED, ENGINE_REACT_DOM_SERVER } from './esbuildPlugins.ts';
import { keyOf, packageVersions, stampFiles, writeFileAtomic, writeFileAtomicSync } from '../cache/index.ts';
import { INSTALL_CACHE, codeCacheAfter, loadTracked } from './compiled.ts';

/** The vendor bundle's file for the installed versions and NODE_ENV (it need not exist yet). */
export function vendorFile(env = nodeEnv()): string {
  const versions = packageVersions(PACKAGE_DIR, ['react', 'react-dom', 'scheduler', 'zod', 'yaml', 'marked', 'js-yaml']);
  // This file and the plugin list (VENDORED) are the recipe.
  const recipe = stampFiles([path.join(RECIPE_DIR, 'vendor.ts'), path.join(RECIPE_DIR, 'esbuildPlugins.ts')]);
  const key = keyOf([versions, env, process.version, recipe]);
  return path.join(VENDOR_DIR, `vendor-${key}.cjs`);
}

/** Builds the vendor bundle when it is missing (once per install; ~0.4 s; synchronous, as the engine's first
 *  import of a package waits for it). Its exports are getters, so a package is evaluated only when used. */
export function ensureVendor(env = nodeEnv()): string {
  const file = vendorFile(env);
  if (fs.existsSync(file)) return file;
  // By path: react-dom's exports map does not expose its cjs/ files.
  const fromPackage = Module.createRequire(path.join(PACKAGE_DIR, 'package.json'));
  const reactDom = path.dirname(fromPackage.resolve('react-dom/package.json'));
  const legacy = path.join(reactDom, 'cjs', `react-dom-server-legacy.node.${env === 'production' ? 'production' : 'development'}.js`);
  const exportsOf: [string, string][] = [...VENDORED.map((v) => [v, v] as [string, string]), [ENGINE_REACT_DOM_SERVER, legacy]];
  const contents = exportsOf.map(([name, spec]) => `Object.defineProperty(module.exports, ${JSON.stringify(name)}, { enumerable: true, get: () => require(${JSON.stringify(spec)}) });`).join('\n');
  const esbuild = fromPackage('esbuild') as typeof import('esbuild');
  fs.mkdirSync(VENDOR_DIR, { recursive: true });
  const { outputFiles } = esbuild.buildSync({
    stdin: { contents, resolveDir: PACKAGE_DIR, sourcefile: 'sitegen-vendor.js', loader: 'js' },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: file, write: false, logLevel: 'silent',
    define: { 'process.env.NODE_ENV': JSON.stringify(env) }, legalComments: 'none',
    // An optional esprima require (older js-yaml) is left to run time.
    external: ['esprima'],
  });
  writeFileAtomicSync(file, outputFiles[0].contents);
  // Bundles of earlier versions are removed after a build (cache/prune.ts).
  return file;
}

/** The folder, beside the worker programs bundled from the sources, of vendorAliases' files. */
export const VENDOR_SHIMS = 'vendored';

/**
 * For a bundle of the engine made with esbuild's synchronous API, which takes no plugins (the worker program
 * bundled from the sources: parallel/pool.ts): each vendored specifier aliased to a file in `dir` that takes
 * the package from the vendor bundle, as bin/vendor-imports.js makes the CLI bundle do. A worker then loads
 * its packages as the CLI's does: one file, with its code cache.
 */
export function vendorAliases(dir: string): Record<string, string> {
  fs.mkdirSync(dir, { recursive: true });
  const loader = path.join(RECIPE_DIR, 'vendor.ts');
  const alias: Record<string, string> = {};
  for (const [spec, name] of [...VENDORED.map((v) => [v, v]), ['react-dom/server', ENGINE_REACT_DOM_SERVER]]) {
    const file = path.join(dir, `${spec.replaceAll('/', '+')}.cjs`);
    writeFileAtomicSync(file, `module.exports = require(${JSON.stringify(loader)}).vendored(${JSON.stringify(name)});\n`);
    alias[spec] = file;
  }
  return alias;
}

let loaded: Record<string, unknown> | null = null;

/**
 * A package of the vendor bundle, by specifier (VENDORED, or ENGINE_REACT_DOM_SERVER). The CLI bundle and
 * lib/ import their packages through this (bin/bundle-plugins.js): the engine and the site module then share
 * one React and one zod, loaded from one file with its code cache.
 */
export function vendored(name: string): unknown {
  const all = (loaded ??= loadTracked(ensureVendor()) as Record<string, unknown>);
  return all[name];
}

// A page's worth of what builds do with the vendored packages: front matter, YAML, a schema, Markdown with
// the common constructs, a React render. Only for the install's code cache (below); its output is unused.
const SAMPLE = [
  '---', 'title: "A page"', 'tags:', '  - one', '  - two', 'count: 3', '---',
  '# Heading', '', 'Prose with *emphasis*, **strong**, `code`, a [link](/a/b/) and https://example.com.', '',
  '## Section', '', '- an item with [a link](https://example.com/x)', '- another item', '', '1. first', '2. second', '',
  '> A quote', '', '| a | b |', '|---|:-:|', '| 1 | 2 |', '', '```js', 'const x = 1;', '```', '', '---', '', 'The end.', '',
].join('\n');

/**
 * Writes <file>.v8cache-install: the code cache of a compiled module after `exercise` has called into it,
 * unless the module has a code cache already (its own, saved by a build, or an earlier install's).
 * compiled.ts loadCompiled takes it on a first load.
 */
export async function saveInstallCodeCache(file: string, exercise: (exports: any) => void): Promise<void> {
  if (fs.existsSync(`${file}.v8cache`) || fs.existsSync(`${file}${INSTALL_CACHE}`)) return;
  await writeFileAtomic(`${file}${INSTALL_CACHE}`, codeCacheAfter(file, exercise));
}

/**
 * Writes the vendor bundle's install code cache (`sitegen prepare`): the bundle is run and the packages are
 * called the way a build calls them, so the first build after `npm ci` does not compile those functions
 * (cold 1,000 pages: config 138–148 → 106–108 ms, content 512–545 → 486–495 ms). The first build then saves
 * a fuller cache of its own (compiled.ts loadCompiled).
 */
export function writeInstallCodeCache(file: string): Promise<void> {
  return saveInstallCodeCache(file, (v) => {
    const yaml = v.yaml, z = v.zod.z, react = v.react;
    for (let i = 0; i < 3; i++) {
      const close = SAMPLE.indexOf('\n---', 3);
      const data = z.strictObject({ title: z.string().min(1), tags: z.array(z.string()), count: z.number().int() }).parse(yaml.parseDocument(SAMPLE.slice(3, close)).toJS());
      const md = new v.marked.Marked({ gfm: true });
      const tokens = md.lexer(SAMPLE.slice(close + 5));
      md.walkTokens(tokens, () => {});
      const html = md.parser(tokens);
      const page = react.createElement('main', null, react.createElement('h1', { id: 'top' }, data.title), react.createElement('ul', null, data.tags.map((t: string) => react.createElement('li', { key: t }, t))), react.createElement('div', { dangerouslySetInnerHTML: { __html: html } }));
      v[ENGINE_REACT_DOM_SERVER].renderToStaticMarkup(page);
    }
  });
}
