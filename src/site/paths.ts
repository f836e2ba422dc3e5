// Where the engine and its caches live, and the settings every compile shares (NODE_ENV, esbuild on demand).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as esbuild from 'esbuild';
import { installCachePath } from '../cache/registry.ts';

/** esbuild's JS API, imported on first use (a cached build never needs it: ~40 ms saved). */
export const loadEsbuild = (): Promise<typeof esbuild> => import('esbuild');

/** The package's name in its package.json: how the package folder is told from the folders around it. */
export const PACKAGE_NAME = 'sitegen-islands';

/**
 * The sitegen package folder: the nearest folder at or above `from` whose package.json names this package.
 * One rule for every place this code runs from: the sources (src/site/), the CLI bundle in the
 * package's node_modules/.cache/sitegen/cli/<fingerprint>/, and lib/ of an installed package.
 */
export function packageDirOf(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      if (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name === PACKAGE_NAME) return dir;
    } catch { /* no package.json here, or another one */ }
    if (path.dirname(dir) === dir) throw new Error(`sitegen: no ${PACKAGE_NAME} package folder above ${from}`);
  }
}

export const PACKAGE_DIR = packageDirOf(path.dirname(fileURLToPath(import.meta.url)));
/** The engine's sources (shipped with the package: the client bundle and the compile recipe read them). */
export const ENGINE_DIR = path.join(PACKAGE_DIR, 'src');
/** This folder: its files are the recipe of every compiled module (their stamps are part of cache keys). */
export const RECIPE_DIR = path.join(ENGINE_DIR, 'site');

// Outside the site and inside node_modules, so tsx's loader leaves the module (and its source map) alone.
export const SITEGEN_CACHE = path.join(PACKAGE_DIR, 'node_modules', '.cache', 'sitegen');
export const SERVER_OUTDIR = installCachePath(SITEGEN_CACHE, 'module');
export const VENDOR_DIR = installCachePath(SITEGEN_CACHE, 'vendor');

export const nodeEnv = () => process.env.NODE_ENV ?? 'development';
