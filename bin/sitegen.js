#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so there is no separate compile step to remember.
import { register } from 'tsx/esm/api';

// Stack traces from the compiled site module point back into the site's .tsx sources.
process.setSourceMapsEnabled(true);
register();
await import('../cli/main.ts');
