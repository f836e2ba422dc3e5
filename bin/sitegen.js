#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so there is no separate compile step to remember.
import { register } from 'tsx/esm/api';

// Stack traces from the compiled site module point back into the site's .tsx sources.
process.setSourceMapsEnabled(true);
// React's production build renders about twice as fast; `dev` keeps its development warnings.
process.env.NODE_ENV ??= process.argv[2] === 'dev' ? 'development' : 'production';
register();
await import('../cli/main.ts');
