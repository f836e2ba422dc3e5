import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { longestFirst } from './tests/helpers/longestFirst.ts';
import { notForVitestProcess, transformCache } from './tests/helpers/transformCache.ts';

// Site code under test (the waitlist plugin) imports the engine by its package name, as a site does.
const engine = fileURLToPath(new URL('./src/public.ts', import.meta.url));

// The files that take longest, longest first (measured per file; see tests/helpers/longestFirst.ts).
const LONGEST = ['trust', 'site', 'docs', 'init-templates', 'pages', 'visitor', 'site-hybrid', 'site-brick-and-mortar', 'legal', 'trust-polish', 'waitlist', 'site-online', 'company', 'outputs', 'demo', 'widgets'];

export default defineConfig({
  resolve: { alias: [{ find: /^(sitegen|sitegen-islands)$/, replacement: engine }] },
  plugins: [notForVitestProcess],
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // Three files at a time: each waits on Chromium much of the time, and in `npm test` the suite runs
    // alone after the unit tests. (CPU measured in a cgroup, Chromium's renderers included, which `time`
    // leaves out: about 520 s of CPU for the suite on a busy 2-core machine, so both cores are kept busy.) They share the one preview server, its
    // database and one Chromium (each file its own pages); waitlist tests sign up with unique addresses and
    // look only at their own rows; files that build a site build a copy or into a folder of their own (two
    // builds of one root take turns, src/pipeline/buildLock.ts); the built site is only read.
    fileParallelism: true,
    maxWorkers: 3,
    // A worker runs file after file with the modules it has loaded (Playwright, the engine, the helpers)
    // instead of a fresh process per file: measured, 23 s less CPU for the suite (78 → 55 s in the vitest
    // processes), the same 336 tests passing. So a file must leave process-wide state as it found it:
    // restore what it spies on or stubs (vi.restoreAllMocks, vi.unstubAllEnvs), close its servers and watchers.
    isolate: false,
    // The TypeScript transformed once and kept on disk between runs (tests/helpers/transformCache.ts).
    experimental: transformCache,
    sequence: { sequencer: longestFirst(LONGEST) },
  },
});
