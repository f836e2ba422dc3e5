// The site module for `sitegen dev`: one esbuild context kept across compiles.
import path from 'node:path';
import fsp from 'node:fs/promises';
import type * as esbuild from 'esbuild';
import type { Message } from '../core/types.ts';
import { message } from '../core/errors.ts';
import { loadEsbuild } from './paths.ts';
import { esbuildMessages, loadFailed, noConfig } from './messages.ts';
import { DEFAULT_ISLANDS, islandsDirOf, sameDir, siteModuleOptions } from './options.ts';
import type { ResolveMemo } from './esbuildPlugins.ts';
import { importSiteModule, type SiteBuildResult, type SiteModule } from './loader.ts';

export interface SiteCompiler {
  /** Recompiles what changed since the last call and imports the new module; `filesMoved`: a file was
   *  added or removed since (imports may resolve elsewhere now). */
  compile(opts?: { filesMoved?: boolean }): Promise<{ site?: SiteModule; metafile?: esbuild.Metafile; errors: Message[] }>;
  dispose(): Promise<void>;
}

/**
 * For dev mode: one esbuild context kept across compiles, so a template edit re-reads only changed files.
 * Each compile imports a module under a new content-hashed name (a worker loads it by that name), and deletes
 * the previous file so edits do not pile up in the cache folder.
 */
export async function createSiteCompiler(root: string): Promise<SiteCompiler> {
  const esbuild = await loadEsbuild();
  let islandsDir = DEFAULT_ISLANDS;
  // The plugins' answers to esbuild, kept across rebuilds (esbuildPlugins.ts ResolveMemo).
  const memo: ResolveMemo = new Map();
  let ctx = await esbuild.context(siteModuleOptions(root, { islandsDir, dev: true, memo }));
  let previous: string | null = null;
  let removing: Promise<void> = Promise.resolve();
  return {
    async compile({ filesMoved = false } = {}) {
      if (filesMoved) memo.clear();
      await removing;
      try { await fsp.access(path.join(root, 'sitegen.config.ts')); } catch { memo.clear(); return { errors: noConfig(root) }; }
      for (;;) {
        let result: SiteBuildResult;
        try {
          result = await ctx.rebuild();
        } catch (e: any) {
          memo.clear();
          const errors = esbuildMessages(e.errors ?? [], root, 'ConfigError');
          // A failure without messages (esbuild's service gone) must still count as a failure.
          return { errors: errors.length ? errors : [message('ConfigError', `compiling the site failed: ${e?.message ?? e}`)] };
        }
        let imported;
        try {
          imported = await importSiteModule(result, { codeCache: false });
        } catch (e) {
          memo.clear();
          return { errors: loadFailed(e, root, result.metafile) };
        }
        const { site, file } = imported;
        // Not waited for here (nothing reads it any more), but before the next compile writes.
        if (previous && previous !== file) removing = fsp.rm(previous, { force: true }).catch(() => {});
        previous = file;
        const wanted = islandsDirOf(site.config);
        if (sameDir(root, wanted, islandsDir)) return { site, metafile: result.metafile, errors: [] };
        // The config names another islands folder: a context that wraps that one, and compile again.
        await ctx.dispose();
        islandsDir = wanted;
        memo.clear();
        ctx = await esbuild.context(siteModuleOptions(root, { islandsDir, dev: true, memo }));
      }
    },
    async dispose() { await ctx.dispose(); },
  };
}

