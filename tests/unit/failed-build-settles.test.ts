// A build that fails on its content returns only when all its work has ended: the client bundle, started
// beside the content parse, has written what it writes by then. Before, the bundle landed in
// .sitegen/cache/client a few hundred milliseconds after the failed build had returned, into a folder a
// script may already have moved or deleted (a deleted test site grew a new .sitegen/).
import { afterEach, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers/cli.ts';
import { copyOf } from '../helpers/scratch.ts';
import type { TestSite } from '../helpers/site.ts';

let site: TestSite | undefined;
afterEach(() => site?.remove());

/** Every file under `dir` with its size and mtime, or null when there is no such folder. */
function snapshot(dir: string): string[] | null {
  if (!fs.existsSync(dir)) return null;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => { const p = path.join(e.parentPath, e.name); const st = fs.statSync(p); return `${path.relative(dir, p)} ${st.size} ${st.mtimeMs}`; }).sort();
}

it('a build that fails on its content has finished bundling when it returns', async () => {
  site = await copyOf('basic', { 'content/items/beta.yaml': fs.readFileSync(path.join(REPO, 'tests/fixtures/schema-error/content/items/beta.yaml')) });
  const state = path.join(site.root, '.sitegen');
  fs.rmSync(state, { recursive: true, force: true }); // cold: the bundle is made, not read from the cache
  const r = await site.build();
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/content\/items\/beta\.yaml:\d+:\d+/);
  const client = path.join(state, 'cache', 'client');
  const atReturn = snapshot(client);
  expect(atReturn?.length ?? 0).toBeGreaterThan(0);
  // Whatever the bundle writes is written: the folder does not change once the build has returned.
  await new Promise((resolve) => setTimeout(resolve, 800));
  expect(snapshot(client)).toEqual(atReturn);
});
