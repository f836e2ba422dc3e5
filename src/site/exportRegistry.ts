// exportRegistry: the site's components named across processes. A build that replays an edit (pipeline/replay.ts)
// renders a route the last build recorded without running routes() again, so it must find the route's component
// by a name: the module that defines it and its export ("templates/pages.tsx#Post"). The site module's compile
// appends to each of the site's own TypeScript and JSX modules an import of its own namespace, handed to
// registerExports (a module the engine provides the site, as it provides React: site/provided.ts) under the
// module's absolute path; esbuild keeps one namespace object a module, so a registered export is the very
// function routes() hands out. Nothing of a package is registered, nor a plain .js file (it may be CommonJS, which
// an appended import would turn into another kind of module).
import fs from 'node:fs';
import path from 'node:path';
import type * as esbuild from 'esbuild';

/** The specifier the appended import names (left to the engine's loader: esbuildPlugins.ts PROVIDED). */
export const EXPORT_REGISTRY = 'sitegen-internal:exports';
/** Each site module's namespace by its absolute path, as its last load registered it. */
const modules = new Map<string, Record<string, unknown>>();
export function registerExports(file: string, ns: Record<string, unknown>): void { modules.set(file, ns); }
/** The source files whose exports are registered: the site's TypeScript and JSX. */
const REGISTERED = /\.(?:tsx?|jsx|mts)$/;
const LOADER: Record<string, esbuild.Loader> = { '.ts': 'ts', '.mts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' };

/** The esbuild plugin of the site module's compile that registers each site module's exports. */
export function exportRegistryPlugin(root: string): esbuild.Plugin {
  const base = realBase(root);
  return {
    name: 'sitegen-exports',
    setup(build) {
      build.onLoad({ filter: REGISTERED }, async (args) => {
        if (args.namespace !== 'file' || !args.path.startsWith(base) || args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = await fs.promises.readFile(args.path, 'utf8');
        // (a module without an export has nothing to name; the namespace import of itself is a cycle esbuild allows)
        if (!/\bexport\b/.test(text)) return undefined;
        const self = `./${path.basename(args.path)}`;
        const tail = `\nimport * as __sitegen_self from ${JSON.stringify(self)};\nimport { registerExports as __sitegen_register } from ${JSON.stringify(EXPORT_REGISTRY)};\n__sitegen_register(${JSON.stringify(args.path)}, __sitegen_self);\n`;
        return { contents: text + tail, loader: LOADER[path.extname(args.path)], resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** The root as esbuild names the files below it: its real path (a site reached through a link, a temp folder). */
function realBase(root: string): string {
  let r = path.resolve(root);
  try { r = fs.realpathSync(r); } catch { /* as given */ }
  return `${r}${path.sep}`;
}

/** A map from each export of the site's modules under `root` to its name, for many lookups (exportName's, once). */
export function exportNames(root: string): Map<unknown, string> {
  const out = new Map<unknown, string>();
  const base = realBase(root);
  for (const [file, ns] of modules) {
    if (!file.startsWith(base)) continue;
    const rel = file.slice(base.length).split(path.sep).join('/');
    for (const k of Object.keys(ns)) { const v = ns[k]; if ((typeof v === 'function' || (typeof v === 'object' && v)) && !out.has(v)) out.set(v, `${rel}#${k}`); }
  }
  return out;
}

/** The export a name names, in the site module loaded last for `root`. */
export function exportByName(root: string, name: string): unknown {
  const hash = name.lastIndexOf('#');
  if (hash < 0) return undefined;
  const ns = modules.get(realBase(root) + name.slice(0, hash).split('/').join(path.sep));
  return ns && Object.hasOwn(ns, name.slice(hash + 1)) ? ns[name.slice(hash + 1)] : undefined;
}
