#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so there is no separate compile step to remember.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
