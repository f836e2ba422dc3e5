import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { longestFirst } from './tests/helpers/longestFirst.ts';
import { notForVitestProcess, transformCache } from './tests/helpers/transformCache.ts';

// Site code under test (the waitlist plugin) imports the engine by its package name, as a site does.
const engine = fileURLToPath(new URL('./src/public.ts', import.meta.url));

// The unit tests in three projects, each runnable alone (`npx vitest run --project engine`):
//   engine — the engine and the CLI (src/, cli/): every file of tests/unit/ not listed below, so a new
//            test file lands here unless it is named for the site or the benchmarks;
//   site   — the marketing site of this repository and its waitlist plugin (content, forms, PGlite backend);
//   bench  — the benchmark scripts (bench/).
const SITE = [
  'tests/unit/waitlist-*.test.ts',
  'tests/unit/company-content.test.ts',
  'tests/unit/demo-forms.test.ts',
  'tests/unit/launch.test.ts',
  'tests/unit/hostile.test.ts',
  'tests/unit/security3-waitlist.test.ts',
];
const BENCH = [
  'tests/unit/bench-*.test.ts',
];

// vitest applies `--exclude` on the command line to the root config only, not to projects with their own
// exclude list; .ci/run leaves files out that way, so the flag's values are added to every project here.
const cliExclude = process.argv.flatMap((a, i, all) => (a === '--exclude' ? [all[i + 1]!] : a.startsWith('--exclude=') ? [a.slice(10)] : []));
// The same for `--maxWorkers`: vitest takes a project's value before the command line's, and every project
// inherits this file's, so without this the flag changed nothing.
const cliWorkers = process.argv.flatMap((a, i, all) => (a === '--maxWorkers' ? [all[i + 1]!] : a.startsWith('--maxWorkers=') ? [a.slice(13)] : [])).map(Number).find((n) => n > 0);

// The files that take longest, longest first within each project (measured per file), and the order of
// the projects: the engine's, which has the most short files, last (see tests/helpers/longestFirst.ts).
const PROJECTS = ['bench', 'site', 'engine'];
const LONGEST = [
  'waitlist-load',
  'waitlist-http', 'waitlist-db', 'security3-waitlist', 'waitlist-cli', 'waitlist-plugin', 'hostile', 'launch',
  'init-templates', 'package', 'incremental-build', 'security-content', 'parallel', 'md-components-linear',
  'incremental-more', 'images', 'docs-samples', 'markdown-blocks', 'images-more', 'build-lock', 'cold-f',
  'check-types', 'check-parity', 'malformed', 'dev-lazy', 'build-cache', 'dev-stress', 'incremental-g',
  'markdown-base', 'incremental-env', 'markdown', 'security3-tokens', 'pipeline', 'outputs', 'csp-warnings',
  'markdown-plugin', 'scale-f', 'incremental-e', 'images-warm', 'md-components', 'cli-fast',
  'code-cache-import', 'markdown-features-build', 'yaml-fast', 'up-to-date-fast', 'typecheck-reuse',
  'cli-reference', 'cache-registry', 'errors-right', 'security3-dev-parse', 'dev-ondemand', 'recycle',
  'dev-content-cache', 'preview-dev-api', 'write', 'security3-linear', 'incremental-delta', 'scale-more',
  'incremental-fast', 'markdown-text', 'one-engine', 'security3-servers', 'cli-epipe', 'drift',
  'authoring-build', 'fixtures', 'scale-g', 'render-plan', 'hmr', 'authoring-text', 'scale',
];

export default defineConfig({
  resolve: { alias: [{ find: /^(sitegen|sitegen-islands)$/, replacement: engine }] },
  plugins: [notForVitestProcess],
  test: {
    // vitest's default on a 2-core machine is one worker, so files ran one after another while most of
    // them wait on child processes, servers and the disk. Files share no folder they write (each builds a
    // copy of a fixture, or only reads one), so two run at once.
    maxWorkers: cliWorkers ?? 2,
    // Each worker runs its files one after another in one process, which loads the engine, React and zod
    // once instead of once per file (about half a second of CPU per file). The files allow it: none sets
    // process.env, each restores what it spies on, and the one that mocks a module (up-to-date-fast, to
    // compare with commander's own parse) unmocks it and resets the module registry before it ends.
    isolate: false,
    // The TypeScript of the tests and the engine, transformed once and kept on disk between runs
    // (tests/helpers/transformCache.ts): a run after the first skips the transforms (8 files measured:
    // 12.9–13.6 → 10.4–11.9 s of CPU). What the tests run is the same code.
    experimental: transformCache,
    // For the same reason each file starts with the engine's default settings (a build sets them per thread).
    // And the install's module cache loses what finished sites left in it, before the run and during it: every
    // compile stats each entry there that it does not keep (tests/helpers/moduleCache.ts).
    setupFiles: ['tests/helpers/engineDefaults.setup.ts', 'tests/helpers/moduleCacheSweep.setup.ts', 'tests/helpers/scratchDirs.setup.ts'],
    globalSetup: ['tests/helpers/moduleCache.setup.ts'],
    sequence: { sequencer: longestFirst(LONGEST, PROJECTS) },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'engine', include: ['tests/unit/**/*.test.ts'], exclude: [...SITE, ...BENCH, ...cliExclude] } },
      // globalSetup: the empty waitlist database the site's server tests copy (tests/helpers/waitlistTemplate.setup.ts).
      // --liftoff-only: V8 compiles PGlite's WebAssembly (Postgres) once with its baseline compiler and never
      // again with its optimising one, which for a worker's few seconds of queries cost more CPU than it saved
      // (the project: 46.4 and 47.7 s of CPU without, 39.7 and 43.8 with). What the tests check is unchanged.
      { extends: true, test: { name: 'site', execArgv: ['--liftoff-only'], include: SITE, exclude: [...BENCH, ...cliExclude], globalSetup: ['tests/helpers/waitlistTemplate.setup.ts'] } },
      { extends: true, test: { name: 'bench', include: BENCH, exclude: cliExclude } },
    ],
  },
});
