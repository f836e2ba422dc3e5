// What a one-file build keeps from the builds before so that its work follows the change: entries its
// schemas passed before (validated again when a schema changes), each content file's stamp as the build
// first took it, page keys that take a long string by its digest, and a patched output's stamps for the
// files the patch did not touch. Each case ends with the output a clean build makes.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { siteAt, type TestSite } from '../helpers/site.ts';
import { warmCopies } from '../helpers/warmCopies.ts';
import { cleanBuilder } from '../helpers/cleanBuild.ts';
import { stamps, written } from '../helpers/outputStamps.ts';

// Each test has the fixture as committed, at one path (its first build reuses the compile: tests/helpers/warmCopies.ts).
const copies = warmCopies('basic');
let site: TestSite;
afterAll(() => copies.remove());

async function buildOk() {
  const r = await site.build();
  expect(r.errors).toEqual([]);
  return r;
}

// A clean build of the site as it is now: no output, content, page or build-record cache before it, and
// a compile from nothing whenever the site's code differs from the last clean build's (tests/helpers/cleanBuild.ts).
const cleanBuild = cleanBuilder(siteAt(copies.root));

/** The output a clean build makes of the site as it is now. */
async function clean(): Promise<Record<string, string>> {
  const r = await cleanBuild();
  expect(r.errors).toEqual([]);
  return r.output();
}

/** Rewrites a file and gives it the mtime `at` (seconds since the epoch). */
function rewrite(rel: string, change: (t: string) => string, at: number) {
  site.edit(rel, change);
  fs.utimesSync(path.join(site.root, rel), at, at);
}

describe('entries validated by an earlier build', () => {
  beforeEach(async () => { site = await copies.next(); });

  it('a schema change validates every entry again and reports one it no longer accepts, located', async () => {
    await buildOk();
    // A build served from the cache, its entries marked as passed by these schemas.
    site.edit('content/pages/about.md', (t) => `${t}\nMore.\n`);
    await buildOk();
    site.edit('sitegen.config.ts', (t) => t.replace('price: z.number() }', 'price: z.number().max(2) }'));
    const r = await site.build();
    expect(r.code).toBe(1);
    expect(r.errors.map((e) => [e.id, e.location?.file, e.location?.line, e.location?.column, e.field])).toEqual([
      ['ContentSchemaError', 'content/items/alpha.yaml', 3, 8, 'price'],
      ['ContentSchemaError', 'content/items/beta.yaml', 5, 8, 'price'],
    ]);
    // Back to the schema the marks were made under: the entries pass, the output is a clean build's.
    site.edit('sitegen.config.ts', (t) => t.replace('price: z.number().max(2) }', 'price: z.number() }'));
    expect((await buildOk()).output()).toEqual(await clean());
  }, 90_000);

  it("an entry whose schema transforms its data is not validated again while the schemas are the same: the output kept is its data", async () => {
    // The schema logs each run of its transform, and gives a date and an upper-case title.
    const log = path.join(site.root, 'schema-runs.log');
    const runs = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0);
    site.edit('sitegen.config.ts', (t) => `import { appendFileSync } from 'node:fs';\n${t.replace(
      'title: z.string().min(1), tags',
      `title: z.string().min(1).transform((s) => { appendFileSync(${JSON.stringify(log)}, s + '\\n'); return s.toUpperCase(); }), added: z.coerce.date().default(new Date(Date.UTC(2024, 1, 3))), tags`,
    ).replace('props: { items: c.items.map((i) => ({ slug: i.slug, title: i.data.title })) }', 'props: { items: c.items.map((i) => ({ slug: i.slug, title: `${i.data.title} ${i.data.added.toISOString().slice(0, 10)}` })) }')}`);
    const first = await buildOk();
    expect(first.read('index.html')).toContain('ALPHA 2024-02-03');
    expect(runs()).toBe(2);
    // Another file edited: both items come from the cache with their kept outputs (a Date among them).
    site.edit('content/pages/about.md', (t) => `${t}\nMore.\n`);
    const second = await buildOk();
    expect(runs()).toBe(2);
    expect(second.output()).toEqual(await clean()); // (a clean build runs the schema twice more)
    // The item edited is validated again; a schema edit validates every one again.
    site.edit('content/items/alpha.yaml', (t) => `${t}\n`);
    let before = runs();
    await buildOk();
    expect(runs() - before).toBe(1);
    site.edit('sitegen.config.ts', (t) => t.replace('price: z.number() }', 'price: z.number().min(0) }'));
    before = runs();
    const third = await buildOk();
    expect(runs() - before).toBe(2);
    expect(third.output()).toEqual(await clean());
  }, 90_000);

  it('an entry edited at the same mtime with another size, or at the same size with an mtime 1 ms on, is read again', async () => {
    const at = 1_735_689_600; // a whole second, so the mtime can be put back exactly
    fs.utimesSync(path.join(site.root, 'content/items/alpha.yaml'), at, at);
    await buildOk();
    rewrite('content/items/alpha.yaml', (t) => t.replace('title: Alpha', 'title: Alpha two'), at);
    let r = await buildOk();
    expect(r.read('items/alpha/index.html')).toContain('<h1>Alpha two</h1>');
    rewrite('content/items/alpha.yaml', (t) => t.replace('title: Alpha two', 'title: Alpha six'), at + 0.001);
    r = await buildOk();
    expect(r.read('items/alpha/index.html')).toContain('<h1>Alpha six</h1>');
    // Now invalid at the same size and with the mtime 1 ms on again: reported, not taken as validated.
    rewrite('content/items/alpha.yaml', (t) => t.replace('price: 3', 'price: x'), at + 0.002);
    r = await site.build();
    expect(r.errors.map((e) => [e.id, e.location?.file, e.field])).toEqual([['ContentSchemaError', 'content/items/alpha.yaml', 'price']]);
  }, 90_000);
});

