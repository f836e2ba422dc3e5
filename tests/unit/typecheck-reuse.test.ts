// `sitegen check` reuses the declaration files it parsed for an earlier check in the same process, and only
// while they are unchanged: an edit to a .d.ts between two checks is seen by the second, even one that keeps
// the file's size.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { copyOf, type TestSite } from '../helpers/site.ts';

const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, types: [], lib: ['ES2022'], skipLibCheck: false },
  files: ['check/shape.d.ts', 'check/use.ts'],
});

let sites: TestSite[] = [];
afterEach(() => { for (const s of sites) s.remove(); sites = []; });

it('sees a declaration file edited between two checks, and checks another site with the same file on its own', async () => {
  const files = {
    'tsconfig.json': TSCONFIG,
    'check/shape.d.ts': 'declare const shape: { size: number };\n',
    'check/use.ts': 'export const n: number = shape.size;\n',
  };
  const site = await copyOf('basic', files);
  sites.push(site);
  const first = await site.check();
  expect(first.errors).toEqual([]);
  expect(first.stdout).toContain('2 files type-checked');

  // The same length: only the file's time tells the edit.
  site.write('check/shape.d.ts', 'declare const shape: { size: string };\n');
  expect(fs.statSync(path.join(site.root, 'check/shape.d.ts')).size).toBe(files['check/shape.d.ts'].length);
  const second = await site.check();
  expect(second.code).toBe(1);
  expect(second.errors.map((e) => [e.id, e.text, e.location?.file, e.location?.line])).toEqual([
    ['TypeError', "Type 'string' is not assignable to type 'number'. (TS2322)", 'check/use.ts', 1],
  ]);

  // Another site whose declaration says otherwise: its own file, not the first site's.
  const other = await copyOf('basic', { ...files, 'check/shape.d.ts': 'declare const shape: { size: boolean };\n' });
  sites.push(other);
  const third = await other.check();
  expect(third.errors.map((e) => e.text)).toEqual(["Type 'boolean' is not assignable to type 'number'. (TS2322)"]);
}, 120_000);
