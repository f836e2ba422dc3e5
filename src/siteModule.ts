// The site module: the site's sitegen.config.ts (and the templates it imports) compiled with esbuild into
// one module together with the engine's renderer, so island collection and React share one instance;
// imports of the islands folder are wrapped with defineIsland(Name). The jobs live in src/siteModule/:
//   paths.ts    where the engine and the caches are; NODE_ENV; esbuild on first use
//   plugins.ts  esbuild plugins: bare imports → absolute paths or the vendor bundle; island wrapping
//   options.ts  the esbuild options of the server compile (and the islands folder it wraps)
//   vendor.ts   the vendor bundle (React, zod, yaml, marked, gray-matter compiled once per install)
//   loader.ts   importing a compiled module (CommonJS through the shared vm loader, or ESM in dev)
//   cache.ts    the build's cache of compiled modules, by stamps of their inputs
//   build.ts    loadSiteModule: the module for build/check (cache, else compile and remember)
//   dev.ts      createSiteCompiler: the module for dev (one esbuild context kept across compiles)
//   messages.ts esbuild errors and load-time throws as located messages
// For `build` and `check` the module takes the packages every build loads from the vendor bundle (Node's ESM
// loader pays per file; zod alone is ~100 files). Dev mode keeps them external (each template edit imports
// a new module; bundled copies of React would pile up in memory).
export { ENGINE_DIR, PACKAGE_DIR, loadEsbuild } from './siteModule/paths.ts';
export { esbuildMessages } from './siteModule/messages.ts';
export { islandWrapPlugin, externalsPlugin, BUNDLED_PACKAGES } from './siteModule/plugins.ts';
export { siteModuleOptions, DEFAULT_ISLANDS, islandsDirOf } from './siteModule/options.ts';
export { vendorFile, ensureVendor, writeInstallCodeCache } from './siteModule/vendor.ts';
export { importSiteModule, loadCompiled, saveCodeCaches, type SiteModule } from './siteModule/loader.ts';
export { cachedSiteModule, metafileFiles } from './siteModule/cache.ts';
export { loadSiteModule } from './siteModule/build.ts';
export { createSiteCompiler, type SiteCompiler } from './siteModule/dev.ts';
