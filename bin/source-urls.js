// The esbuild plugin of the two places that bundle the engine's TypeScript: bin/sitegen.js (the CLI bundle
// in node_modules/.cache/sitegen/cli/) and scripts/build-package.mjs (lib/, for `npm pack`). The engine
// computes paths from import.meta.url (its own folder, the migrations); in a bundle that would name the
// bundle's file. So in each of the project's own sources that uses it, import.meta.url is replaced by the
// JavaScript expression `urlOf(file)` returns for that source: a fixed file URL for the cache bundle, a URL
// relative to the bundle's own for lib/ (which moves with the installed package).
import fs from 'node:fs';
import path from 'node:path';

export function sourceUrls(name, urlOf) {
  return {
    name,
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = fs.readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        return { contents: text.replaceAll('import.meta.url', urlOf(args.path)), loader: path.extname(args.path).slice(1).replace(/^[cm]/, '') };
      });
    },
  };
}
