// defineCollection() keeps a collection's literal types outside defineConfig, and reference() types the
// entry it resolves to (issue 26): tsc (in process) on tests/types/authoring.tsx, whose wrong lines carry @ts-expect-error.
import { expect, it } from 'vitest';
import path from 'node:path';
import { REPO } from '../helpers/cli.ts';
import { tscErrors } from '../helpers/tsc.ts';

it('tsc accepts collections declared with defineCollection and typed references, and rejects misuse', () => {
  expect(tscErrors(path.join(REPO, 'tests/types/authoring.tsconfig.json'))).toBe('');
}, 120_000);
