import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Site code under test (the waitlist plugin) imports the engine by its package name, as a site does.
const engine = fileURLToPath(new URL('./src/public.ts', import.meta.url));

// The files that take longest, longest first. Two files run at once, so the suite ends when the worker that
// drew the long files ends: started last, site.test.ts alone would run on after everything else. vitest
// orders by the previous run's durations only when it has them, which a fresh clone (CI) does not.
const LONGEST = ['site', 'trust', 'company', 'trust-polish', 'pages', 'visitor', 'legal', 'waitlist'];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.indexOf(path.basename(f.moduleId, '.test.ts'));
      return i < 0 ? LONGEST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: { alias: [{ find: /^(sitegen|sitegen-islands)$/, replacement: engine }] },
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // Two files at a time: each waits on Chromium most of the time. They share the one preview server, its
    // database and one Chromium (each file its own pages); waitlist tests sign up with unique addresses and
    // look only at their own rows; files that build a site build a copy or into a folder of their own (two
    // builds of one root take turns, src/buildLock.ts); the built site is only read.
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
  },
});
