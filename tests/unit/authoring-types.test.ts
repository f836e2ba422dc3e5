// The types a site's code sees, checked by tsc on tests/types/, whose wrong lines carry @ts-expect-error (tsc
// fails on one that is not an error): the config's types (issue 14: typed usage, a missing prop, a wrong prop
// type, an unknown data field; site.config.tsx), and defineCollection() keeping a collection's literal types
// outside defineConfig with reference() typing the entry it resolves to (issue 26), and a Markdown component's
// props typed from its schema (authoring.tsx).
// One tsc run checks both files (the engine's types parsed and checked once); each test reads what it said
// of its own file, and anything it said of no test file (the engine, the tsconfig) fails both.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

const FILES = ['tests/types/site.config.tsx', 'tests/types/authoring.tsx'];
let tsc: { status: number | null; reports: string[] };

// Incremental, as `npm test`'s typecheck (scripts/test.mjs): tsc keeps what it found per file between runs and
// checks again what an edit touches (the engine's types included), its errors a full run's (6.3 → 2.9 s CPU
// when nothing changed). A fresh clone checks everything.
const STATE = path.join(REPO, 'node_modules/.cache/sitegen-tests/authoring-types.tsbuildinfo');

beforeAll(() => {
  const r = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tests/types/tsconfig.json', '--incremental', '--tsBuildInfoFile', STATE], { cwd: REPO, encoding: 'utf8' });
  // Each report is a line `file(line,col): error TS…` and its indented continuation lines.
  const reports = `${r.stdout}${r.stderr}`.split(/\n(?=\S)/).map((s) => s.trimEnd()).filter(Boolean);
  tsc = { status: r.status, reports };
}, 120_000);

/** What tsc said about `file` or about no file of the type tests; and that it exits 0 exactly when it says nothing. */
function reportsFor(file: string): string[] {
  expect(tsc.status === 0, tsc.reports.join('\n')).toBe(tsc.reports.length === 0);
  return tsc.reports.filter((r) => r.startsWith(`${file}(`) || !FILES.some((f) => r.startsWith(`${f}(`)));
}

describe('types', () => {
  it('tsc accepts typed usage and rejects a missing prop, a wrong prop type and an unknown data field', () => {
    expect(reportsFor('tests/types/site.config.tsx')).toEqual([]);
  });
});

it('tsc accepts collections declared with defineCollection and typed references, and rejects misuse', () => {
  expect(reportsFor('tests/types/authoring.tsx')).toEqual([]);
});
