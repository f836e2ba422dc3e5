// Reusing the previous output never follows a symbolic link: a build moves, prunes and writes only the
// site's own folders. A link where the output is kept, an output folder that is a link (to a web root, say),
// a linked `.sitegen`, and links inside the kept output are each removed or skipped as links; the folders
// they point to, outside the site, keep every file as it was.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { stageOutput } from '../../src/output/write.ts';
import { treeSnapshot } from '../helpers/tree.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const tmp = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-sec3-out-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const put = (file: string, text: string) => { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, text); };

/** A folder outside the site with files of its own (a web root, a home folder). */
function outsideFolder(name: string): { dir: string; before: string } {
  const dir = path.join(tmp, name);
  put(path.join(dir, 'sentinel.txt'), 'must survive');
  put(path.join(dir, 'index.html'), 'the page the web root serves');
  put(path.join(dir, 'deep/keep.txt'), 'also must survive');
  return { dir, before: treeSnapshot(dir) };
}

function newSite(name: string) {
  const root = path.join(tmp, name);
  fs.mkdirSync(root, { recursive: true });
  const out = path.join(root, 'dist');
  const kept = path.join(root, '.sitegen', 'cache', 'output');
  /** One build as src/pipeline/build.ts runs it: stage (reusing the kept output), write the pages, swap in. */
  const build = async (files: Record<string, string>) => {
    const s = await stageOutput(out, { dir: kept, planned: Object.keys(files), root });
    for (const [f, text] of Object.entries(files)) await s.write(f, text);
    await s.commit();
  };
  return { root, out, kept, build };
}

const PAGES = { 'index.html': 'home', 'sentinel.txt': 'the site has a file of this name too', 'a/index.html': 'page a' };

describe('the reused output follows no link', () => {
  it('an output folder that is a link is replaced by the output; the folder it named is never emptied or written', async () => {
    const web = outsideFolder('webroot');
    const { out, kept, build } = newSite('dist-link');
    fs.symlinkSync(web.dir, out, 'dir');
    await build(PAGES);
    await build({ ...PAGES, 'index.html': 'home, second build' });
    await build({ 'index.html': 'home, third build' });
    expect(treeSnapshot(web.dir)).toBe(web.before);
    expect(fs.lstatSync(out).isDirectory()).toBe(true);
    expect(fs.readdirSync(out)).toEqual(['index.html']);
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('home, third build');
    expect(fs.lstatSync(kept).isDirectory()).toBe(true); // the real output of the second build, kept
  });

  it('a link planted where the output is kept is removed, never what it points to, on the first build', async () => {
    const web = outsideFolder('planted');
    const { out, kept, build } = newSite('planted-link');
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.symlinkSync(web.dir, kept, 'dir');
    await build(PAGES);
    expect(treeSnapshot(web.dir)).toBe(web.before);
    expect(fs.lstatSync(out).isDirectory()).toBe(true);
    expect(fs.readdirSync(out).sort()).toEqual(['a', 'index.html', 'sentinel.txt']);
    expect(fs.readFileSync(path.join(out, 'sentinel.txt'), 'utf8')).toBe(PAGES['sentinel.txt']);
    await build(PAGES);
    expect(treeSnapshot(web.dir)).toBe(web.before);
  });

  it('a link planted where the output is kept, to a file, is removed and its file left alone', async () => {
    const file = path.join(tmp, 'lone-file.txt');
    put(file, 'a file outside');
    const { out, kept, build } = newSite('planted-file');
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.symlinkSync(file, kept);
    await build(PAGES);
    expect(fs.readFileSync(file, 'utf8')).toBe('a file outside');
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('home');
  });

  it('a .sitegen/cache that links out of the site is not used: nothing is moved in from there or out to it', async () => {
    const elsewhere = path.join(tmp, 'elsewhere-cache');
    const web = outsideFolder('elsewhere-cache/output');
    const { root, out, build } = newSite('cache-link');
    fs.mkdirSync(path.join(root, '.sitegen'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(root, '.sitegen', 'cache'), 'dir');
    await build(PAGES);
    await build({ 'index.html': 'home, second build' });
    await build({ 'index.html': 'home, third build' });
    expect(treeSnapshot(web.dir)).toBe(web.before);
    expect(fs.readdirSync(elsewhere)).toEqual(['output']);
    expect(fs.readdirSync(out)).toEqual(['index.html']);
  });

  it('links to a file and to a folder inside the kept output are removed as links; the build writes real files', async () => {
    const web = outsideFolder('inner');
    const secret = path.join(tmp, 'inner-secret.txt');
    put(secret, 'outside file');
    const { out, kept, build } = newSite('inner-links');
    put(path.join(kept, 'index.html'), 'old home');
    fs.symlinkSync(secret, path.join(kept, 'page.html'));
    fs.symlinkSync(web.dir, path.join(kept, 'a'), 'dir');
    fs.symlinkSync(web.dir, path.join(kept, 'gone'), 'dir');
    await build({ 'index.html': 'home', 'page.html': 'a page', 'a/index.html': 'page a', 'a/sentinel.txt': 'ours' });
    expect(treeSnapshot(web.dir)).toBe(web.before);
    expect(fs.readFileSync(secret, 'utf8')).toBe('outside file');
    expect(fs.lstatSync(path.join(out, 'page.html')).isFile()).toBe(true);
    expect(fs.lstatSync(path.join(out, 'a')).isDirectory()).toBe(true);
    expect(fs.readFileSync(path.join(out, 'a/sentinel.txt'), 'utf8')).toBe('ours');
    expect(fs.existsSync(path.join(out, 'gone'))).toBe(false);
  });
});
