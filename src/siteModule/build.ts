// The site module for `build` and `check`: from the cache when valid, else compiled (packages from the
// vendor bundle), imported, and remembered.
import path from 'node:path';
import fsp from 'node:fs/promises';
import type { Message } from '../types.ts';
import { loadEsbuild } from './paths.ts';
import { esbuildMessages, loadFailed, noConfig } from './messages.ts';
import { DEFAULT_ISLANDS, islandsDirOf, sameDir, siteModuleOptions } from './options.ts';
import { importCompiled, importSiteModule, loadVendor, type SiteBuildResult, type SiteModule } from './loader.ts';
import { ensureVendor } from './vendor.ts';
import { cachedSiteModule, commandNames, rememberSiteModule, type CacheRecord } from './cache.ts';

/**
 * The site module for a build: from the cache when valid (`hit` is returned with it so the build can say
 * so), else compiled with the packages bundled in and remembered. `cached` is what cachedSiteModule gave.
 */
export async function loadSiteModule(root: string, cached: CacheRecord | null = cachedSiteModule(root)): Promise<{ site?: SiteModule; errors: Message[]; hit?: boolean }> {
  try { await fsp.access(path.join(root, 'sitegen.config.ts')); } catch { return { errors: noConfig(root) }; }
  if (cached) {
    try { return { site: await importCompiled(cached.file, cached.inputs), errors: [], hit: true }; } catch { /* recompile below */ }
  }
  let islandsDir = DEFAULT_ISLANDS;
  let result: SiteBuildResult;
  let imported: Awaited<ReturnType<typeof importSiteModule>>;
  for (;;) {
    try {
      const esbuild = await loadEsbuild();
      const compiling = esbuild.build(siteModuleOptions(root, { bundleDeps: true, islandsDir }));
      compiling.catch(() => {}); // awaited below
      // esbuild compiles in its own process; this thread would only wait. It evaluates the packages the
      // module takes from the vendor bundle meanwhile, which it would otherwise do after (~0.15 s cold).
      await warmVendor();
      result = await compiling;
    } catch (e: any) {
      return { errors: esbuildMessages(e.errors ?? [], root, 'ConfigError') };
    }
    try {
      imported = await importSiteModule(result);
    } catch (e) {
      return { errors: [loadFailed(e, root)] };
    }
    const wanted = islandsDirOf(imported.site.config);
    if (sameDir(root, wanted, islandsDir)) break;
    await fsp.rm(imported.file, { force: true });
    islandsDir = wanted;
  }
  const { site, file } = imported;
  // Remembered only once it imported cleanly.
  await rememberSiteModule(root, { file, inputs: site.inputs, meta: result.metafile, islandsDir, commands: commandNames(site.config) });
  return { site, errors: [] };
}

/** Loads the vendor bundle and evaluates every package in it (its exports are lazy getters: zod for the
 *  config check, React's renderer, and the parsers content needs); never fails a build. */
async function warmVendor(): Promise<void> {
  try {
    loadVendor(await ensureVendor());
    const vendor = (globalThis as { __sitegenVendor?: Record<string, unknown> }).__sitegenVendor ?? {};
    for (const name of Object.keys(vendor)) void vendor[name];
  } catch { /* loaded again, with its error, when the module is imported */ }
}
