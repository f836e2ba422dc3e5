// Where the engine and its caches live, and the settings every compile shares (NODE_ENV, esbuild on demand).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as esbuild from 'esbuild';

/** esbuild's JS API, imported on first use (a cached build never needs it: ~40 ms saved). */
export const loadEsbuild = (): Promise<typeof esbuild> => import('esbuild');

/** The engine's src/ folder (this file is src/siteModule/paths.ts) and the sitegen package around it. */
export const ENGINE_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const PACKAGE_DIR = path.dirname(ENGINE_DIR);
/** This folder: its files are the recipe of every compiled module (their stamps are part of cache keys). */
export const RECIPE_DIR = path.dirname(fileURLToPath(import.meta.url));

// Outside the site and inside node_modules, so tsx's loader leaves the bundle (and its source map) alone;
// every import in it is absolute, so where it lives does not matter.
export const SERVER_OUTDIR = path.join(PACKAGE_DIR, 'node_modules', '.cache', 'sitegen', 'server');
export const VENDOR_DIR = path.join(PACKAGE_DIR, 'node_modules', '.cache', 'sitegen', 'vendor');

export const nodeEnv = () => process.env.NODE_ENV ?? 'development';
