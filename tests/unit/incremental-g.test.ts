// A build that patches dist/ in place records, for the next build, only what it wrote or deleted: the
// stamps of every other file and folder stay as the record had them. Whatever a user then does to dist/ by
// hand (a file added in a folder the patch made, a page the patch wrote edited, a folder it removed made
// again) the next build, with or without a content change, leaves dist/ as a clean build has it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';

let site: TestSite;
beforeEach(async () => { site = await copyOf('basic'); });
afterEach(() => site?.remove());

// Each case twice: the live output stamped on this thread as the build compares, and on another while it loads (outputProbe.ts).
let env: Record<string, string> = {};

async function buildOk() {
  const r = await site.build({ env });
  expect(r.errors).toEqual([]);
  expect(r.code).toBe(0);
  return r;
}

/** The output a build without any cache makes of the site as it is now. */
async function clean(): Promise<Record<string, string>> {
  const r = await site.build({ out: 'clean', env: { SITEGEN_NO_CACHE: '1' } });
  expect(r.errors).toEqual([]);
  return r.output();
}

const gamma = 'title: Gamma\ntags: [g, h]\nprice: 3\n';

describe.each([['stamped as compared', {}], ['stamped on another thread', { SITEGEN_PROBE_MIN: '0' }]])('after a build that patched dist/ in place, the output %s', (_, e: Record<string, string>) => {
  beforeEach(() => { env = e; });

  it('a file added by hand in a folder the patch made is removed by the next build, changed content or not', async () => {
    const first = await buildOk();
    const dist = first.outDir;
    site.write('content/items/gamma.yaml', gamma);
    let r = await buildOk(); // a patch: one page and its alias page added, in new folders
    expect(r.read('items/gamma/index.html')).toContain('Gamma');
    fs.writeFileSync(path.join(dist, 'items/gamma/stray.html'), 'not the build\'s');
    r = await buildOk(); // nothing else changed
    expect(r.output()).toEqual(await clean());
    site.write('content/items/delta.yaml', gamma.replace('Gamma', 'Delta'));
    r = await buildOk();
    fs.writeFileSync(path.join(dist, 'items/delta/stray.html'), 'not the build\'s');
    site.edit('content/items/alpha.yaml', (t) => t.replace(/^title: .*$/m, 'title: Alpha edited'));
    r = await buildOk(); // a content change besides
    expect(r.output()).toEqual(await clean());
  }, 120_000);

  it('a page the patch wrote, edited by hand, is written again by the next build', async () => {
    await buildOk();
    site.edit('content/pages/about.md', (t) => `${t}\nA line added.\n`);
    let r = await buildOk();
    const page = path.join(r.outDir, 'about/index.html');
    const built = fs.readFileSync(page, 'utf8');
    expect(built).toContain('A line added.');
    fs.writeFileSync(page, built.replace('A line added.', 'A line changed by hand'));
    r = await buildOk(); // nothing else changed
    expect(r.read('about/index.html')).toBe(built);
    fs.writeFileSync(page, 'edited by hand');
    site.edit('content/items/beta.yaml', (t) => t.replace(/^price: .*$/m, 'price: 99'));
    r = await buildOk();
    expect(r.read('about/index.html')).toBe(built);
    expect(r.output()).toEqual(await clean());
  }, 120_000);

  it('a folder the patch removed, made again by hand with a file in it, is removed by the next build', async () => {
    await buildOk();
    site.write('content/items/gamma.yaml', gamma);
    let r = await buildOk();
    fs.rmSync(path.join(site.root, 'content/items/gamma.yaml'));
    r = await buildOk(); // a patch: the page and its folder removed
    expect(fs.existsSync(path.join(r.outDir, 'items/gamma'))).toBe(false);
    fs.mkdirSync(path.join(r.outDir, 'items/gamma'));
    fs.writeFileSync(path.join(r.outDir, 'items/gamma/index.html'), 'made by hand');
    r = await buildOk();
    expect(r.output()).toEqual(await clean());
    fs.mkdirSync(path.join(r.outDir, 'items/gamma'));
    fs.writeFileSync(path.join(r.outDir, 'items/gamma/index.html'), 'made by hand');
    site.edit('content/items/alpha.yaml', (t) => t.replace(/^price: .*$/m, 'price: 7'));
    r = await buildOk();
    expect(r.output()).toEqual(await clean());
  }, 120_000);
});

// The route table's checks (valid paths, one writer per output) are carried from the last build when
// routes() declares the same paths, outputs and aliases; routes() runs every time, and here its aliases
// come from the pages' bodies, so a body edit changes them.
describe('a route table whose checks a build carries over', () => {
  const aliasesFromBody = () => site.edit('sitegen.config.ts', (t) => t.replace(
    'props: { title: p.data.title, html: p.html }, title: p.data.title, source: p.file }',
    'props: { title: p.data.title, html: p.html }, title: p.data.title, source: p.file, aliases: [...p.html.matchAll(/old:(\\/[a-z/-]+)/g)].map((m) => m[1]) }'));
  const body = (text: string) => site.write('content/pages/about.md', `---\ntitle: About\n---\n# About\n\n${text}\n`);

  it('still sees an alias or a route that routes() adds, removes or renames after a body edit', async () => {
    aliasesFromBody();
    body('Was old:/former-about.');
    let r = await buildOk();
    expect(r.read('former-about/index.html')).toContain('/about/');
    r = await buildOk(); // the same shape: carried
    body('Was old:/former-about and old:/earlier-about.');
    r = await buildOk();
    expect(r.output()).toEqual(await clean());
    expect(Object.keys(r.output())).toContain('earlier-about/index.html');
    body('Was old:/renamed-about.');
    r = await buildOk();
    expect(Object.keys(r.output())).not.toContain('former-about/index.html');
    expect(r.output()).toEqual(await clean());
    site.write('content/pages/extra.md', '---\ntitle: Extra\n---\nOnce old:/before-extra.\n');
    r = await buildOk(); // a route added, with its alias
    expect(r.read('before-extra/index.html')).toContain('/extra/');
    fs.renameSync(path.join(site.root, 'content/pages/extra.md'), path.join(site.root, 'content/pages/moved.md'));
    r = await buildOk(); // renamed
    expect(r.read('moved/index.html')).toContain('Extra');
    expect(Object.keys(r.output())).not.toContain('extra/index.html');
    expect(r.output()).toEqual(await clean());
    fs.rmSync(path.join(site.root, 'content/pages/moved.md'));
    r = await buildOk(); // removed
    expect(Object.keys(r.output())).not.toContain('moved/index.html');
    expect(r.output()).toEqual(await clean());
  }, 120_000);

  it('reports an alias that a body edit makes collide with a page, after builds that carried the checks', async () => {
    aliasesFromBody();
    body('Was old:/former-about.');
    await buildOk();
    await buildOk();
    body('Was old:/items/alpha.');
    const r = await site.build();
    expect(r.code).not.toBe(0);
    expect(r.errors.map((e) => e.text).join('\n')).toMatch(/alias \/items\/alpha\/ → \/about\/ and page \/items\/alpha\/ .*both write items\/alpha\/index\.html/);
    body('Was old:/former-about.'); // back to the shape that passed: carried again
    expect((await buildOk()).output()).toEqual(await clean());
  }, 120_000);
});
