// What a build reports (BuildResult, one PageReport per page) and what the client bundle hands the
// renderer (AssetManifest).
import type { Message } from './types.ts';
import type { PageTypeRow } from './pageTypes.ts';

export interface PageReport {
  path: string;
  /** The page component's name, to group the size report by page type. */
  type: string;
  output: string;
  islands: string[];
  jsBytes: number;
  jsGzipBytes: number;
}

export interface BuildResult {
  errors: Message[];
  warnings: Message[];
  pages: number;
  /** Pages rendered by this build; the others were kept as the output built on held them (their inputs did
   *  not change). Equal to `pages` without the build caches or without an output to build on. */
  rendered?: number;
  aliases: number;
  assets: number;
  timings: Record<string, number>;
  outDir: string;
  pageReports: PageReport[];
  /** The page reports counted by type, when known without reading them (a build found up to date). */
  pageTypes?: PageTypeRow[];
  notices: string[];
  /** Stages served from the build cache (node_modules/.cache/sitegen): "config", "bundle". */
  cached: string[];
  /** `sitegen check`: the type check of a site with a tsconfig.json (files checked), or why it was skipped. */
  /** The type check (`check`): the root files checked, or with `tsc` (TypeScript 7, run as a process) its
   *  version and files 0 (its report does not count them); or why it was skipped. */
  typecheck?: { files: number; ms: number; tsc?: string } | { skipped: string };
  /** The image pipeline's variants: files in the output, how many were encoded now and how many came from the cache. */
  images?: { files: number; processed: number; cached: number };
  /** The worker pool, when the build used one: its size and the tasks run by type (and how many on the main thread). */
  workers?: { workers: number; tasks: Record<string, { total: number; onMain: number }> };
}

/** What the client bundle gives the renderer: asset URLs per island, and the files to write (src/islands/bundle.ts). */
export interface AssetManifest {
  /** URL of the runtime, or null when the site has no islands. */
  runtime: string | null;
  css: string[];
  /** Island name → URLs of every JS file it needs beyond the runtime (its chunk and shared chunks). */
  islandChunks: Record<string, string[]>;
  /** What React islands need besides their own chunks: React and react-dom (not the runtime). */
  baseChunks: string[];
  /** Islands hydrated with React (the others are Name.client.ts enhancements). */
  reactIslands: string[];
  /** Output files: path relative to the out dir → bytes. */
  files: Map<string, Uint8Array>;
  islands: string[];
  /** The gzipped size of each JavaScript file of `files`, when the bundle counted them (islands/gzipSizes.ts). */
  gzipBytes?: Record<string, number>;
}
