// Dev only: the esbuild plugin that makes a site's React components hot-updatable (React Fast Refresh).
// Each .jsx/.tsx module of the site gets a few lines appended that register its top-level components
// (functions, and memo/forwardRef objects, whose name starts with a capital letter) with the refresh
// runtime under "<file> <name>", so the same component in the next bundle is known as the same one.
// Its signature is the sequence of hook calls in the file: when that changes, the component's state
// cannot carry over and React mounts it afresh. Appended, so the file's own lines keep their numbers
// (the dev bundle's source maps still point at them).
import fs from 'node:fs/promises';
import path from 'node:path';
import { ENGINE_DIR } from '../site/paths.ts';
import type * as esbuild from 'esbuild';

// Line-anchored, no nested quantifiers: linear in the length of the source.
const FUNCTION = /^(?:export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?function[ \t]*([A-Z][\w$]*)/gm;
const BINDING = /^(?:export[ \t]+)?(?:const|let|var)[ \t]+([A-Z][\w$]*)[ \t]*[=:]/gm;
const HOOK = /\buse[A-Z][\w$]*/g;

/** The components a module declares at its top level, as the registration sees them. */
export function componentNames(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(FUNCTION)) names.add(m[1]);
  for (const m of source.matchAll(BINDING)) names.add(m[1]);
  return [...names];
}

/** What the refresh runtime compares between two versions of a module's components. */
export function hookSignature(source: string): string {
  return [...source.matchAll(HOOK)].map((m) => m[0]).join(',');
}

/** The module that holds the refresh runtime's registration functions in the page (one shared chunk). */
const SHARED = path.join(ENGINE_DIR, 'dev', 'hmrShared.ts');

/** The lines appended to a module: registration with the refresh runtime, when the page has one. */
export function registration(source: string, id: string, shared = SHARED): string {
  const names = componentNames(source);
  if (!names.length) return '';
  const list = names.map((n) => `[${JSON.stringify(n)}, typeof ${n} === "undefined" ? undefined : ${n}]`).join(', ');
  return `\nimport { refresh as __sitegenRefresh } from ${JSON.stringify(shared)};`
    + `\n;(() => { const r = __sitegenRefresh; if (!r.register || !r.setSignature) return;`
    + ` for (const [n, v] of [${list}]) if (typeof v === "function" || (v && typeof v === "object")) {`
    + ` r.register(v, ${JSON.stringify(`${id} `)} + n); r.setSignature(v, ${JSON.stringify(hookSignature(source))}); } })();\n`;
}

const LOADERS: Record<string, esbuild.Loader> = { '.jsx': 'jsx', '.tsx': 'tsx' };

/** Appends the registration to every .jsx/.tsx file of the site (not packages, not files outside it). */
export function refreshPlugin(root: string): esbuild.Plugin {
  const base = path.resolve(root);
  return {
    name: 'sitegen-refresh',
    setup(build) {
      build.onLoad({ filter: /\.[jt]sx$/ }, async (args) => {
        const rel = path.relative(base, args.path);
        if (args.namespace !== 'file' || rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep).includes('node_modules')) return undefined;
        const source = await fs.readFile(args.path, 'utf8');
        return { contents: source + registration(source, rel.split(path.sep).join('/')), loader: LOADERS[path.extname(args.path)] };
      });
    },
  };
}
