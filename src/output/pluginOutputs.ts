// The plugins' `outputs` hook (src/site/plugins.ts): files a build writes besides pages (feeds, JSON, extra host
// files). One function for both outputs: `sitegen build` writes what it returns into the staging folder,
// `sitegen dev` serves it from memory. Paths are checked here (relative, inside the output folder) and may
// not take a path another file of the site already has.
import type { Message } from '../core/types.ts';
import type { OutputContext, SitegenPlugin } from '../site/plugins.ts';
import { message, thrownBySite } from '../core/errors.ts';
import { shownPath } from '../pipeline/routeTable.ts';

export interface PluginOutputs {
  files: Map<string, string | Uint8Array>;
  errors: Message[];
}

export const hasOutputHooks = (plugins: SitegenPlugin[] | undefined): boolean => !!plugins?.some((p) => p.outputs);

function badPath(p: unknown): string | null {
  if (typeof p !== 'string' || !p) return 'is empty';
  if (p.startsWith('/') || p.includes('\\') || /^[a-z]:/i.test(p)) return 'must be relative to the output folder, with "/" separators';
  if (p.split('/').some((s) => s === '' || s === '.' || s === '..')) return 'must not contain empty, "." or ".." segments';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(p)) return 'must not contain control characters (NUL, newline, tab …)';
  return null;
}

/** The folders of an output path, outermost first ("a/b/c.html" → "a", "a/b"). */
export function foldersOf(file: string): string[] {
  const out: string[] = [];
  for (let i = file.indexOf('/'); i > 0; i = file.indexOf('/', i + 1)) out.push(file.slice(0, i));
  return out;
}

/** Output files and, for each folder they need, the first file that needs it: a file and a folder of the
 *  same name cannot both be written. */
export class OutputPaths {
  readonly files = new Set<string>();
  readonly folders = new Map<string, string>();
  constructor(files: Iterable<string> = []) { for (const f of files) this.add(f); }
  add(file: string): void {
    this.files.add(file);
    for (const d of foldersOf(file)) if (!this.folders.has(d)) this.folders.set(d, file);
  }
  /** Why `file` cannot be written beside these files (a folder of theirs, or inside one's name), or null. */
  inTheWay(file: string): string | null {
    return wayBlocked(file, this.folders.get(file), (d) => this.files.has(d));
  }
}

/** Why `file` cannot be written: `needer` needs a folder of its name, or one of its folders is a file (`isFile`). */
export function wayBlocked(file: string, needer: string | undefined, isFile: (path: string) => boolean): string | null {
  if (needer !== undefined) return `is a file, but the output needs a folder ${file}/ for ${needer}`;
  const inside = foldersOf(file).find(isFile);
  return inside === undefined ? null : `needs a folder ${inside}/ where the output has the file ${inside}`;
}

/** For each of `names` that the files need as a folder, the first file (in the lists' order) that needs it:
 *  OutputPaths' answer for a few names, without a map of every folder of every file (100,000 pages: 466 ms
 *  of a one-file build, against one pass over the files). */
export function firstNeeders(names: ReadonlySet<string>, lists: Iterable<string>[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!names.size) return out;
  for (const list of lists) for (const file of list) {
    for (let i = file.indexOf('/'); i > 0; i = file.indexOf('/', i + 1)) {
      const d = file.slice(0, i);
      if (names.has(d) && !out.has(d)) out.set(d, file);
    }
  }
  return out;
}

/**
 * Runs every plugin's `outputs` hook in order. `taken(path)` names what already writes a path (a page,
 * an asset, a static file), or null; `others` are all those files. A path one of them writes, a file where
 * they need a folder (or inside one's name), a path two plugins return, or an invalid one is an error.
 */
export async function pluginOutputs(plugins: SitegenPlugin[] | undefined, ctx: OutputContext, taken: (path: string) => string | null, others: OutputPaths = new OutputPaths()): Promise<PluginOutputs> {
  const files = new Map<string, string | Uint8Array>();
  const by = new Map<string, string>();
  const mine = new OutputPaths();
  const errors: Message[] = [];
  for (const plugin of plugins ?? []) {
    if (!plugin.outputs) continue;
    let list;
    try {
      list = await plugin.outputs(ctx);
    } catch (e: any) {
      // (located in the site's files when the throw is, with the read-only hint for a write to content)
      errors.push(thrownBySite(e, ctx.root, `plugin "${plugin.name}" failed in its outputs hook`));
      continue;
    }
    if (list !== undefined && list !== null && !Array.isArray(list)) {
      errors.push(message('ConfigError', `plugin "${plugin.name}"'s outputs hook returned ${typeof list === 'object' ? 'an object' : typeof list}, not a list`, null, { hint: 'Return a list of files: [{ path: \'search.json\', contents: JSON.stringify(data) }].' }));
      continue;
    }
    for (const f of list ?? []) {
      const bad = badPath(f?.path);
      if (bad) { errors.push(message('ConfigError', `plugin "${plugin.name}" output path ${shownPath(f?.path)} ${bad}`)); continue; }
      if (f.path.startsWith('assets/')) {
        // (every file there is served as immutable for a year: a plugin's file, changed later, would never be fetched again)
        errors.push(message('ConfigError', `plugin "${plugin.name}" output ${f.path} is under assets/, which holds the build's fingerprinted files, cached by browsers for a year`, null, { hint: 'Write it at another path (data/search.json): a file under assets/ changed later would never be fetched again.' }));
        continue;
      }
      if (typeof f.contents !== 'string' && !(f.contents instanceof Uint8Array)) {
        errors.push(message('ConfigError', `plugin "${plugin.name}" output ${f.path}: contents is ${f.contents === null ? 'null' : Array.isArray(f.contents) ? 'a list' : typeof f.contents}, not text or bytes`, null, { hint: 'Give the file\'s text (JSON.stringify(data) for JSON) or its bytes (a Uint8Array).' }));
        continue;
      }
      const other = by.has(f.path) ? `plugin "${by.get(f.path)}"` : taken(f.path);
      if (other) { errors.push(message('OutputConflict', `plugin "${plugin.name}" writes ${f.path}, which ${other} writes too`)); continue; }
      const blocked = others.inTheWay(f.path) ?? mine.inTheWay(f.path);
      if (blocked) { errors.push(message('OutputConflict', `plugin "${plugin.name}" writes ${f.path}, which ${blocked}`)); continue; }
      mine.add(f.path);
      by.set(f.path, plugin.name);
      files.set(f.path, f.contents);
    }
  }
  return { files, errors };
}
