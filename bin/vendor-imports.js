// The esbuild plugin of the two places that bundle the engine: bin/sitegen.js (the CLI bundle in
// node_modules/.cache/sitegen/cli/) and scripts/build-package.mjs (lib/, for `npm pack`). The packages every
// build loads come from the install's vendor bundle (src/site/vendor.ts: one file with a V8 code
// cache, where Node's loader pays per file), and the site module is handed these same modules
// (src/site/provided.ts): one React and one zod in the process. The list must match vendor.ts VENDORED.
import path from 'node:path';

export const VENDORED = ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'zod', 'yaml', 'js-yaml', 'marked'];
/** The engine renders with React's legacy server build (vendor.ts ENGINE_REACT_DOM_SERVER). */
const ALIASES = { 'react-dom/server': 'react-dom/server (legacy)' };

/** `pkg` is the package folder: the engine's src/site/vendor.ts is bundled in as the one loader. */
export function vendorImports(pkg) {
  const loader = path.join(pkg, 'src', 'site', 'vendor.ts');
  return {
    name: 'sitegen-vendor-imports',
    setup(b) {
      b.onResolve({ filter: /^(react|react-dom|zod|yaml|js-yaml|marked)(\/|$)/ }, (args) => {
        const name = ALIASES[args.path] ?? args.path;
        if (!VENDORED.includes(name) && !Object.values(ALIASES).includes(name)) return undefined;
        return { path: name, namespace: 'sitegen-vendor' };
      });
      b.onLoad({ filter: /.*/, namespace: 'sitegen-vendor' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(loader)}).vendored(${JSON.stringify(args.path)});`,
        loader: 'js', resolveDir: pkg,
      }));
    },
  };
}
