// The esbuild plugins of the server compile: bare imports resolved to absolute paths (or to the vendor
// bundle), and imports of island components wrapped with defineIsland.
import path from 'node:path';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import { ENGINE_DIR, PACKAGE_DIR } from './paths.ts';

/** Packages bundled into the module for `build` (pure JS, no files of their own read at run time). */
export const BUNDLED_PACKAGES = new Set(['react', 'react-dom', 'scheduler', 'zod', 'yaml', 'js-yaml', 'marked', 'gray-matter']);
const packageName = (spec: string) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/**
 * The packages every build loads, compiled once per installed version into sitegen's vendor bundle
 * (node_modules/.cache/sitegen/vendor/): a build's site module takes them from it instead of compiling
 * them in (esbuild spent ~250 ms of a site compile on them). Specifier → vendor export. The engine's
 * react-dom/server is React's legacy server build only (renderToString/renderToStaticMarkup).
 */
export const VENDORED = ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'zod', 'yaml', 'js-yaml', 'marked', 'gray-matter'];
export const ENGINE_REACT_DOM_SERVER = 'react-dom/server (legacy)';

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
      // Sites import the engine by its package name (or "sitegen" inside this repository): always its sources,
      // so the site module holds one copy of the engine, never a second one from lib/.
      build.onResolve({ filter: /^(sitegen|sitegen-islands)$/ }, () => ({ path: path.join(ENGINE_DIR, 'public.ts') }));
      if (bundle) {
        build.onLoad({ filter: /.*/, namespace: 'sitegen-vendor' }, (args) => ({
          contents: `module.exports = globalThis.__sitegenVendor[${JSON.stringify(args.path)}];`, loader: 'js',
        }));
      }
      build.onResolve({ filter: /^[^./]|^\.[^./]|^\.\.[^/]/ }, async (args) => {
        if (args.pluginData === 'inner' || args.path.startsWith('node:')) return undefined;
        if (bundle && VENDORED.includes(args.path)) return { path: args.path, namespace: 'sitegen-vendor' };
        if (bundle && args.path === 'react-dom/server' && args.importer.startsWith(ENGINE_DIR + path.sep)) return { path: ENGINE_REACT_DOM_SERVER, namespace: 'sitegen-vendor' };
        // The engine's own imports are not "inside node_modules" even when the package is installed there.
        const fromDependency = args.importer.includes(NODE_MODULES) && !args.importer.startsWith(ENGINE_DIR + path.sep);
        const inline = bundle && (BUNDLED_PACKAGES.has(packageName(args.path)) || fromDependency);
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
