// The esbuild plugins of the server compile: the engine's modules left to the loader (provided.ts), other
// bare imports required by absolute path, and imports of island components wrapped with defineIsland.
import path from 'node:path';
import fs from 'node:fs';
import type * as esbuild from 'esbuild';
import { PACKAGE_DIR } from './paths.ts';
import { EXPORT_REGISTRY } from './exportRegistry.ts';

/**
 * The packages every build loads, compiled once per installed version into sitegen's vendor bundle
 * (node_modules/.cache/sitegen/vendor/, vendor.ts): the CLI bundle and lib/ take them from it (one file with
 * a code cache, where Node's loader pays per file; zod alone is ~100 files). The engine's
 * react-dom/server is React's legacy server build only (renderToString/renderToStaticMarkup).
 */
export const VENDORED = ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'zod', 'yaml', 'js-yaml', 'marked'];
export const ENGINE_REACT_DOM_SERVER = 'react-dom/server (legacy)';

/**
 * Dev: the answers of these plugins' onResolve callbacks, kept across the rebuilds of one esbuild context.
 * esbuild asks again for every import on every rebuild, each question a round trip to this thread and most
 * a second one to esbuild's resolver (about 25 ms of a template edit's rebuild on the real site). An answer
 * depends on which files exist: the dev compiler forgets them all when a file is added or removed, and
 * after a compile that failed.
 */
export type ResolveMemo = Map<string, esbuild.OnResolveResult | null>;

type ResolveCallback = (args: esbuild.OnResolveArgs) => Promise<esbuild.OnResolveResult | undefined>;

/** `cb`, answering from `memo` what it answered before for the same import (a nested resolve is always asked). */
function remembered(memo: ResolveMemo | undefined, name: string, cb: ResolveCallback): ResolveCallback {
  if (!memo) return cb;
  return async (args) => {
    if (args.pluginData !== undefined) return cb(args);
    const key = [name, args.kind, args.namespace, args.importer, args.resolveDir, args.path].join('\0');
    const known = memo.get(key);
    if (known !== undefined) return known ?? undefined;
    const r = await cb(args);
    memo.set(key, r ?? null);
    return r;
  };
}

/** `text` as a regular expression that matches it and nothing else. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `file` is a package's (under a node_modules folder), not the site's own source. */
const inPackage = (file: string) => file.split(path.sep).includes('node_modules');

/**
 * Whether a bare specifier names an installed package, as Node looks for one: a node_modules/<name> in
 * `dir` or a folder above it (or in sitegen's own). A workspace or `npm link` package is installed there
 * as a link whose real path is outside node_modules; a tsconfig `paths` alias is installed nowhere.
 */
function installedPackage(known: Map<string, boolean>): (spec: string, dir: string) => boolean {
  return (spec, dir) => {
    const parts = spec.split('/');
    const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    const key = `${dir}\0${name}`;
    let found = known.get(key);
    if (found === undefined) {
      found = false;
      for (const start of [dir, PACKAGE_DIR]) {
        for (let d = start; !found; d = path.dirname(d)) {
          if (fs.existsSync(path.join(d, 'node_modules', name))) found = true;
          if (path.dirname(d) === d) break;
        }
      }
      if (found) known.set(key, true); // a package installed meanwhile (dev) is found on the next compile
    }
    return found;
  };
}

/** What the island wrapper imports defineIsland from (answered by the loader, provided.ts). */
export const ISLAND_HELPER = 'sitegen:island';
/** Specifiers the site module keeps as they are: the loader gives it the engine's own modules for them. */
export const PROVIDED = new Set(['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'zod', 'sitegen', 'sitegen-islands', ISLAND_HELPER, EXPORT_REGISTRY]);

/**
 * Leaves PROVIDED specifiers to the loader and resolves other bare imports to absolute paths (from the site,
 * else from sitegen's own node_modules; CommonJS builds preferred), required at run time: the module holds
 * the site's own code and nothing else.
 */
export function externalsPlugin(memo?: ResolveMemo): esbuild.Plugin {
  const installed = installedPackage(new Map());
  return {
    name: 'sitegen-externals',
    setup(build) {
      build.onResolve({ filter: /^[^./]|^\.[^./]|^\.\.[^/]/ }, remembered(memo, 'externals', async (args) => {
        if (args.pluginData !== undefined || args.path.startsWith('node:')) return undefined; // a plugin's own resolve
        if (PROVIDED.has(args.path)) return { path: args.path, external: true };
        for (const resolveDir of [args.resolveDir, PACKAGE_DIR]) {
          const r = await build.resolve(args.path, { kind: 'require-call', resolveDir, pluginData: 'inner' });
          if (r.errors.length) continue;
          // A tsconfig `paths` alias (`@/components/Card.tsx`) names the site's own source, not a package:
          // compiled into the module like a relative import (Node could not require a .tsx at run time). A
          // linked package (a workspace's) is still a package, required from where it is.
          if (!inPackage(r.path) && !installed(args.path, args.resolveDir)) return undefined;
          return { path: r.path, external: true };
        }
        return undefined;
      }));
    },
  };
}

/** The files a TypeScript config at `file` extends by a relative path (`"extends": "./tsconfig.base.json"`),
 *  and theirs, that exist; a package's config is the install's. */
export function extendedConfigs(file: string, seen = new Set<string>()): string[] {
  let config: { extends?: unknown };
  try { config = parseTsconfig(fs.readFileSync(file, 'utf8')); } catch { return []; }
  const out: string[] = [];
  for (const e of Array.isArray(config.extends) ? config.extends : [config.extends]) {
    if (typeof e !== 'string' || !e.startsWith('.')) continue;
    const to = path.resolve(path.dirname(file), e.endsWith('.json') ? e : `${e}.json`);
    if (seen.has(to) || seen.size > 16) continue;
    seen.add(to);
    out.push(to, ...extendedConfigs(to, seen));
  }
  return out;
}

/** A TypeScript config's values (JSON with comments and trailing commas); throws when it does not parse. */
const parseTsconfig = (text: string) => JSON.parse(withoutComments(text).replace(/,(\s*[}\]])/g, '$1'));

