// The site module for `build` and `check`: from the cache when valid, else compiled, imported, and remembered.
import path from 'node:path';
import fsp from 'node:fs/promises';
import type { Message } from '../core/types.ts';
import { loadEsbuild } from './paths.ts';
import { esbuildMessages, loadFailed, noConfig } from './messages.ts';
import { DEFAULT_ISLANDS, islandsDirOf, sameDir, siteModuleOptions } from './options.ts';
import { importCompiled, importSiteModule, type SiteBuildResult, type SiteModule } from './loader.ts';
import { cachedSiteModule, commandNames, rememberSiteModule, type CacheRecord } from './cache.ts';

/**
 * The site module for a build: from the cache when valid (`hit` is returned with it so the build can say
 * so), else compiled and remembered. `cached` is what cachedSiteModule gave.
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
      result = await esbuild.build(siteModuleOptions(root, { islandsDir }));
    } catch (e: any) {
      return { errors: esbuildMessages(e.errors ?? [], root, 'ConfigError') };
    }
    try {
      imported = await importSiteModule(result);
    } catch (e) {
      return { errors: loadFailed(e, root, result.metafile) };
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
