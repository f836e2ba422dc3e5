// A one-file build does work that follows the change: it renders the pages whose inputs changed, checks
// again only the links that may now fail, and writes what changed in the page record beside it. What a
// user sees is a clean build's: the same output, and the same problems in the same words.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { siteAt, type TestSite } from '../helpers/site.ts';
import { warmCopies } from '../helpers/warmCopies.ts';
import { cleanBuilder } from '../helpers/cleanBuild.ts';
import { stamps, written } from '../helpers/outputStamps.ts';
import { siteCachePath } from '../../src/cache/registry.ts';
import { brokenLinks } from '../../src/pipeline/links.ts';
import type { PageLinks } from '../../src/pipeline/linkScan.ts';
import { makeTargets } from '../../src/pipeline/linkTargets.ts';
import type { Message } from '../../src/core/types.ts';

// Each test has the fixture as committed, at one path (its first build reuses the compile: tests/helpers/warmCopies.ts).
const copies = warmCopies('basic');
let site: TestSite;
afterAll(() => copies.remove());

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n${body}\n`;
/** Four pages that link the page "target", and the page itself, with a heading of id "part". */
const linked = {
  'content/pages/target.md': page('Target', '## Part\n\nThe target.'),
  'content/pages/one.md': page('One', 'See [the target](/target/) and [its part](/target/#part).'),
  'content/pages/two.md': page('Two', 'See [the target](/target/).'),
  'content/pages/three.md': page('Three', 'See [the target](/target/).'),
  'content/pages/four.md': page('Four', 'See [the target](/target/).'),
};

/** The basic fixture with the pages above and heading ids on. */
async function linkedSite(): Promise<TestSite> {
  const s = await copies.next(linked);
  s.edit('sitegen.config.ts', (t) => t
    .replace("import { defineConfig, href } from 'sitegen-islands';", "import { defineConfig, href, markdown } from 'sitegen-islands';")
    .replace('validate:', 'plugins: [markdown({ headingIds: true })],\n  validate:'));
  return s;
}

async function buildOk() {
  const r = await site.build();
  expect(r.errors).toEqual([]);
  return r;
}

// A clean build of the site as it is now: no output, content, page or build-record cache before it, and
// a compile from nothing whenever the site's code differs from the last clean build's (tests/helpers/cleanBuild.ts).
const cleanBuild = cleanBuilder(siteAt(copies.root));

/** The output and the problems of a clean build of the site as it is now. */
async function clean() {
  return cleanBuild();
}

const shown = (errors: Message[]) => errors.map((e) => [e.id, e.text, e.location?.file, e.location?.line, e.location?.column, e.notes.map((n) => n.text)]);

describe('a one-file build', () => {
  it("renders the edited entry's page with its new body, and a page listing the entries sees the edit", async () => {
    site = await copies.next();
    const before = stamps((await buildOk()).outDir);
    site.edit('content/pages/about.md', (t) => t.replace('# Hello', '# Hello again'));
    let r = await buildOk();
    expect(r.read('about/index.html')).toContain('Hello again');
    expect(written(before, stamps(r.outDir))).toEqual(['about/index.html']);
    expect(r.output()).toEqual((await clean()).output());
    site.edit('content/items/alpha.yaml', (t) => t.replace('title: Alpha', 'title: Alpha renamed'));
    r = await buildOk();
    expect(r.read('index.html')).toContain('Alpha renamed'); // the home page lists every item's title
    expect(r.read('items/alpha/index.html')).toContain('Alpha renamed');
    expect(r.output()).toEqual((await clean()).output());
  }, 90_000);

  it("reports a removed page's inbound links, on pages it did not render, as a clean build does", async () => {
    site = await linkedSite();
    await buildOk();
    fs.rmSync(path.join(site.root, 'content/pages/target.md'));
    const r = await site.build();
    expect(r.code).toBe(1);
    const c = await clean();
    expect(shown(r.errors)).toEqual(shown(c.errors));
    // The four pages' shared link is one message with three examples; the fragment link is reported too.
    expect(r.errors.map((e) => e.text)).toEqual([expect.stringContaining('4 pages link to /target/')]);
    // Nothing was written: the output is the last build's.
    expect(fs.existsSync(path.join(r.outDir, 'target/index.html'))).toBe(true);
  }, 90_000);

  it('reports a fragment link of a page it did not render when the page it names loses that id', async () => {
    site = await linkedSite();
    await buildOk();
    site.edit('content/pages/target.md', (t) => t.replace('## Part', '## Whole'));
    const r = await site.build();
    expect(r.code).toBe(1);
    expect(shown(r.errors)).toEqual(shown((await clean()).errors));
    expect(r.errors.map((e) => e.text)).toEqual(['page /one/ links to /target/#part, but /target/ has no element with id "part"']);
    site.edit('content/pages/target.md', (t) => t.replace('## Whole', '## Part'));
    expect((await buildOk()).output()).toEqual((await clean()).output());
  }, 90_000);

  it("reports a kept page's link to a static file removed, after a build that only edited a body", async () => {
    site = await linkedSite();
    site.write('static/files/guide.txt', 'A guide.');
    site.edit('content/pages/two.md', (t) => t.replace('See [the target](/target/).', 'See [the target](/target/) and [the guide](/files/guide.txt).'));
    await buildOk();
    site.edit('content/pages/three.md', (t) => t.replace('See', 'Do see'));
    expect((await buildOk()).read('three/index.html')).toContain('Do see'); // the link targets as the last build's
    fs.rmSync(path.join(site.root, 'static/files/guide.txt'));
    const r = await site.build();
    expect(r.errors.map((e) => e.text)).toEqual(['page /two/ links to /files/guide.txt, which is not a page, alias or file']);
    expect(shown(r.errors)).toEqual(shown((await clean()).errors));
  }, 90_000);

  it('passes once a page added answers a link that was broken', async () => {
    site = await linkedSite();
    await buildOk();
    site.edit('content/pages/two.md', (t) => t.replace('(/target/)', '(/later/)'));
    const failed = await site.build();
    expect(failed.errors.map((e) => e.text)).toEqual(['page /two/ links to /later/, which is not a page, alias or file']);
    site.write('content/pages/later.md', page('Later', 'Here now.'));
    const r = await buildOk();
    expect(r.read('later/index.html')).toContain('Here now.');
    expect(r.output()).toEqual((await clean()).output());
  }, 90_000);

  it('validates every entry again after a schema change, though no content file changed', async () => {
    site = await copies.next();
    await buildOk();
    site.edit('content/pages/about.md', (t) => `${t}\nMore.\n`);
    await buildOk();
    site.edit('sitegen.config.ts', (t) => t.replace('price: z.number() }', 'price: z.number().max(2) }'));
    const r = await site.build();
    expect(r.errors.map((e) => [e.id, e.location?.file, e.field])).toEqual([
      ['ContentSchemaError', 'content/items/alpha.yaml', 'price'],
      ['ContentSchemaError', 'content/items/beta.yaml', 'price'],
    ]);
  }, 90_000);
});

describe('the page record', () => {
  it('a patch writes what it changed beside the record, not the whole record; the next builds read both', async () => {
    site = await linkedSite();
    await buildOk();
    const base = siteCachePath(site.root, 'pages'), delta = siteCachePath(site.root, 'pagesDelta');
    const whole = fs.readFileSync(base, 'utf8');
    expect(fs.existsSync(delta)).toBe(false);
    site.edit('content/pages/two.md', (t) => t.replace('See', 'Do see'));
    let r = await buildOk();
    expect(fs.readFileSync(base, 'utf8')).toBe(whole);
    expect(fs.readFileSync(delta, 'utf8')).toContain('two/index.html');
    expect(fs.readFileSync(delta, 'utf8')).not.toContain('three/index.html');
    // The next edit keeps the first one's change: only its own page is written.
    const before = stamps(r.outDir);
    site.edit('content/pages/three.md', (t) => t.replace('See', 'Do see'));
    r = await buildOk();
    expect(written(before, stamps(r.outDir))).toEqual(['three/index.html']);
    expect(r.output()).toEqual((await clean()).output());
    // A page removed, then the output built over from nothing: the same output as a clean build.
    fs.rmSync(path.join(site.root, 'content/pages/four.md'));
    r = await buildOk();
    expect(fs.existsSync(path.join(r.outDir, 'four'))).toBe(false);
    expect(r.output()).toEqual((await clean()).output());
    // Many pages added at once: the record is written whole again, and the delta goes.
    for (let i = 0; i < 20; i++) site.write(`content/pages/more-${i}.md`, page(`More ${i}`, 'More.'));
    r = await buildOk();
    expect(fs.readFileSync(base, 'utf8')).not.toBe(whole);
    expect(fs.readFileSync(base, 'utf8')).toContain('more-19/index.html');
    expect(fs.existsSync(delta)).toBe(false);
    expect(r.output()).toEqual((await clean()).output());
    fs.rmSync(r.outDir, { recursive: true });
    expect((await buildOk()).output()).toEqual((await clean()).output());
  }, 90_000);
});

describe('the link check of a patched output', () => {
  const targets = makeTargets(['/', '/a/', '/b/', '/c/', '/new/'], []);
  const kept: PageLinks[] = Array.from({ length: 1000 }, (_, i) => ({ page: `/p${i}/`, source: null, links: ['/a/', '/b/', `/c/#p${i}`, `id:p${i}`] }));
  const changed: PageLinks = { page: '/new/', source: 'content/new.md', links: ['/a/', '/gone/', 'id:x'] };

  it('reports what checking every page reports', () => {
    const all = [...kept, { page: '/c/', source: null, links: kept.map((p) => `id:${p.page.slice(1, -1)}`) }, changed];
    const broken = brokenLinks(all, targets, undefined, (p) => p !== changed);
    expect(broken).toEqual(brokenLinks(all, targets));
    expect(broken.map((b) => b.kind === 'path' && b.resolved)).toEqual(['/gone/']);
  });

  it("takes a kept page's links to kept pages as they passed, and checks those to a page rendered again", () => {
    // /c/ has none of the ids the kept pages' fragments name: a full check reports 1,000 of them, but
    // with /c/ kept too they passed against the /c/ the last build had, and are not checked again.
    const c: PageLinks = { page: '/c/', source: null, links: [] };
    const all = [...kept, c, changed];
    expect(brokenLinks(all, targets).length).toBe(1001);
    expect(brokenLinks(all, targets, undefined, (p) => p !== changed).map((b) => b.kind)).toEqual(['path']);
    // /c/ rendered again: every fragment link to it is checked.
    const again = brokenLinks(all, targets, undefined, (p) => p !== changed && p !== c);
    expect(again.map((b) => (b.kind === 'fragment' ? b.uses.length : b.resolved))).toEqual(['/gone/', ...kept.map(() => 1)]);
  });

  it('with the targets the kept pages passed against, looks up none of their links to paths but fragments and image variants', () => {
    // /x/ answers no target: kept pages that link it passed against other targets, which a digest that
    // differs tells (every link then looked up); with the same targets it is not looked up again.
    const variant = '/assets/img/0123456789abcdef012345/photo-400.webp';
    const c: PageLinks = { page: '/c/', source: null, links: [] };
    const old: PageLinks[] = [{ page: '/k1/', source: null, links: ['/x/', '/a/'] }, { page: '/k2/', source: null, links: [variant] }];
    const all = [...old, ...kept.slice(0, 3), c, changed];
    const passed = (p: PageLinks) => p !== changed && p !== c;
    const paths = (same: boolean) => brokenLinks(all, targets, undefined, passed, same).map((b) => (b.kind === 'path' ? b.resolved : `${b.target}#${b.fragment}`));
    expect(paths(false)).toEqual(['/x/', variant, '/gone/', '/c/#p0', '/c/#p1', '/c/#p2']);
    expect(paths(true)).toEqual([variant, '/gone/', '/c/#p0', '/c/#p1', '/c/#p2']);
  });
});
