// Imports a compiled site module: a build's CommonJS one through the shared vm loader (with V8's code
// cache), a dev ESM one by URL. Every caller gets the same SiteModule shape.
import path from 'node:path';
import fsp from 'node:fs/promises';
import Module from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import type { SiteConfig } from '../types.ts';
import type { renderPage as RenderPage, renderAliasPage as RenderAlias } from '../render/document.tsx';
import type * as Engine from '../engine.ts';
import { SERVER_OUTDIR } from './paths.ts';
import { ensureVendor } from './vendor.ts';
import { checkConfig } from '../configSchema.ts';

export interface SiteModule {
  config: SiteConfig;
  renderPage: typeof RenderPage;
  renderAliasPage: typeof RenderAlias;
  /** The content loader and render stage, from the module (so from its bundled packages). */
  engine: typeof Engine;
  /** Every source file the module was built from, relative to the root (for dev-mode invalidation). */
  inputs: string[];
  /** The compiled module's file, which render workers import. */
  file: string;
  /** The vendor bundle a build's module takes its packages from (loaded first, by workers too). */
  vendor?: string;
}

export type SiteBuildResult = esbuild.BuildResult<{ metafile: true; write: false }>;

/** Writes the compiled module beside node_modules and imports it; `file` is where it was written. */
export async function importSiteModule(result: SiteBuildResult): Promise<{ site: SiteModule; file: string }> {
  await fsp.mkdir(SERVER_OUTDIR, { recursive: true });
  let file = '';
  for (const out of result.outputFiles) {
    const to = path.join(SERVER_OUTDIR, path.basename(out.path));
    await fsp.writeFile(to, out.contents);
    if (/\.c?js$/.test(to)) file = to;
  }
  return { site: await importCompiled(file, sourceInputs(result.metafile)), file };
}

/** The metafile's inputs that are the site's or the engine's own files (dev mode watches these). */
function sourceInputs(meta: esbuild.Metafile): string[] {
  return Object.keys(meta.inputs).filter((f) => !f.includes('node_modules') && !f.startsWith('sitegen-island:'));
}

export async function importCompiled(file: string, inputs: string[]): Promise<SiteModule> {
  let vendor: string | undefined;
  if (file.endsWith('.cjs')) { vendor = await ensureVendor(); loadVendor(vendor); }
  const mod = file.endsWith('.cjs') ? loadCompiled(file) : await import(pathToFileURL(file).href);
  // Unknown keys and wrong kinds of value in the config are errors (build, check and dev all load here).
  checkConfig(mod.config);
  return { config: mod.config, renderPage: mod.renderPage, renderAliasPage: mod.renderAliasPage, engine: mod.engine, inputs, file, vendor };
}

/** Code caches still to write: V8's cache is made after the build ran, so it holds the functions it used. */
const codeCaches: (() => void)[] = [];

/** The one loader of compiled CommonJS modules, shared with render workers (parallel/worker.cjs). */
const compiledLoader = Module.createRequire(import.meta.url)('../parallel/worker.cjs') as {
  loadCompiled(file: string): { exports: any; saveCodeCache: (() => void) | null };
};

/** Loads a build's CommonJS module with V8's code cache; a missing or rejected cache is written after the build. */
export function loadCompiled(file: string): any {
  const { exports, saveCodeCache } = compiledLoader.loadCompiled(file);
  if (saveCodeCache) codeCaches.push(saveCodeCache);
  return exports;
}

/** Writes the code caches of modules loaded in this process (after a successful build). */
export function saveCodeCaches(): void {
  for (const save of codeCaches.splice(0)) { try { save(); } catch { /* an optimisation only */ } }
}

/** Loads the vendor bundle (with its code cache) where site modules find it, once per thread. */
export function loadVendor(file: string): void {
  const g = globalThis as { __sitegenVendor?: unknown; __sitegenVendorFile?: string };
  if (g.__sitegenVendorFile === file) return;
  g.__sitegenVendor = loadCompiled(file);
  g.__sitegenVendorFile = file;
}
