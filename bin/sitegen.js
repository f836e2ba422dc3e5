#!/usr/bin/env node
// The `sitegen` command. An installed package runs lib/main.js, built by scripts/build-package.mjs at
// `npm pack` (it ships no cli/ sources). In this repository the CLI is TypeScript (cli/, src/); rather than
// compiling it on every start through a loader (tsx cost ~0.3 s per run), it is bundled once with esbuild into
// node_modules/.cache/sitegen/cli/<fingerprint>/ and that plain JS is imported. The fingerprint covers the
// path, size and mtime of every source file, so an edit to the engine rebuilds the bundle on the next run
// (~0.2 s); nothing needs to be remembered. If the bundle cannot be made (read-only install, no esbuild),
// the sources run through tsx as before. SITEGEN_TSX=1 forces that path.
import fs from 'node:fs';
import v8 from 'node:v8';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Stack traces point back into the TypeScript sources — except for a build or check, where Node would
// parse a megabyte of source map at every start (~15 ms); their template errors are mapped by errors.ts.
if (!['build', 'check'].includes(process.argv[2]) || process.env.SITEGEN_DEBUG) process.setSourceMapsEnabled(true);
// React's production build renders about twice as fast; `dev` keeps its development warnings.
process.env.NODE_ENV ??= process.argv[2] === 'dev' ? 'development' : 'production';

// A build's V8 flags: none. V8 refuses a code cache made under other flags than the loading process's, so
// `check` and `prepare` (which makes the vendor bundle's code cache for the first build, src/site/vendor.ts) would
// share any flag a build set here. The old generation's growth is set while a build runs, by the size of its
// content (src/core/heap.ts: V8's own growth is the fastest; a big content grows slowly, for its peak memory).
// Only flags V8 reads after start-up work from here: the young generation's size is fixed when the heap is
// made, so `--max-semi-space-size` set at this point changes nothing (measured with v8.getHeapSpaceStatistics).
// (tests/unit/package.test.ts checks that the install's code cache is taken under these flags.)
const BUILD_FLAGS = [];
if (['build', 'check', 'prepare'].includes(process.argv[2])) for (const flag of BUILD_FLAGS) v8.setFlagsFromString(flag);

const PKG = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SOURCES = ['cli', 'src'];
const SOURCE_FILE = /\.(ts|tsx|js|mjs|css)$/;

function fingerprint() {
  // One text hashed at once; names joined as read, sorted by plain comparison (this runs at every start).
  let text = '';
  const walk = (dir) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const p = dir + path.sep + e.name;
      if (e.isDirectory()) walk(p);
      else if (SOURCE_FILE.test(e.name)) { const s = fs.statSync(p); text += `${p}\0${s.size}\0${s.mtimeMs}\n`; }
    }
  };
  for (const d of SOURCES) walk(path.join(PKG, d));
  return createHash('sha1').update(text).update(process.version).digest('hex').slice(0, 16);
}

async function compiled() {
  if (process.env.SITEGEN_TSX === '1') return null;
  const cacheDir = path.join(PKG, 'node_modules', '.cache', 'sitegen', 'cli');
  const dir = path.join(cacheDir, fingerprint());
  const main = path.join(dir, 'main.js');
  if (fs.existsSync(main)) return main;
  try {
    const esbuild = await import('esbuild');
    const { vendorImports } = await import('./vendor-imports.js');
    const tmp = `${dir}.tmp-${process.pid}`;
    await esbuild.build({
      // The engine once: the CLI, and the program of its worker threads (src/parallel/pool.ts finds
      // worker.js beside its own chunk). Both find the package folder from where they are (site/paths.ts).
      entryPoints: { main: path.join(PKG, 'cli', 'main.ts'), worker: path.join(PKG, 'src', 'parallel', 'workerEntry.ts') },
      bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20',
      packages: 'external', outdir: tmp, sourcemap: 'linked', logLevel: 'silent', jsx: 'automatic',
      plugins: [vendorImports(PKG)],
    });
    try { fs.renameSync(tmp, dir); } catch { fs.rmSync(tmp, { recursive: true, force: true }); } // another process won
    for (const old of fs.readdirSync(cacheDir)) {
      if (old !== path.basename(dir) && !old.includes('.tmp-')) fs.rmSync(path.join(cacheDir, old), { recursive: true, force: true });
    }
    return fs.existsSync(main) ? main : null;
  } catch (e) {
    // A compile error in the engine's sources is a bug worth seeing; a read-only install is not.
    if (e?.errors?.length || process.env.SITEGEN_DEBUG) process.stderr.write(`sitegen: could not bundle the CLI, running it through tsx (slower): ${e?.message ?? e}\n`);
    return null;
  }
}

// The repository's sources win over a lib/ left behind by `npm pack`, so an edit is never hidden by it.
const shipped = path.join(PKG, 'lib', 'main.js');
const main = !fs.existsSync(path.join(PKG, 'cli', 'main.ts')) && fs.existsSync(shipped) ? shipped : await compiled();
if (main) {
  await import(pathToFileURL(main).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/main.ts');
}
