// `sitegen check` reuses the declaration files it parsed for an earlier check in the same process, and only
// while they are unchanged: an edit to a .d.ts between two checks is seen by the second, even one that keeps
// the file's size. And a check starts from the last one's program, of this site or another: a file both sites
// check (a shared folder outside them) gets its errors again when it, a module it imports or a global it
// uses is another than the last check's.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { copyOf, type TestSite } from '../helpers/site.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, types: [], lib: ['ES2022'], skipLibCheck: false },
  files: ['check/shape.d.ts', 'check/use.ts'],
});

let sites: TestSite[] = [];
let shared: string | null = null;
afterEach(() => {
  for (const s of sites) s.remove();
  sites = [];
  if (shared) fs.rmSync(shared, { recursive: true, force: true });
  shared = null;
});

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

it('checks a file two sites share again when a module it imports or a global it uses is not the last check\'s', async () => {
  shared = fs.realpathSync(fs.mkdtempSync(path.join(SCRATCH, 'sitegen-shared-')));
  fs.writeFileSync(path.join(shared, 'size.ts'), 'export const size = 1;\n');
  fs.writeFileSync(path.join(shared, 'use.ts'), "import { size } from './size.ts';\nexport const n: number = size;\nexport const m: number = shape.size;\n");
  const siteWith = async (shapeSize: string) => {
    const site = await copyOf('basic', {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, types: [], lib: ['ES2022'], allowImportingTsExtensions: true },
        files: ['check/shape.d.ts', path.join(shared!, 'use.ts')],
      }),
      // A global the shared file uses, declared by each site its own way.
      'check/shape.d.ts': `declare const shape: { size: ${shapeSize} };\n`,
    });
    sites.push(site);
    return site;
  };
  const sharedErrors = (r: Awaited<ReturnType<TestSite['check']>>) => r.errors.map((e) => [e.text, e.location?.file.split('/').pop(), e.location?.line]);

  const first = await (await siteWith('number')).check();
  expect(first.errors).toEqual([]);
  expect(first.stdout).toContain('2 files type-checked');

  // Another site whose global says otherwise: the shared file is checked against it.
  const second = await (await siteWith('string')).check();
  expect(sharedErrors(second)).toEqual([["Type 'string' is not assignable to type 'number'. (TS2322)", 'use.ts', 3]]);

  // A third site agreeing with the first, after the module the shared file imports changed.
  fs.writeFileSync(path.join(shared, 'size.ts'), "export const size = '1';\n");
  const third = await (await siteWith('number')).check();
  expect(sharedErrors(third)).toEqual([["Type 'string' is not assignable to type 'number'. (TS2322)", 'use.ts', 2]]);
}, 120_000);
