// What `sitegen dev` says as it goes. A rebuild's line names the files a batch of changes leaves, each once:
// an editor's or `sed -i`'s temporary file, made and renamed over the real one within the batch, still makes
// the site module compile again (a new file may satisfy an import) but is not named. A failed rebuild says
// what the pages show meanwhile: the last good build, or, before there was one, the problems. A config edit
// says the server plugins restarted only when the site has some, and that they stopped when it has no more.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyChanges } from '../../src/pipeline/changes.ts';
import { copyOf } from '../helpers/scratch.ts';
import { until } from './dev-fixture.ts';

const root = path.resolve('/site');
const known = { serverInputs: new Set([path.join(root, 'templates/pages.tsx')]), clientInputs: new Set<string>(), moduleFailed: false, bundleFailed: false };

describe('the files a rebuild names', () => {
  it('names the template `sed -i` rewrote, not its temporary file', () => {
    const c = classifyChanges(root, [
      { file: 'templates/sedqiM9M7', kind: 'add' },
      { file: 'templates/sedqiM9M7', kind: 'change' },
      { file: 'templates/sedqiM9M7', kind: 'unlink' },
      { file: 'templates/pages.tsx', kind: 'change' },
    ], known)!;
    expect(c.what).toBe('templates/pages.tsx');
    expect(c.module).toBe(true);
  });

  it('names each file once, the first one first', () => {
    const c = classifyChanges(root, [
      { file: 'content/posts/a.md', kind: 'change' },
      { file: 'content/posts/b.md', kind: 'add' },
      { file: 'content/posts/a.md', kind: 'change' },
    ], known)!;
    expect(c.what).toBe('content/posts/a.md +1 more');
  });

  it('a file removed and made again (an atomic save, a checkout) is named: it is there after the batch', () => {
    const c = classifyChanges(root, [
      { file: 'content/posts/a.md', kind: 'unlink' },
      { file: 'content/posts/a.md', kind: 'add' },
      { file: 'content/posts/b.md', kind: 'change' },
    ], known)!;
    expect(c.what).toBe('content/posts/a.md +1 more');
  });

  it('a file added and removed alone is still named: the batch changed nothing else', () => {
    const c = classifyChanges(root, [{ file: 'templates/Scratch.tsx', kind: 'add' }, { file: 'templates/Scratch.tsx', kind: 'unlink' }], known)!;
    expect(c.what).toBe('templates/Scratch.tsx');
    expect(c.module).toBe(true);
  });
});

describe('what a failed rebuild says the pages show', () => {
  it('before any good build: the problems; after one: the last good build', async () => {
    const site = await copyOf('basic', { 'content/items/alpha.yaml': 'title: 5\ntags: [a, b]\nprice: 3\n' });
    const dev = await site.dev();
    try {
      await until(() => dev.stderr().includes('✗ start →'), 30_000, 'the first build');
      expect(dev.stderr()).toMatch(/✗ start → 1 error; the pages show the problems until they are fixed \(\d+ ms\)/);
      expect(dev.stderr()).not.toContain('last good build');
      expect((await fetch(`${dev.url}/items/beta/`)).status).toBe(503);
      site.write('content/items/alpha.yaml', 'title: Alpha\ntags: [a, b]\nprice: 3\n');
      await until(() => /✓ content\/items\/alpha\.yaml → /.test(dev.stdout()), 30_000, 'the fixed build');
      site.write('content/items/alpha.yaml', 'title: 6\ntags: [a, b]\nprice: 3\n');
      await until(() => dev.stderr().includes('✗ content/items/alpha.yaml →'), 30_000, 'the failed rebuild');
      expect(dev.stderr()).toMatch(/✗ content\/items\/alpha\.yaml → 1 error; serving the last good build/);
      expect((await fetch(`${dev.url}/items/beta/`)).status).toBe(200);
    } finally { await dev.close(); site.remove(); }
  });

  it('a config edit in a site without server plugins says nothing of restarting them', async () => {
    const site = await copyOf('basic', {});
    const dev = await site.dev({ backend: true });
    try {
      await until(() => dev.stdout().includes('✓ built'), 30_000, 'the first build');
      site.edit('sitegen.config.ts', (t) => t.replace("title: '", "title: 'Edited "));
      await until(() => /✓ sitegen\.config\.ts → /.test(dev.stdout()), 30_000, 'the rebuild');
      expect(dev.output()).not.toContain('server plugins restarted');
    } finally { await dev.close(); site.remove(); }
  });

  it('a config edit that changes the site\'s base says where the pages are now', async () => {
    const site = await copyOf('base-blog', {});
    const dev = await site.dev();
    try {
      await until(() => dev.stdout().includes('✓ built'), 30_000, 'the first build');
      expect(dev.stdout()).toContain(`at ${dev.url}/blog/`);
      site.edit('sitegen.config.ts', (t) => t.replace("base: '/blog/'", "base: '/journal/'"));
      // (The fixture's first post links /blog/… as written, which is now broken: the rebuild reports it.)
      await until(() => /[✓✗] sitegen\.config\.ts → /.test(dev.output()), 30_000, 'the rebuild');
      await until(() => dev.stdout().includes(`the site is now at ${dev.url}/journal/`), 10_000, 'the line saying so');
      // A config edit that keeps the base says nothing of it.
      site.edit('sitegen.config.ts', (t) => t.replace("title: '", "title: 'Edited "));
      await until(() => (dev.output().match(/[✓✗] sitegen\.config\.ts → /g) ?? []).length === 2, 30_000, 'the second rebuild');
      expect(dev.stdout().match(/the site is now at/g)).toHaveLength(1);
    } finally { await dev.close(); site.remove(); }
  });

  it('a config edit that removes the last server plugin says it stopped', async () => {
    const plugin = "export const hello = () => ({ name: 'hello', server: () => ({ handlers: [], banner: ['hello is up'] }) });\n";
    const site = await copyOf('basic', { 'plugins/hello.ts': plugin });
    site.edit('sitegen.config.ts', (t) => `import { hello } from './plugins/hello.ts';\n${t.replace('export default defineConfig({', 'export default defineConfig({\n  plugins: [hello()],')}`);
    const dev = await site.dev({ backend: true });
    try {
      await until(() => dev.stdout().includes('✓ built'), 30_000, 'the first build');
      expect(dev.stdout()).toContain('hello is up');
      site.edit('sitegen.config.ts', (t) => t.replace('\n  plugins: [hello()],', ''));
      await until(() => /✓ sitegen\.config\.ts → /.test(dev.stdout()), 30_000, 'the rebuild');
      await until(() => dev.stdout().includes('server plugins stopped: the new config has none'), 10_000, 'the line saying so');
      expect(dev.output()).not.toContain('server plugins restarted');
    } finally { await dev.close(); site.remove(); }
  });
});
