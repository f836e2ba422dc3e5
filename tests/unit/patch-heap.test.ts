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

  it('a build of a big content (a slower-growing heap) reads and makes every code cache under V8\'s own growth', async () => {
    // Every content file counts as big, and a pool worker parses: the growth changes once the config stage
    // ended and the worker loaded, so the site module's code cache the first build made is taken as it is.
    const site = await copyOf('basic', {});
    made.push(site);
    fs.appendFileSync(path.join(site.root, 'sitegen.config.ts'), `\n// run ${randomBytes(6).toString('hex')}\n`);
    const env = { SITEGEN_BIG_HEAP_MIN: '1', SITEGEN_PARALLEL_MIN: '1', SITEGEN_WORKERS: '1' };
    const build = (more: Record<string, string> = {}) => {
      const r = sitegen(['build', '--root', site.root, '--json'], { env: { ...env, ...more } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as { rendered: number; workers?: { workers: number } };
    };
    expect(build().workers?.workers).toBe(1);
    const module = cachedSiteModule(site.root)!.file;
    const stamp = () => { const s = fs.statSync(`${module}.v8cache`); return `${s.size}:${s.mtimeMs}`; };
    const before = stamp();
    const pages = () => fs.readdirSync(path.join(site.root, 'dist'), { recursive: true }).map(String).sort().map((f) => [f, fs.statSync(path.join(site.root, 'dist', f)).isFile() ? site.file(`dist/${f}`) : '']);
    // A front matter edit (a whole load over a live output: a likely patch's growth), then a build with no
    // output and no content cache (the worker parsing every file).
    site.edit('content/pages/about.md', (t) => t.replace(/^title: .*$/m, 'title: About us, edited'));
    expect(build().rendered).toBeGreaterThan(0);
    expect(site.file('dist/about/index.html')).toContain('About us, edited');
    fs.rmSync(path.join(site.root, 'dist'), { recursive: true });
    fs.rmSync(path.join(site.root, '.sitegen/cache/content'), { recursive: true });
    expect(build().workers?.workers).toBe(1);
    expect(stamp()).toBe(before);
    // The same pages as a build whose content is not big.
    const big = pages();
    fs.rmSync(path.join(site.root, 'dist'), { recursive: true });
    build({ SITEGEN_BIG_HEAP_MIN: '1000000' });
    expect(pages()).toEqual(big);
  });
});
