// The site module: the site's sitegen.config.ts (and the templates, islands and plugins it imports) compiled
// with esbuild into one CommonJS module holding the site's own code and nothing of the engine. Its imports of
// the engine ("sitegen-islands"), React and zod are answered with the running engine's own modules, so one
// engine instance renders, and the site's hooks and schemas share its React and zod; imports of the islands
// folder are wrapped with defineIsland(Name). The jobs live in src/site/:
//   paths.ts    where the package and the caches are; NODE_ENV; esbuild on first use
//   esbuildPlugins.ts  esbuild plugins: the engine's modules left to the loader, other bare imports →
//               absolute paths; island wrapping
//   options.ts  the esbuild options of the server compile (and the islands folder it wraps)
//   provided.ts the engine's modules the site module is given
//   compiled.ts running a compiled CommonJS file (vm, V8 code cache, the given modules)
//   vendor.ts   the vendor bundle (React, zod, yaml, js-yaml, marked compiled once per install), which the
//               CLI bundle and lib/ take their packages from
//   loader.ts   importing a compiled site module
//   cache.ts    the build's cache of compiled modules, by stamps of their inputs
//   build.ts    loadSiteModule: the module for build/check (cache, else compile and remember)
//   dev.ts      createSiteCompiler: the module for dev (one esbuild context kept across compiles)
//   messages.ts esbuild errors and load-time throws as located messages
// Beside them: plugins.ts (the plugin hooks a site's plugins fill), configSchema.ts (the config's strict
// schema, and the site URL a build uses, checked) and typecheck.ts (`sitegen check`'s type check).
export { ENGINE_DIR, PACKAGE_DIR, SITEGEN_CACHE, loadEsbuild } from './paths.ts';
export { esbuildMessages } from './messages.ts';
export { islandWrapPlugin, externalsPlugin, PROVIDED } from './esbuildPlugins.ts';
export { siteModuleOptions, DEFAULT_ISLANDS, islandsDirOf } from './options.ts';
export { vendorFile, ensureVendor, writeInstallCodeCache } from './vendor.ts';
export { importSiteModule, importCompiled, saveCodeCaches, type SiteModule } from './loader.ts';
export { cachedSiteModule, metafileFiles, tsconfigsOf } from './cache.ts';
export { loadSiteModule } from './build.ts';
export { createSiteCompiler, type SiteCompiler } from './dev.ts';
export { siteUrlFrom } from './configSchema.ts';
