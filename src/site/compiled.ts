// The one loader of compiled CommonJS files (the site module, the vendor bundle), on the main thread and in
// workers: the steps of Node's own loader (Module.wrap, a require for the file) through vm.Script, so V8's
// code cache (<file>.v8cache) can be given: it saves compiling the file again on the next run. The module's
// `require` first answers from `provided` (the engine's own modules handed to the site module), then as
// Node would from the file's folder.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import Module from 'node:module';

/** The suffix of the code cache `sitegen prepare` makes for the vendor bundle (vendor.ts). */
export const INSTALL_CACHE = '.v8cache-install';

export interface LoadOptions {
  /** Modules `require` answers by specifier before Node's resolution. */
  provided?: Record<string, unknown>;
  /** Read and return a code cache (false: compile only; dev's modules are loaded once each). */
  codeCache?: boolean;
}

/**
 * Runs a compiled CommonJS file and returns its exports, and, when the code cache was missing or rejected, a
 * function that writes a fresh one (made after the build ran, it holds the functions the build used).
 */
export function loadCompiled(file: string, opts: LoadOptions = {}): { exports: any; saveCodeCache: (() => void) | null } {
  const source = fs.readFileSync(file, 'utf8');
  // Node 20 loses a script's dynamic-import callback when V8 accepts its code cache: every import() in it
  // then throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING (a plugin's lazily imported server, e.g. the
  // waitlist's database, failed to start in a preview that found the cache a check had left). A module
  // that may import() is compiled without one. The test is a plain scan, so a module that only mentions
  // such a call in a string merely compiles without the cache.
  if (opts.codeCache === false || DYNAMIC_IMPORT.test(source)) return { exports: run(file, source, undefined, opts.provided).exports, saveCodeCache: null };
  const cacheFile = `${file}.v8cache`;
  let cachedData: Buffer | undefined;
  // The install's code cache (sitegen prepare, vendor bundle only) serves until a build has saved its own,
  // which holds every function that build used.
  let fromInstall = false;
  try { cachedData = fs.readFileSync(cacheFile); } catch {
    try { cachedData = fs.readFileSync(`${file}${INSTALL_CACHE}`); fromInstall = true; } catch { /* first load */ }
  }
  const { script, exports } = run(file, source, cachedData, opts.provided);
  const stale = !cachedData || script.cachedDataRejected || fromInstall;
  return { exports, saveCodeCache: stale ? () => fs.writeFileSync(cacheFile, script.createCachedData()) : null };
}

/**
 * `import(` with a specifier after it, as a compiled module calls it (`import("/abs/pkg/index.js")`,
 * `import(spec)`), not the `import()` or `import('./X')` that React's messages quote. Linear: the two runs
 * of spaces are split by a fixed "(".
 */
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["`\w$]/;

/** Compiles a CommonJS file's `source` (with `cachedData`, when given) and runs it. */
function run(file: string, source: string, cachedData?: Buffer, provided: Record<string, unknown> = {}) {
  const script = new vm.Script(Module.wrap(source), {
    filename: file, cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const nodeRequire = Module.createRequire(file);
  const require = Object.assign((spec: string) => (Object.hasOwn(provided, spec) ? provided[spec] : nodeRequire(spec)), nodeRequire);
  const mod = { exports: {} as any };
  script.runInThisContext()(mod.exports, require, mod, file, path.dirname(file));
  return { script, exports: mod.exports };
}

/**
 * Runs a compiled CommonJS file without any code cache, lets `exercise` call into it, and returns the code
 * cache of what ran (for `sitegen prepare`: the first build then starts with the packages' common functions
 * compiled).
 */
export function codeCacheAfter(file: string, exercise: (exports: any) => void): Buffer {
  const { script, exports } = run(file, fs.readFileSync(file, 'utf8'));
  exercise(exports);
  return script.createCachedData();
}

/** Code caches still to write: V8's cache is made after the build ran, so it holds the functions it used. */
const pending: (() => void)[] = [];

/** loadCompiled, with a missing or rejected code cache written by saveCodeCaches (after a good build). */
export function loadTracked(file: string, opts: LoadOptions = {}): any {
  const { exports, saveCodeCache } = loadCompiled(file, opts);
  if (saveCodeCache) pending.push(saveCodeCache);
  return exports;
}

/** Writes the code caches of files loaded in this thread (after a successful build). */
export function saveCodeCaches(): void {
  for (const save of pending.splice(0)) { try { save(); } catch { /* an optimisation only */ } }
}
