// A `sitegen build` process that will likely patch a few pages of a live output opens the content cache with a
// faster-growing heap (src/core/heap.ts withPatchHeap), and must be back to the CLI's flags before it reads the
// site module's code cache: V8 refuses a code cache made under other flags, and the build would then compile
// the site module again and write its cache anew on every edit.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sitegen } from '../helpers/cli.ts';
import { copyOf } from '../helpers/scratch.ts';
import { cachedSiteModule } from '../../src/site/index.ts';

describe('a one-file build from the CLI', () => {
  const made: { remove(): void }[] = [];
  afterAll(() => made.forEach((s) => s.remove()));

  it('takes the code cache of the site module the build before it left, and writes none again', async () => {
    // (a site module of its own: no other test's process reads or writes its code cache)
    const site = await copyOf('basic', {});
    made.push(site);
    fs.appendFileSync(path.join(site.root, 'sitegen.config.ts'), `\n// run ${randomBytes(6).toString('hex')}\n`);
    const build = () => {
      const r = sitegen(['build', '--root', site.root, '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as { rendered: number; pages: number };
    };
    expect(build().rendered).toBeGreaterThan(1);
    const module = cachedSiteModule(site.root)!.file;
    const stamp = () => { const s = fs.statSync(`${module}.v8cache`); return `${s.size}:${s.mtimeMs}`; };
    const before = stamp();
    for (const n of [1, 2]) {
      site.edit('content/pages/about.md', (t) => `${t}\nA line added by edit ${n}.\n`);
      const r = build();
      expect(r.rendered).toBe(1);
      expect(site.file(`dist/about/index.html`)).toContain(`A line added by edit ${n}.`);
      expect(stamp()).toBe(before);
    }
  });
});
