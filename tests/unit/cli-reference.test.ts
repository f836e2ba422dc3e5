// The documentation's CLI reference is what the commands' own definitions print: a command or option added,
// renamed or reworded without `node scripts/cli-reference.mjs` fails here.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { cliReference, PAGE } from '../../scripts/cli-reference.mjs';

describe('CLI reference', () => {
  it('docs/content/cli-reference.md is the help every command prints', () => {
    const page = fs.readFileSync(PAGE, 'utf8');
    expect(page).toContain('## sitegen build');
    expect(page).toContain('--drafts');
    expect(page, 'run node scripts/cli-reference.mjs').toBe(cliReference());
  }, 60_000);
});
