// The plugins' `outputs` hook (src/plugins.ts): files a build writes besides pages (feeds, JSON, extra host
// files). One function for both outputs: `sitegen build` writes what it returns into the staging folder,
// `sitegen dev` serves it from memory. Paths are checked here (relative, inside the output folder) and may
// not take a path another file of the site already has.
import type { Message } from '../types.ts';
import type { OutputContext, SitegenPlugin } from '../plugins.ts';
import { message } from '../errors.ts';
import { shownPath } from '../route.ts';

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

/**
 * Runs every plugin's `outputs` hook in order. `taken(path)` names what already writes a path (a page,
 * an asset, a static file), or null; such a path, a path two plugins return, or an invalid one is an error.
 */
export async function pluginOutputs(plugins: SitegenPlugin[] | undefined, ctx: OutputContext, taken: (path: string) => string | null): Promise<PluginOutputs> {
  const files = new Map<string, string | Uint8Array>();
  const by = new Map<string, string>();
  const errors: Message[] = [];
  for (const plugin of plugins ?? []) {
    if (!plugin.outputs) continue;
    let list;
    try {
      list = await plugin.outputs(ctx);
    } catch (e: any) {
      errors.push(message('ConfigError', `plugin "${plugin.name}" failed in its outputs hook: ${e?.message ?? e}`));
      continue;
    }
    for (const f of list ?? []) {
      const bad = badPath(f?.path);
      if (bad) { errors.push(message('ConfigError', `plugin "${plugin.name}" output path ${shownPath(f?.path)} ${bad}`)); continue; }
      const other = by.has(f.path) ? `plugin "${by.get(f.path)}"` : taken(f.path);
      if (other) { errors.push(message('OutputConflict', `plugin "${plugin.name}" writes ${f.path}, which ${other} writes too`)); continue; }
      by.set(f.path, plugin.name);
      files.set(f.path, f.contents);
    }
  }
  return { files, errors };
}
