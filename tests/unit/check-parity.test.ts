// `sitegen check` is `sitegen build` minus the writing: on every fixture site, and on small sites broken the
// ways a build rejects (a static file over a page or in the way of its folder, a broken Markdown link, a link
// without the base path, a broken #fragment, a define() that throws), check gives exactly build's errors — same ids, words,
// locations and hints — and leaves dist/ and the build's kept output (.sitegen/cache/output) as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { build, checkSite } from '../../src/pipeline/build.ts';
import { formatMessage } from '../../src/core/errors.ts';
import type { BuildResult } from '../../src/core/types.ts';
import { configureEngine, type EngineSettings } from '../../src/core/settings.ts';
import { REPO } from '../helpers/cli.ts';
import { treeSnapshot } from '../helpers/tree.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const FIXTURES = path.join(REPO, 'tests/fixtures');
let work = '';
/** Where the copies live: <work>/tests/fixtures/<name>, so the fixtures' relative imports and links resolve. */
let copies = '';

beforeAll(() => {
  work = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-check-parity-'));
  copies = path.join(work, 'tests/fixtures');
  // Symlinks copied as written (broken-link's static/ and templates/ point at ../basic/…).
  fs.cpSync(FIXTURES, copies, { recursive: true, verbatimSymlinks: true, filter: (src) => !/(^|[\\/])(dist|\.sitegen)([\\/]|$)/.test(path.relative(FIXTURES, src)) });
  for (const d of ['node_modules', 'plugins', 'supabase']) fs.symlinkSync(path.join(REPO, d), path.join(work, d), 'dir');
});
afterAll(() => { if (work) fs.rmSync(work, { recursive: true, force: true }); });

/** A copy of fixture `from` named `name`, changed by `edit`. */
function site(name: string, from: string, edit: (dir: string) => void): string {
  const dir = path.join(copies, name);
  fs.cpSync(path.join(copies, from), dir, { recursive: true, verbatimSymlinks: true, filter: (src) => !/(^|[\\/])(dist|\.sitegen)([\\/]|$)/.test(src) });
  edit(dir);
  return dir;
}

