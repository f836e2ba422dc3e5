// @ts-check
// The render worker's entry file, and the one loader of compiled CommonJS site modules (the main thread
// loads through it too, via siteModule's loadCompiled). Plain CommonJS, so a worker thread starts it
// without a TypeScript loader. A build's site module is loaded through vm.Script with V8's code cache
// (<file>.v8cache) when there is one, which saves compiling it (~25 ms of ~50 for the bench site's 1.5 MB):
// the same steps as Node's own loader (Module.wrap, a require for the file).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');
const { isMainThread, parentPort, workerData } = require('node:worker_threads');

/**
 * Runs a compiled CommonJS module and returns its exports, and, when the code cache was missing or
 * rejected, a function that writes a fresh one (made after the build ran, it holds the functions it used).
 * @param {string} file
 * @returns {{ exports: any, saveCodeCache: (() => void) | null }}
 */
function loadCompiled(file) {
  const cacheFile = `${file}.v8cache`;
  const source = fs.readFileSync(file, 'utf8');
  // Node 20 loses a script's dynamic-import callback when V8 accepts its code cache: every import() in it
  // then throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING (a plugin's lazily imported server, e.g. the
  // waitlist's database, failed to start in a preview that found the cache a check had left). A module
  // that may import() is compiled without one. The test is a plain scan, so a module that only mentions
  // such a call in a string merely compiles without the cache.
  if (DYNAMIC_IMPORT.test(source)) return { exports: run(file, source).exports, saveCodeCache: null };
  /** @type {Buffer | undefined} */
  let cachedData;
  // The install's code cache (sitegen prepare, vendor bundle only) serves until a build has saved its own,
  // which holds every function that build used.
  let fromInstall = false;
  try { cachedData = fs.readFileSync(cacheFile); } catch {
    try { cachedData = fs.readFileSync(`${file}${INSTALL_CACHE}`); fromInstall = true; } catch { /* first load */ }
  }
  const { script, exports } = run(file, source, cachedData);
  const stale = !cachedData || script.cachedDataRejected || fromInstall;
  return { exports, saveCodeCache: stale ? () => fs.writeFileSync(cacheFile, script.createCachedData()) : null };
}

/**
 * `import(` with a specifier after it, as a compiled module calls it (`import("/abs/pkg/index.js")`,
 * `import(spec)`), not the `import()` or `import('./X')` that React's messages quote. Linear: the two runs
 * of spaces are split by a fixed "(".
 */
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["`\w$]/;

/**
 * Compiles a CommonJS module (with `cachedData`, when given) and runs it: the steps of Node's own loader.
 * @param {string} file
 * @param {string} source
 * @param {Buffer} [cachedData]
 */
function run(file, source, cachedData) {
  const script = new vm.Script(Module.wrap(source), {
    filename: file, cachedData,
    // @ts-ignore Node 20.19+ has the constant; older versions take the function
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ?? ((/** @type {string} */ spec) => import(spec)),
  });
  const mod = { exports: /** @type {any} */ ({}) };
  script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  return { script, exports: mod.exports };
}

/** The suffix of the code cache `sitegen prepare` makes for the vendor bundle (siteModule/vendor.ts). */
const INSTALL_CACHE = '.v8cache-install';

/**
 * Runs a compiled CommonJS module without any code cache, lets `exercise` call into it, and returns the code
 * cache of what ran (for `sitegen prepare`: the first build then starts with the packages' common functions
 * compiled).
 * @param {string} file
 * @param {(exports: any) => void} exercise
 * @returns {Buffer}
 */
function codeCacheAfter(file, exercise) {
  const { script, exports } = run(file, fs.readFileSync(file, 'utf8'));
  exercise(exports);
  return script.createCachedData();
}

/** A build's module is CommonJS (code cache); a dev module is ESM, imported by URL. */
const load = (/** @type {string} */ file, /** @type {string} */ url) => (file.endsWith('.cjs') ? Promise.resolve(loadCompiled(file).exports) : import(url));

// In a pool worker: wait for the module to import (pool.load), then run its workerMain (parallel/batch.ts).
if (!isMainThread && workerData?.sitegenWorker) {
  // The engine settings the pool was started with (src/settings.ts keeps them here).
  /** @type {any} */ (globalThis).__sitegenSettings = workerData.settings;
  parentPort?.once('message', async (/** @type {{ file: string, module: string, vendor?: string }} */ m) => {
    // What a build's module takes its packages from (siteModule.ts vendor bundle), loaded first.
    if (m.vendor) /** @type {any} */ (globalThis).__sitegenVendor = await load(m.vendor, m.vendor);
    const mod = await load(m.file, m.module);
    mod.workerMain(parentPort, mod.config);
  });
}

module.exports = { loadCompiled, codeCacheAfter, INSTALL_CACHE };
