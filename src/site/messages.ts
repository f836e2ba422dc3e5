// Turns what goes wrong while compiling or loading the site module into located user messages.
import fs from 'node:fs';
import path from 'node:path';
import { isBuiltin } from 'node:module';
import type * as esbuild from 'esbuild';
import type { Message } from '../core/types.ts';
import { fileLocation, message, thrownBySite } from '../core/errors.ts';
import { ConfigInvalid, configMessages } from './configSchema.ts';

/**
 * esbuild's errors as located messages. Compiling the site module (`ConfigError`), an error in a file
 * other than sitegen.config.ts is the template's (or other module's) own: a TemplateSyntaxError there.
 */
export function esbuildMessages(list: esbuild.Message[], root: string, id: 'BundleError' | 'ConfigError' = 'BundleError', workingDir = process.cwd(), islands: readonly string[] = []): Message[] {
  return list.map((m) => {
    const island = islandExportMessage(m, root, workingDir);
    if (island) return island;
    const location = m.location ? {
      // esbuild names files relative to its working directory (absWorkingDir: the site for client bundles,
      // else this process's), not the site root.
      file: path.relative(root, path.resolve(workingDir, m.location.file)).split(path.sep).join('/'),
      line: m.location.line, column: m.location.column + 1, lineText: m.location.lineText,
    } : null;
    const inModule = id === 'ConfigError' && location && location.file !== 'sitegen.config.ts' && !location.file.startsWith('../') && !location.file.includes('node_modules/');
    // A module of Node's in the browser's bundle (an island that imports fs): no package to install.
    const builtin = id === 'BundleError' ? /^Could not resolve "([^"]+)"/.exec(m.text)?.[1] : undefined;
    if (builtin && (builtin.startsWith('node:') || isBuiltin(builtin))) {
      const m2 = message(id, m.text, location, { hint: `${builtin} is part of Node, and an island runs in the browser, which has no ${builtin}: read what the island needs on the server (in routes() or a template) and hand it to the island as a prop.` });
      // A module the islands import, not an island: which islands bring it into the browser's bundle.
      const file = location && path.resolve(root, location.file);
      if (file && !islands.includes(file)) for (const isl of islandsImporting(islands, file)) m2.notes.push({ text: `imported by the island ${path.relative(root, isl).split(path.sep).join('/')}`, location: null });
      return m2;
    }
    return message(inModule ? 'TemplateSyntaxError' : id, m.text, location);
  });
}

// A relative import in a module's text: `from './x'`, `import './x'`, `import('./x')`. Linear: the space after
// the word goes to one run, the space after a "(" to another (two runs side by side split a long space two ways).
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*(?:\(\s*)?['"](\.{1,2}\/[^'"\n]{1,200})['"]/g;
const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '/index.ts', '/index.tsx', '/index.js'];

/** The islands whose relative imports reach `file` (a helper module), read from their text; a few levels deep. */
function islandsImporting(islands: readonly string[], file: string): string[] {
  const importsOf = (from: string): string[] => {
    let text = '';
    try { text = fs.readFileSync(from, 'utf8'); } catch { return []; }
    return [...text.matchAll(RELATIVE_IMPORT)].flatMap((m) => {
      const base = path.resolve(path.dirname(from), m[1]!);
      const found = EXTENSIONS.map((e) => base + e).find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
      return found ? [found] : [];
    });
  };
  return islands.filter((island) => {
    const seen = new Set<string>([island]);
    let layer = [island];
    for (let depth = 0; depth < 6 && layer.length; depth++) {
      const next = layer.flatMap(importsOf).filter((f) => !seen.has(f));
      if (next.includes(file)) return true;
      for (const f of next) seen.add(f);
      layer = next;
    }
    return false;
  }).slice(0, 5);
}

const ISLAND_NS = 'sitegen-island:';

/**
 * An island is the default export of its file (the wrapper esbuildPlugins.ts makes imports it as such):
 * esbuild's "No matching export" about the wrapper's code, or about a named import of an island, said in
 * those words, at the island's file or at the import.
 */
function islandExportMessage(m: esbuild.Message, root: string, workingDir: string): Message | null {
  if (!m.text.startsWith('No matching export in "') || !m.location) return null;
  const at = m.location.file.indexOf(ISLAND_NS);
  const named = m.text.indexOf(`"${ISLAND_NS}`);
  const abs = at >= 0 ? m.location.file.slice(at + ISLAND_NS.length) : named >= 0 ? m.text.slice(named + 1 + ISLAND_NS.length, m.text.indexOf('"', named + 1)) : null;
  if (!abs) return null;
  const rel = path.relative(root, abs).split(path.sep).join('/');
  const name = path.basename(abs).replace(/\.[jt]sx?$/, '');
  const hint = `An island is its file's default export: export default function ${name}(…) in ${rel}, imported as import ${name} from '…/${path.basename(abs)}'.`;
  if (at >= 0) return message('TemplateSyntaxError', 'an island needs a default export, and this file has none', fileLocation(rel), { hint });
  const file = path.relative(root, path.resolve(workingDir, m.location.file)).split(path.sep).join('/');
  return message('TemplateSyntaxError', `${rel} is an island: import its default export, not a named one`, { file, line: m.location.line, column: m.location.column + 1, lineText: m.location.lineText }, { hint });
}

/** The module compiled but threw while its top level ran (the config or a template module): a user error.
 *  With the compile's metafile, a cycle among the site's own modules is named in a note: a value read while
 *  the cycle loads is not ready yet, and the throw says only what that caused. */
export function loadFailed(e: unknown, root: string, meta?: esbuild.Metafile): Message[] {
  if (e instanceof ConfigInvalid) return configMessages(e, root);
  const m = thrownBySite(e, root, 'loading sitegen.config.ts failed');
  const cycle = meta && importCycle(meta, root);
  if (cycle) m.notes.push({ text: `these modules import each other, so one runs before what it imports from the other is ready: ${cycle.join(' → ')}`, location: null });
  return [m];
}

/** The first cycle of imports among the site's own files (relative to the root), or null. Each file is
 *  visited once: linear in the imports. */
function importCycle(meta: esbuild.Metafile, root: string): string[] | null {
  const own = (f: string) => !f.includes('node_modules') && !/^[a-z-]+:/.test(f) && f !== '<stdin>';
  const state = new Map<string, 1 | 2>(); // 1: on the current path, 2: done
  const stack: string[] = [];
  const visit = (f: string): string[] | null => {
    state.set(f, 1);
    stack.push(f);
    for (const i of meta.inputs[f]?.imports ?? []) {
      if (!own(i.path) || !meta.inputs[i.path]) continue;
      const s = state.get(i.path);
      if (s === 1) return [...stack.slice(stack.indexOf(i.path)), i.path];
      if (s === undefined) { const c = visit(i.path); if (c) return c; }
    }
    stack.pop();
    state.set(f, 2);
    return null;
  };
  for (const f of Object.keys(meta.inputs)) {
    if (!own(f) || state.has(f)) continue;
    const c = visit(f);
    if (c) return c.map((x) => path.relative(root, path.resolve(x)).split(path.sep).join('/'));
  }
  return null;
}

export const noConfig = (root: string) => [message('ConfigError', `No sitegen.config.ts in ${root}`, null, { hint: 'Run sitegen in a site folder or pass --root.' })];