function replaceIn(dir: string, rel: string, from: string, to: string): void {
  const file = path.join(dir, rel);
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${rel} has no ${JSON.stringify(from)}`);
  fs.writeFileSync(file, text.replace(from, to));
}

/** What a user reads of each error: id, located text, hint and notes. */
const seen = (r: BuildResult) => r.errors.map((m) => ({ id: m.id, text: formatMessage(m), hint: m.hint, notes: m.notes.map((n) => n.text) }));

/** dist/ and the kept output of the last build, byte for byte ("-" when absent). */
const outputState = (dir: string) => ['dist', '.sitegen/cache/output'].map((d) => (fs.existsSync(path.join(dir, d)) ? treeSnapshot(path.join(dir, d)) : '-'));

/** Builds, then checks: check's errors are build's, and check changed no output. */
async function compare(dir: string, settings: Partial<EngineSettings> = {}) {
  const built = await build({ root: dir, settings });
  const before = outputState(dir);
  const checked = await checkSite({ root: dir, settings });
  expect(seen(checked)).toEqual(seen(built));
  expect(outputState(dir)).toEqual(before);
  if (!built.errors.length) expect([checked.pages, checked.aliases]).toEqual([built.pages, built.aliases]);
  return { built, checked };
}

describe('check reports exactly what build reports, and writes nothing', () => {
  for (const name of fs.readdirSync(FIXTURES).filter((f) => fs.existsSync(path.join(FIXTURES, f, 'sitegen.config.ts')))) {
    it(`fixture ${name}`, async () => {
      await compare(path.join(copies, name));
    });
  }

  it('a static file that collides with a page', async () => {
    const dir = site('static-over-page', 'basic', (d) => {
      fs.mkdirSync(path.join(d, 'static/about'), { recursive: true });
      fs.writeFileSync(path.join(d, 'static/about/index.html'), '<p>mine</p>');
    });
    const { checked } = await compare(dir);
    expect(seen(checked).map((e) => e.text)).toEqual(['static/about/index.html static/about/index.html would overwrite a generated file']);
  });

  it('a static file where the output needs a folder, and one inside a generated file (build crashed on both)', async () => {
    const dir = site('static-file-folder', 'basic', (d) => {
      fs.writeFileSync(path.join(d, 'static/about'), 'a file named like the page');
      fs.mkdirSync(path.join(d, 'static/sitemap.xml'));
      fs.writeFileSync(path.join(d, 'static/sitemap.xml/part.xml'), '<urlset/>');
    });
    const { checked } = await compare(dir);
    expect(seen(checked).map((e) => e.text)).toEqual([
      'static/about static/about is a file, but the output needs a folder about/ for about/index.html',
      'static/sitemap.xml/part.xml static/sitemap.xml/part.xml needs a folder sitemap.xml/ where the output has the file sitemap.xml',
    ]);
  });

  it("a plugin's output where the output needs a folder, or where another of its outputs does", async () => {
    const dir = site('plugin-file-folder', 'basic', (d) => replaceIn(d, 'sitegen.config.ts', "  css: ['templates/site.css'],",
      "  plugins: [{ name: 'files', outputs: () => [{ path: 'items', contents: 'x' }, { path: 'data/a.json', contents: '{}' }, { path: 'data', contents: 'x' }] }],\n  css: ['templates/site.css'],"));
    const { checked } = await compare(dir);
    expect(seen(checked).map((e) => e.text)).toEqual([
      'plugin "files" writes items, which is a file, but the output needs a folder items/ for items/alpha/index.html',
      'plugin "files" writes data, which is a file, but the output needs a folder data/ for data/a.json',
    ]);
  });

  it('a broken Markdown link and a broken #fragment, located in the Markdown file', async () => {
    const dir = site('broken-markdown', 'basic', (d) => replaceIn(d, 'content/pages/about.md', 'and [an item](/items/alpha/).', 'and [an item](/items/gamma/).\n\nSee [the top](#nowhere).'));
    const { checked } = await compare(dir);
    expect(seen(checked).map((e) => e.text)).toEqual([
      'content/pages/about.md:7:58 page /about/ links to /items/gamma/, which is not a page, alias or file',
      'content/pages/about.md:9:15 page /about/ links to #nowhere, but the page has no element with id "nowhere"',
    ]);
  });

  it('pages rendered on worker threads: the same errors, nothing written', async () => {
    const dir = site('broken-on-workers', 'basic', (d) => replaceIn(d, 'content/pages/about.md', 'and [an item](/items/alpha/).', 'and [an item](/items/gamma/).\n\nSee [the top](#nowhere).'));
    try {
      const { checked } = await compare(dir, { cache: false, workers: 2, parallelMin: 0, mainTakesTasks: false, renderOnWorkers: true });
      expect(checked.workers).toBeDefined();
      expect(seen(checked).map((e) => e.text)).toEqual([
        'content/pages/about.md:7:58 page /about/ links to /items/gamma/, which is not a page, alias or file',
        'content/pages/about.md:9:15 page /about/ links to #nowhere, but the page has no element with id "nowhere"',
      ]);
    } finally {
      configureEngine({});
    }
  });

  it('a link missing the base path', async () => {
    // In a template (where the message locates it): Markdown links get the base by themselves.
    const dir = site('missing-base', 'base-blog', (d) => replaceIn(d, 'templates/pages.tsx', "<h1>Tags</h1>", '<h1><a href="/posts/second/">Tags</a></h1>'));
    const { checked } = await compare(dir);
    expect(seen(checked)).toEqual([expect.objectContaining({ id: 'BrokenLink', text: expect.stringMatching(/^templates\/pages\.tsx:\d+:\d+ page \/tags\/ links to \/posts\/second\/, which is not a page/), hint: expect.stringContaining('served under /blog/') })]);
  });

  it('define() that throws, located in the config', async () => {
    const dir = site('define-throws', 'basic', (d) => replaceIn(d, 'sitegen.config.ts', "  css: ['templates/site.css'],", "  define: () => {\n    throw new Error('define exploded');\n  },\n  css: ['templates/site.css'],"));
    const { checked } = await compare(dir);
    expect(seen(checked).map((e) => e.text)).toEqual([expect.stringMatching(/^sitegen\.config\.ts:11:\d+ define\(\) threw: define exploded$/)]);
  });
});
