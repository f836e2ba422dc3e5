import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { longestFirst } from './tests/helpers/longestFirst.ts';

// Site code under test (the waitlist plugin) imports the engine by its package name, as a site does.
const engine = fileURLToPath(new URL('./src/public.ts', import.meta.url));

// The files that take longest, longest first (measured per file; see tests/helpers/longestFirst.ts).
const LONGEST = ['site', 'trust', 'docs', 'init-templates', 'pages', 'visitor', 'legal', 'trust-polish', 'waitlist', 'company', 'outputs', 'demo', 'widgets'];

export default defineConfig({
  resolve: { alias: [{ find: /^(sitegen|sitegen-islands)$/, replacement: engine }] },
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // Three files at a time: each waits on Chromium most of the time (two files kept about one core of two
    // busy: 262 s of CPU in a 285 s run), and in `npm test` the suite ends alone after the unit tests that
    // ran beside it. They share the one preview server, its
    // database and one Chromium (each file its own pages); waitlist tests sign up with unique addresses and
    // look only at their own rows; files that build a site build a copy or into a folder of their own (two
    // builds of one root take turns, src/pipeline/buildLock.ts); the built site is only read.
    fileParallelism: true,
    maxWorkers: 3,
    sequence: { sequencer: longestFirst(LONGEST) },
  },
});
