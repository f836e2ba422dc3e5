import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Site code under test (the waitlist plugin) imports the engine by its package name, as a site does.
const engine = fileURLToPath(new URL('./src/public.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: [{ find: /^(sitegen|sitegen-islands)$/, replacement: engine }] },
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
