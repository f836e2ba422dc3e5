// defineCollection() keeps a collection's literal types outside defineConfig, and reference() types the
// entry it resolves to (issue 26): tsc on tests/types/authoring.tsx, whose wrong lines carry @ts-expect-error.
import { expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO } from '../helpers/cli.ts';

it('tsc accepts collections declared with defineCollection and typed references, and rejects misuse', () => {
  const r = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tests/types/authoring.tsconfig.json'], { cwd: REPO, encoding: 'utf8' });
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
}, 120_000);
