// Turns what goes wrong while compiling or loading the site module into located user messages.
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
export function esbuildMessages(list: esbuild.Message[], root: string, id: 'BundleError' | 'ConfigError' = 'BundleError', workingDir = process.cwd()): Message[] {
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
      return message(id, m.text, location, { hint: `${builtin} is part of Node, and an island runs in the browser, which has no ${builtin}: read what the island needs on the server (in routes() or a template) and hand it to the island as a prop.` });
    }
    return message(inModule ? 'TemplateSyntaxError' : id, m.text, location);
  });
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

/** The module compiled but threw while its top level ran (the config or a template module): a user error. */
export const loadFailed = (e: unknown, root: string): Message[] => e instanceof ConfigInvalid ? configMessages(e, root) : [thrownBySite(e, root, 'loading sitegen.config.ts failed')];

export const noConfig = (root: string) => [message('ConfigError', `No sitegen.config.ts in ${root}`, null, { hint: 'Run sitegen in a site folder or pass --root.' })];