describe('pages after a one-file change', () => {
  it("a page whose props carry another entry's body is written again when that body changes at the same length", async () => {
    const body = `${'A paragraph long enough that the page HTML is well past the length at which a key takes a string by its digest. '.repeat(4)}\n\nThe word is alpha.\n`;
    site = await copies.next({ 'content/pages/about.md': `---\ntitle: About\n---\n${body}` });
    // The home page shows nothing of it, but has the about page's HTML among its props.
    site.edit('sitegen.config.ts', (t) => t.replace("props: { items: c.items.map", "props: { about: c.pages[0].html, items: c.items.map"));
    const first = await buildOk();
    const before = stamps(first.outDir);
    site.edit('content/pages/about.md', (t) => t.replace('The word is alpha.', 'The word is gamma.'));
    const r = await buildOk();
    expect(written(before, stamps(r.outDir))).toEqual(['about/index.html', 'index.html']);
    expect(r.output()).toEqual(await clean());
  }, 90_000);

  it("a deleted entry's page and alias go, and the patched output is checked file for file by the next builds", async () => {
    site = await copies.next();
    const first = await buildOk();
    const before = stamps(first.outDir);
    fs.rmSync(path.join(site.root, 'content/items/beta.yaml'));
    let r = await buildOk();
    expect(fs.existsSync(path.join(r.outDir, 'items/beta'))).toBe(false);
    expect(fs.existsSync(path.join(r.outDir, 'old/beta'))).toBe(false);
    // Patched in place: the pages of the items that stay were not written again.
    expect(written(before, stamps(r.outDir))).not.toContain('items/alpha/index.html');
    expect(r.output()).toEqual(await clean());
    // Nothing changed since: up to date.
    expect((await buildOk()).result.cached).toEqual(['up to date']);
    // A file the patch did not touch, changed by hand at the same size: seen, and put back.
    const alpha = path.join(r.outDir, 'items/alpha/index.html');
    const text = fs.readFileSync(alpha, 'utf8');
    fs.writeFileSync(alpha, text.replace('<h1>Alpha</h1>', '<h1>Alphb</h1>'));
    r = await buildOk();
    expect(r.result.cached).not.toContain('up to date');
    expect(r.output()).toEqual(await clean());
    // A stray file in a folder the patch did not touch: seen, and removed.
    fs.writeFileSync(path.join(r.outDir, 'items', 'stray.html'), 'not the build\'s');
    r = await buildOk();
    expect(r.output()).toEqual(await clean());
  }, 90_000);
});
