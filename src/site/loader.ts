// Imports a compiled site module (CommonJS, through compiled.ts with V8's code cache for a build's) and
// hands it the engine's own modules for its imports of the engine, React and zod (provided.ts). Every
// caller — build, check, dev, workers — gets the same SiteModule shape, with this engine's renderer.
import path from 'node:path';
import fsp from 'node:fs/promises';
import type * as esbuild from 'esbuild';
import type { SiteConfig } from '../core/types.ts';
import { renderPage, renderAliasPage } from '../render/document.tsx';
import { SERVER_OUTDIR } from './paths.ts';
import { loadCompiled, loadTracked } from './compiled.ts';
import { providedModules } from './provided.ts';
import { checkConfig } from './configSchema.ts';

export interface SiteModule {
  config: SiteConfig;
  /** The engine's renderer (the module holds only the site's code; these are passed with it). */
  renderPage: typeof renderPage;
  renderAliasPage: typeof renderAliasPage;
  /** Every source file the module was built from, relative to the root (for dev-mode invalidation). */
  inputs: string[];
  /** The compiled module's file, which workers load. */
  file: string;
}

export type SiteBuildResult = esbuild.BuildResult<{ metafile: true; write: false }>;

/** Writes the compiled module beside node_modules and imports it; `file` is where it was written. */
export async function importSiteModule(result: SiteBuildResult, opts: { codeCache?: boolean } = {}): Promise<{ site: SiteModule; file: string }> {
  await fsp.mkdir(SERVER_OUTDIR, { recursive: true });
  let file = '';
  // The module and its source map side by side (dev writes them on every template edit).
  await Promise.all(result.outputFiles.map((out) => {
    const to = path.join(SERVER_OUTDIR, path.basename(out.path));
    if (/\.c?js$/.test(to)) file = to;
    return fsp.writeFile(to, out.contents);
  }));
  return { site: importCompiled(file, sourceInputs(result.metafile), opts), file };
}

/** The metafile's inputs that are the site's own files (dev mode watches these). */
function sourceInputs(meta: esbuild.Metafile): string[] {
  return Object.keys(meta.inputs).filter((f) => !f.includes('node_modules') && !f.startsWith('sitegen-island:'));
}

/** Runs a compiled site module (a build's with its code cache, saved after the build) and checks its config. */
export function importCompiled(file: string, inputs: string[], { codeCache = true }: { codeCache?: boolean } = {}): SiteModule {
  const mod = codeCache ? loadTracked(file, { provided: providedModules() }) : loadCompiled(file, { provided: providedModules(), codeCache: false }).exports;
  // Unknown keys and wrong kinds of value in the config are errors (build, check, dev and workers load here).
  checkConfig(mod.config);
  return { config: mod.config, renderPage, renderAliasPage, inputs, file };
}

export { saveCodeCaches } from './compiled.ts';