/** tsconfig.json's text without its comments (it is JSON with comments), read once, strings kept. */
function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') { const start = i; for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++; out += text.slice(start, i + 1); continue; }
    if (c === '/' && text[i + 1] === '/') { while (i < text.length && text[i] !== '\n') i++; out += '\n'; continue; }
    if (c === '/' && text[i + 1] === '*') { const end = text.indexOf('*/', i + 2); i = end < 0 ? text.length : end + 1; continue; }
    out += c;
  }
  return out;
}

/**
 * The bare imports that may name the site's own files: the `paths` keys of the root tsconfig.json, as an
 * esbuild filter (`@/*` → /^@\//). Null when that cannot be known from the file alone (it extends another,
 * sets baseUrl, or does not parse): then every bare import is looked at. No tsconfig.json: none.
 */
function aliasFilter(root: string): RegExp | null | undefined {
  let text: string;
  try { text = fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8'); } catch { return undefined; }
  let config: { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: Record<string, unknown> } };
  try { config = parseTsconfig(text); } catch { return null; }
  if (config.extends !== undefined || config.compilerOptions?.baseUrl !== undefined) return null;
  const keys = Object.keys(config.compilerOptions?.paths ?? {}).filter((k) => !PROVIDED.has(k) && !k.startsWith('sitegen-islands/'));
  if (!keys.length) return undefined;
  return new RegExp(`^(?:${keys.map((k) => (k.endsWith('*') ? escapeRegExp(k.slice(0, -1)) : `${escapeRegExp(k)}$`)).join('|')})`);
}

/** Wraps every import of a file directly inside the islands folder (from a file outside it) with defineIsland. */
export function islandWrapPlugin(islandsDir: string, memo?: ResolveMemo, root?: string): esbuild.Plugin {
  // esbuild resolves symlinks, so compare against the folder's real path (a site may link templates/ in).
  const asWritten = islandsDir;
  try { islandsDir = fs.realpathSync(islandsDir); } catch { /* no islands folder */ }
  const installed = installedPackage(new Map());
  /** Whether an import may name a file directly in the islands folder, read from its text where it can be
   *  (a relative path's folder; a package's name): only those cost a resolve (a round trip to esbuild). */
  const mayBeIsland = (spec: string, resolveDir: string) => {
    if (spec.startsWith('./') || spec.startsWith('../')) {
      const dir = path.dirname(path.resolve(resolveDir, spec));
      return dir === islandsDir || dir === asWritten;
    }
    return path.isAbsolute(spec) || !installed(spec, resolveDir); // an absolute path, or a tsconfig alias
  };
  return {
    name: 'sitegen-islands',
    setup(build) {
      // Only an import that may name an island is looked at (each callback is a round trip from esbuild to this
      // thread). A path reaches a file directly in the folder only by naming the folder (`./islands/Counter.tsx`,
      // `../widgets/Chart.tsx`), by going up into it from a subfolder (`../Counter.tsx`), or absolutely; a bare
      // import only through a tsconfig `paths` alias.
      const names = [...new Set([asWritten, islandsDir].map((d) => escapeRegExp(path.basename(d))))];
      const paths = `(?:^|/)(?:${names.join('|')})/|^(?:\\.\\./)+[^/]*$|^/`;
      const aliases = root === undefined ? null : aliasFilter(root);
      const filter = aliases === null ? /.*/ : new RegExp(aliases === undefined ? paths : `${paths}|${aliases.source}`);
      build.onResolve({ filter }, remembered(memo, 'islands', async (args) => {
        if (args.pluginData !== undefined || args.namespace === 'sitegen-island' || PROVIDED.has(args.path) || args.path.startsWith('node:')) return undefined;
        if (!mayBeIsland(args.path, args.resolveDir)) return undefined;
        const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'island-inner' });
        if (r.errors.length || inPackage(r.path) || path.dirname(r.path) !== islandsDir || path.dirname(args.importer) === islandsDir || /\.client\.[jt]sx?$/.test(r.path)) return undefined;
        return { path: r.path, namespace: 'sitegen-island' };
      }));
      build.onLoad({ filter: /.*/, namespace: 'sitegen-island' }, (args) => {
        const name = path.basename(args.path).replace(/\.[jt]sx?$/, '');
        // An island with a Name.client.ts beside it is enhanced in the browser, not hydrated: no props travel.
        const enhance = ['.ts', '.js'].some((ext) => fs.existsSync(path.join(path.dirname(args.path), `${name}.client${ext}`)));
        return {
          contents: `import C from ${JSON.stringify(args.path)};\nimport { defineIsland } from ${JSON.stringify(ISLAND_HELPER)};\nexport default defineIsland(${JSON.stringify(name)}, C, ${JSON.stringify({ enhance })});\n`,
          loader: 'js',
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}
