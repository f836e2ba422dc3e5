// vitest's transform cache (`experimental.fsModuleCache`: each test and engine file transformed once and kept
// on disk, node_modules/.experimental-vitest-cache, by its content), for both vitest configs, without the
// modules of vitest's own process (the globalSetup files and what they import): with those cached, an error
// thrown in a globalSetup was printed as a TypeError from vite's source-map code ("code.charCodeAt is not a
// function") instead of the error itself, and the e2e suite's globalSetup failed to start.
import type { Plugin } from 'vitest/config';

export const transformCache = { fsModuleCache: true } as const;

export const notForVitestProcess: Plugin = {
  name: 'sitegen-transform-cache',
  configureVitest: ({ experimental_defineCacheKeyGenerator: key }) => key(({ environment }) => (environment.name === '__vitest__' ? false : undefined)),
};
