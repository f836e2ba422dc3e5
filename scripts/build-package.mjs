// Builds what the published package runs (`npm pack`/`npm publish` call it through `prepack`):
//   lib/main.js (+ chunks)  the CLI, bundled once here so an installed package never bundles itself at first run;
//   lib/worker.js           the program of its worker threads (src/parallel/pool.ts finds it beside its chunk);
//   lib/public.js           what `import … from 'sitegen-islands'` gives plain Node scripts;
//   lib/server.js           `sitegen-islands/server`: preview() and dev() for scripts and tests;
//   lib/types/**.d.ts       the types a site's tsc sees (never the engine's .ts sources).
// (Progress goes to stderr: `npm pack --json` prints its report on stdout.)
// The engine finds the package folder from where its code is (src/site/paths.ts), so lib/ needs no
// paths written into it; its packages come from the install's vendor bundle (bin/vendor-imports.js).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import { vendorImports } from '../bin/vendor-imports.js';

const PKG = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const OUT = path.join(PKG, 'lib');

const t0 = performance.now();

function fail(diagnostics) {
  const host = { getCurrentDirectory: () => PKG, getCanonicalFileName: (f) => f, getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnostics(diagnostics, host) || 'sitegen: the declarations could not be emitted\n');
  process.exit(1);
}
fs.rmSync(OUT, { recursive: true, force: true });

await esbuild.build({
  entryPoints: { main: path.join(PKG, 'cli', 'main.ts'), worker: path.join(PKG, 'src', 'parallel', 'workerEntry.ts'), public: path.join(PKG, 'src', 'public.ts'), server: path.join(PKG, 'src', 'server', 'index.ts') },
  // Flat output (chunks beside the entries), so `..` from any output file is the package root.
  bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', chunkNames: '[name]-[hash]',
  packages: 'external', outdir: OUT, logLevel: 'warning', jsx: 'automatic', sourcemap: 'linked', sourcesContent: false,
  plugins: [vendorImports(PKG)],
});

// The declarations only, without type-checking every function body first (what `tsc -p` would do: 40% of
// its time here). `npm run typecheck` is the type check; what declaration emit itself cannot do (a type it
// cannot name, a syntax error) still fails the build, located as tsc would print it.
const config = ts.getParsedCommandLineOfConfigFile(path.join(PKG, 'tsconfig.types.json'), undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) }) ?? fail([]);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
// emit(…, emitOnlyDtsFiles, customTransformers, forceDtsEmit): with both set, TypeScript checks only what the
// declarations need (as its language service does for one file's declarations).
const emitted = program.emit(undefined, undefined, undefined, true, undefined, true);
const problems = [...config.errors, ...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics(), ...emitted.diagnostics]
  .filter((d) => d.category === ts.DiagnosticCategory.Error);
if (problems.length || emitted.emitSkipped) fail(problems);
// tsc keeps the sources' `./x.ts` specifiers; `./x.js` is what every consumer's moduleResolution maps to x.d.ts.
const dts = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? dts(path.join(dir, e.name)) : e.name.endsWith('.d.ts') ? [path.join(dir, e.name)] : []);
for (const f of dts(path.join(OUT, 'types'))) {
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/((?:from|import\()\s*['"])(\.{1,2}\/[^'"]+)\.tsx?(['"])/g, '$1$2.js$3'));
}

console.error(`sitegen: package built into lib/ in ${(performance.now() - t0).toFixed(0)} ms`);
