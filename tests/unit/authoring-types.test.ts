// The types a site's code sees, checked on tests/types/, whose wrong lines carry @ts-expect-error (TypeScript
// fails on one that is not an error): the config's types (issue 14: typed usage, a missing prop, a wrong prop
// type, an unknown data field; site.config.tsx), and defineCollection() keeping a collection's literal types
// outside defineConfig with reference() typing the entry it resolves to (issue 26), and a Markdown component's
// props typed from its schema (authoring.tsx).
// One check covers both files (the engine's types parsed and checked once), in this process: the type check
// `sitegen check` runs (src/site/typecheck.ts), with tests/types/tsconfig.json as it is, so TypeScript's lib
// files another test file of this worker parsed are not parsed again (a tsc process of its own cost 2.9 s of
// CPU). Each test reads what it said of its own file, and anything it said of no test file (the engine, the
// tsconfig) fails both.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '../../src/core/errors.ts';
import { typeCheck } from '../../src/site/typecheck.ts';
import { REPO } from '../helpers/cli.ts';

const FILES = ['site.config.tsx', 'authoring.tsx'];
let checked: { files: number; reports: { file: string | null; text: string }[] };

beforeAll(() => {
  // Without the check's cache: nothing is written into tests/types/.
  const r = typeCheck(path.join(REPO, 'tests/types'), { cache: false });
  if (!r || 'skipped' in r) throw new Error(`no type check ran: ${r ? r.skipped : 'tests/types has no tsconfig.json'}`);
  checked = { files: r.files, reports: r.errors.map((m) => ({ file: m.location?.file ?? null, text: formatMessage(m) })) };
}, 120_000);

/** What the check said about `file` (relative to tests/types/) or about no file of the type tests; and that it
 *  checked both files. */
function reportsFor(file: string): string[] {
  expect(checked.files).toBe(FILES.length);
  return checked.reports.filter((r) => r.file === file || !FILES.includes(r.file ?? '')).map((r) => r.text);
}

describe('types', () => {
  it('TypeScript accepts typed usage and rejects a missing prop, a wrong prop type and an unknown data field', () => {
    expect(reportsFor('site.config.tsx')).toEqual([]);
  });
});

it('TypeScript accepts collections declared with defineCollection and typed references, and rejects misuse', () => {
  expect(reportsFor('authoring.tsx')).toEqual([]);
});
