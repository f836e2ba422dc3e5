// The vendor bundle: the packages every build loads, compiled once per installed version.
import path from 'node:path';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import Module from 'node:module';
import { PACKAGE_DIR, RECIPE_DIR, VENDOR_DIR, loadEsbuild, nodeEnv } from './paths.ts';
import { VENDORED, ENGINE_REACT_DOM_SERVER } from './plugins.ts';
import { keyOf, packageVersions, stampFiles, writeFileAtomic } from '../cache/index.ts';

/** The vendor bundle's file for the installed versions and NODE_ENV (it need not exist yet). */
export function vendorFile(): string {
  const versions = packageVersions(PACKAGE_DIR, ['react', 'react-dom', 'scheduler', 'zod', 'yaml', 'marked', 'gray-matter', 'js-yaml']);
  // This file and the plugin list (VENDORED) are the recipe.
  const recipe = stampFiles([path.join(RECIPE_DIR, 'vendor.ts'), path.join(RECIPE_DIR, 'plugins.ts')]);
  const key = keyOf([versions, nodeEnv(), process.version, recipe]);
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
  const { outputFiles } = await esbuild.build({
    stdin: { contents, resolveDir: PACKAGE_DIR, sourcefile: 'sitegen-vendor.js', loader: 'js' },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: file, write: false, logLevel: 'silent',
    define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv()) }, legalComments: 'none',
    // js-yaml (through gray-matter) tries an optional esprima; leave that require to run time.
    external: ['esprima'],
  });
  await writeFileAtomic(file, outputFiles[0].contents);
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
