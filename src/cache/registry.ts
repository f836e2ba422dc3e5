// The registry of sitegen's caches: every cache by name, where it lives, what it holds and how it is kept
// from growing. Plain data with no import of the engine, so any module can ask it for a path (a new cache
// is added here first; tests/unit/cache-registry.test.ts fails on a file a build leaves in the site's
// cache folder that no entry names).
//
// Two roots, on purpose:
// - `site`: <root>/.sitegen/cache/ — what a build of this site made (content, the record of its client
//   bundle, the image sources its Markdown names, the output it replaced, page stamps, type-check state).
//   It goes when the site goes, and deleting it is always safe.
// - `install`: <package>/node_modules/.cache/sitegen/ — the engine's own compiled code (CLI bundle, vendor
//   bundle, worker program), made once per install and shared by every site, the compiled site modules
//   (inside node_modules so tsx's loader leaves them and their source maps alone, and keyed by the site's
//   folder), the client bundles and the image variants, by the contents they were made from (any site with
//   the same finds them, and hosts that keep node_modules between deploys keep them too).
//
// How each stays bounded (`keep`):
// - 'replaced': written whole on every save (write beside, then swap: cache/index.ts), holding only what
//   the last build used, so there is nothing else to remove;
// - 'pruned': cache/prune.ts removes what the current engine or output no longer uses, after a build.
import path from 'node:path';

export type CacheScope = 'site' | 'install';

export interface CacheEntry {
  scope: CacheScope;
  /** Path under its scope's root. */
  path: string;
  /** What it holds and what it is keyed by. */
  what: string;
  keep: 'replaced' | 'pruned';
}

export const CACHES = {
  content: { scope: 'site', path: 'content', keep: 'replaced', what: 'parse results of content files by size and mtime, tagged with the engine and parser versions, and which of them their schema accepted under which site module (content/contentCache.ts, content/validCache.ts)' },
  bodies: { scope: 'site', path: 'bodies', keep: 'pruned', what: 'the HTML of big sites\' Markdown bodies, one file per load batch, read when a page asks; the content cache holds their places (content/diskBody.ts; pruned to the places the saved content cache names when a build ends)' },
  client: { scope: 'site', path: 'client', keep: 'replaced', what: 'the record of the client bundle the site uses now: the plan of islands, CSS and defines, the stamps of its inputs, its manifest and its files in the store by SHA-1 (islands/clientStore.ts)' },
  images: { scope: 'site', path: 'images', keep: 'pruned', what: 'the sources the site\'s Markdown images name (which file a content hash is, and where it is used), with what the output linked at the last prune (images/store.ts, cache/prune.ts)' },
  output: { scope: 'site', path: 'output', keep: 'replaced', what: 'the output the last build replaced, reused as the next staging folder (output/write.ts)' },
  pages: { scope: 'site', path: 'pages.json', keep: 'replaced', what: 'each page of the live output: its inputs and file stamp, for the incremental build (pipeline/pageRecord.ts)' },
  pagesDelta: { scope: 'site', path: 'pages-delta.json', keep: 'replaced', what: 'what the builds that patched the live output changed in pages.json, so a one-file build writes only that (pipeline/pageRecord.ts)' },
  pagesBefore: { scope: 'site', path: 'pages-before.json', keep: 'replaced', what: 'the same for the output the last build replaced, kept as `output` (pipeline/pageRecord.ts)' },
  pagesBeforeDelta: { scope: 'site', path: 'pages-before-delta.json', keep: 'replaced', what: 'the delta of pages-before.json (pipeline/pageRecord.ts)' },
  routes: { scope: 'site', path: 'routes.txt', keep: 'replaced', what: 'a digest of the paths, outputs and aliases of the last route table that passed every check, with the engine that checked it (pipeline/routeCarry.ts)' },
  replay: { scope: 'site', path: 'replay.json', keep: 'replaced', what: 'what the last build\'s routes() read of each Markdown body, a digest of each entry, and which routes show it, so a build after an edit of bodies alone renders those routes without routes() (pipeline/replay.ts)' },
  replayEdited: { scope: 'site', path: 'replay-edited.json', keep: 'replaced', what: 'the Markdown files replayed builds edited since that record was made: their entries are read from the files, not from the record (pipeline/replay.ts)' },
  replayRoutes: { scope: 'site', path: 'replay-routes.jsonl', keep: 'replaced', what: 'those routes, one a line, their entries by file and components by name (pipeline/replayCodec.ts)' },
  build: { scope: 'site', path: 'build.json', keep: 'replaced', what: 'the last build\'s result with the stamps of its inputs and output, so a build with nothing changed returns it at once (pipeline/upToDate.ts)' },
  typecheck: { scope: 'site', path: 'typecheck.tsbuildinfo', keep: 'replaced', what: 'TypeScript\'s incremental state of `sitegen check` (site/typecheck.ts)' },
  module: { scope: 'install', path: 'server', keep: 'pruned', what: 'compiled site modules with their code caches, and a record per site of the stamps they were made from (site/cache.ts)' },
  vendor: { scope: 'install', path: 'vendor', keep: 'pruned', what: 'the vendor bundles per package versions, for builds and for dev (NODE_ENV), with their code caches (site/vendor.ts)' },
  worker: { scope: 'install', path: 'worker', keep: 'pruned', what: 'the worker program bundled from the sources, per state of the sources (parallel/pool.ts)' },
  clientStore: { scope: 'install', path: 'client', keep: 'pruned', what: 'client bundles by their plan relative to the site and the contents of the files they were made from, shared by every site (copies, worktrees, a branch switched back); each output file once, by SHA-1 (islands/clientStore.ts)' },
  imageStore: { scope: 'install', path: 'images', keep: 'pruned', what: 'image variants, one folder per source bytes and settings, a file per width and format, shared by every site; a folder no build has used for 30 days is removed (images/store.ts, cache/prune.ts)' },
  cli: { scope: 'install', path: 'cli', keep: 'replaced', what: 'the CLI bundle per state of cli/ and src/; bin/sitegen.js removes the others when it makes one' },
} as const satisfies Record<string, CacheEntry>;

export type CacheName = keyof typeof CACHES;
export type SiteCacheName = { [K in CacheName]: (typeof CACHES)[K]['scope'] extends 'site' ? K : never }[CacheName];
export type InstallCacheName = Exclude<CacheName, SiteCacheName>;

/** The site's cache folder. */
export const siteCacheRoot = (root: string) => path.join(root, '.sitegen', 'cache');

/** Where a site cache lives for the site at `root`. */
export const siteCachePath = (root: string, name: SiteCacheName) => path.join(siteCacheRoot(root), CACHES[name].path);

/** The site's record of its client bundle (islands/clientStore.ts; read alone by pipeline/upToDate.ts). */
export const clientRecordFile = (root: string) => path.join(siteCachePath(root, 'client'), 'manifest.json');

/** Where an install cache lives under the install's cache folder (site/paths.ts SITEGEN_CACHE). */
export const installCachePath = (installRoot: string, name: InstallCacheName) => path.join(installRoot, CACHES[name].path);
