// `sitegen init` never overwrites a file the folder has without --force (a .gitignore holding the rules
// that keep secrets out of git is kept, and init says so), and never writes through a symbolic link: with
// --force a link in the way is replaced as a link, and the file or folder it points to stays as it was.
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { runInit } from '../../cli/init.ts';
import { treeSnapshot } from '../helpers/tree.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const tmp = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-sec3-init-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const STARTER_GITIGNORE = fs.readFileSync(path.join(import.meta.dirname, '../../init-template/minimal/gitignore'), 'utf8');
const USER_GITIGNORE = '# ours\n.env\nsecrets/\n*.pem\n';

let out = '', err = '';
beforeEach(() => {
  out = err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => { err += String(s); return true; });
});
afterEach(() => { vi.restoreAllMocks(); });

const folder = (name: string) => { const d = path.join(tmp, name); fs.mkdirSync(d, { recursive: true }); return d; };
const read = (f: string) => fs.readFileSync(f, 'utf8');
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('sitegen init keeps what the folder has', () => {
  it("keeps a folder's own .gitignore without --force, and says so", async () => {
    const dir = folder('dotfiles-only');
    fs.writeFileSync(path.join(dir, '.gitignore'), USER_GITIGNORE);
    fs.writeFileSync(path.join(dir, '.env'), 'SECRET=1\n');
    expect(await runInit(dir, {})).toBe(0);
    expect(read(path.join(dir, '.gitignore'))).toBe(USER_GITIGNORE);
    expect(read(path.join(dir, '.env'))).toBe('SECRET=1\n');
    expect(fs.existsSync(path.join(dir, 'sitegen.config.ts'))).toBe(true);
    expect(plain(out)).toMatch(/kept your \.gitignore/);
    // It lists neither of the build's folders: init says so (it never edits the file).
    expect(plain(out)).toMatch(/hint: your \.gitignore does not list dist\/ and \.sitegen\/: add them/);
  });

  it('says nothing of a kept .gitignore that lists the build folders, and names only the one it lacks', async () => {
    const listed = folder('gitignore-listed');
    fs.writeFileSync(path.join(listed, '.gitignore'), '/dist/\n.sitegen\nnode_modules\n');
    expect(await runInit(listed, {})).toBe(0);
    expect(plain(out)).toMatch(/kept your \.gitignore/);
    expect(plain(out)).not.toMatch(/does not list/);
    out = '';
    const globbed = folder('gitignore-globbed');
    fs.writeFileSync(path.join(globbed, '.gitignore'), '\ufeff**/dist\n/.sitegen/**\n');
    expect(await runInit(globbed, {})).toBe(0);
    expect(plain(out)).not.toMatch(/does not list/);
    out = '';
    const half = folder('gitignore-half');
    fs.writeFileSync(path.join(half, '.gitignore'), 'dist/\r\n');
    expect(await runInit(half, {})).toBe(0);
    expect(plain(out)).toMatch(/does not list \.sitegen\/: add it/);
  });

  it("says what it added to the folder's own package.json, and keeps what it had", async () => {
    const dir = folder('own-package');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'mine', scripts: { build: 'my-build' }, dependencies: { 'sitegen-islands': 'file:../x.tgz', react: '^19.0.0' } }));
    expect(await runInit(dir, {})).toBe(0);
    const pkg = JSON.parse(read(path.join(dir, 'package.json')));
    expect(pkg).toMatchObject({ name: 'mine', type: 'module', scripts: { build: 'my-build', dev: 'sitegen dev' }, dependencies: { 'sitegen-islands': 'file:../x.tgz', react: '^19.0.0' } });
    const said = plain(out).match(/added to your package\.json: (.*)/)?.[1] ?? '';
    expect(said).toMatch(/^"type": "module"; scripts dev, check, preview, typecheck; dependencies /);
    const deps = said.split('; dependencies ')[1]!.split(', ');
    const all = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies ?? {})];
    expect(deps).toEqual(all.filter((d) => !['sitegen-islands', 'react'].includes(d)));
  });

  it('writes the starter .gitignore into a folder without one', async () => {
    const dir = folder('no-gitignore');
    fs.mkdirSync(path.join(dir, '.git'));
    expect(await runInit(dir, {})).toBe(0);
    expect(read(path.join(dir, '.gitignore'))).toBe(STARTER_GITIGNORE);
    expect(plain(out)).not.toMatch(/kept/);
  });

  it('writes nothing through a link without --force: the link and its target stay', async () => {
    const dir = folder('link-no-force');
    const target = path.join(tmp, 'outside-gitignore');
    fs.writeFileSync(target, 'outside, not ours\n');
    fs.symlinkSync(target, path.join(dir, '.gitignore'));
    fs.symlinkSync(path.join(tmp, 'does-not-exist'), path.join(dir, '.editorconfig'));
    expect(await runInit(dir, {})).toBe(0);
    expect(read(target)).toBe('outside, not ours\n');
    expect(fs.lstatSync(path.join(dir, '.gitignore')).isSymbolicLink()).toBe(true);
    expect(plain(out)).toMatch(/kept your \.gitignore \(a link\)/);
  });

  it('with --force replaces links as links; the files and folders they point to are never written', async () => {
    const dir = folder('link-force');
    const outside = folder('outside-force');
    fs.writeFileSync(path.join(outside, 'gitignore'), 'outside gitignore\n');
    fs.writeFileSync(path.join(outside, 'config.ts'), 'export default "outside";\n');
    fs.writeFileSync(path.join(outside, 'package.json'), '{"name":"outside"}\n');
    fs.mkdirSync(path.join(outside, 'templates'));
    fs.writeFileSync(path.join(outside, 'templates/Layout.tsx'), 'outside layout\n');
    const before = treeSnapshot(outside);
    fs.symlinkSync(path.join(outside, 'gitignore'), path.join(dir, '.gitignore'));
    fs.symlinkSync(path.join(outside, 'config.ts'), path.join(dir, 'sitegen.config.ts'));
    fs.symlinkSync(path.join(outside, 'package.json'), path.join(dir, 'package.json'));
    fs.symlinkSync(path.join(outside, 'templates'), path.join(dir, 'templates'), 'dir');
    fs.symlinkSync(path.join(tmp, 'dangling-target'), path.join(dir, 'tsconfig.json'));

    expect(await runInit(dir, { force: true })).toBe(0);
    expect(treeSnapshot(outside)).toBe(before);
    expect(fs.existsSync(path.join(tmp, 'dangling-target'))).toBe(false);
    for (const f of ['.gitignore', 'sitegen.config.ts', 'package.json', 'tsconfig.json']) expect(fs.lstatSync(path.join(dir, f)).isFile(), f).toBe(true);
    expect(fs.lstatSync(path.join(dir, 'templates')).isDirectory()).toBe(true);
    expect(read(path.join(dir, '.gitignore'))).toBe(STARTER_GITIGNORE);
    expect(read(path.join(dir, 'templates/Layout.tsx'))).not.toBe('outside layout\n');
    expect(JSON.parse(read(path.join(dir, 'package.json'))).name).toBe('link-force');
  });

  it('with --force overwrites plain files, but writes nothing when a starter folder is a file', async () => {
    const dir = folder('conflict');
    fs.writeFileSync(path.join(dir, 'content'), 'a file where the starter has a folder\n');
    fs.writeFileSync(path.join(dir, '.gitignore'), USER_GITIGNORE);
    expect(await runInit(dir, { force: true })).toBe(1);
    expect(plain(err)).toMatch(/nothing written/);
    expect(plain(err)).toMatch(/content is a file where the starter has a folder/);
    expect(fs.readdirSync(dir).sort()).toEqual(['.gitignore', 'content']);
    expect(read(path.join(dir, '.gitignore'))).toBe(USER_GITIGNORE);

    fs.rmSync(path.join(dir, 'content'));
    expect(await runInit(dir, { force: true })).toBe(0);
    expect(read(path.join(dir, '.gitignore'))).toBe(STARTER_GITIGNORE);
  });
});
