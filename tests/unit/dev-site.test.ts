// The dev engine in process, on a copy of the basic fixture: what each kind of change re-renders, how
// problems are reported (located, like a build's), and that the last good site stays served meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createDevSite, type DevSite, type RebuildReport } from '../../src/dev/devSite.ts';
import { copyFixture, editFile, removeCopy } from './dev-fixture.ts';
import { hostOf, type DevHostClient } from '../helpers/devHost.ts';

let dir: string;
let site: DevSite;
// Pages as the dev server serves them: through the host preview uses, over the in-memory output.
let host: DevHostClient;

const text = (pathname: string) => host.text(pathname);
const html = text;
async function change(rel: string, edit: (t: string) => string): Promise<RebuildReport> {
  editFile(dir, rel, edit);
  return (await site.apply([{ file: path.join(dir, rel), kind: 'change' }]))!;
}

beforeAll(async () => {
  dir = copyFixture('basic');
  site = await createDevSite({ root: dir });
  host = await hostOf(site);
});
afterAll(async () => {
  await host?.close();
  await site?.close();
  removeCopy(dir);
});

describe('sitegen dev engine', () => {
  it('builds every page in memory and writes no dist/', async () => {
    const r = await site.start();
    expect(r.errors).toEqual([]);
    expect(r.committed).toBe(true);
    expect(r.rendered).toBe(5);
    expect(r.changed).toEqual(['*']);
    expect(await html('/items/alpha/')).toContain('<h1>Alpha</h1>');
    expect((await host.get('/sitemap.xml')).status).toBe(200);
    expect((await host.get('/')).headers['content-security-policy']).toBeTruthy();
    const moved = await host.get('/old/alpha/');
    expect([moved.status, moved.headers.location]).toEqual([301, '/items/alpha/']);
    expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);
  });

  it('re-renders only the route whose props changed', async () => {
    const r = await change('content/items/alpha.yaml', (t) => t.replace('price: 3', 'price: 4'));
    expect(r.errors).toEqual([]);
    expect(r.rendered).toBe(1);
    expect(r.changed).toEqual(['/items/alpha/']);
    expect(await html('/items/alpha/')).toContain('$4');
  });

  it('re-renders an index whose props use the changed field too', async () => {
    const r = await change('content/items/alpha.yaml', (t) => t.replace('title: Alpha', 'title: Alpha Two'));
    expect(r.changed.sort()).toEqual(['/', '/items/alpha/']);
    expect(await html('/')).toContain('Alpha Two');
  });

  it('reports a schema error at its line and keeps serving the last good page', async () => {
    const before = await html('/items/alpha/');
    const r = await change('content/items/alpha.yaml', (t) => t.replace('price: 4', 'price: four'));
    expect(r.committed).toBe(false);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].location).toMatchObject({ file: 'content/items/alpha.yaml', line: 3 });
    expect(r.errors[0].field).toBe('price');
    expect(await html('/items/alpha/')).toBe(before);
    const fixed = await change('content/items/alpha.yaml', (t) => t.replace('price: four', 'price: 6'));
    expect(fixed.errors).toEqual([]);
    expect(await html('/items/alpha/')).toContain('$6');
  });

  it('reports a YAML syntax error, then recovers', async () => {
    const r = await change('content/items/beta.yaml', (t) => t.replace('tags:', 'tags: [c,\n'));
    expect(r.errors[0].id).toBe('YamlSyntaxError');
    expect(r.errors[0].location?.file).toBe('content/items/beta.yaml');
    const fixed = await change('content/items/beta.yaml', (t) => t.replace('tags: [c,\n', 'tags:'));
    expect(fixed.errors).toEqual([]);
  });

  it('reports a broken link in Markdown at its line, then recovers', async () => {
    const r = await change('content/pages/about.md', (t) => t.replace('(/items/alpha/)', '(/items/gamma/)'));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].id).toBe('BrokenLink');
    expect(r.errors[0].location).toMatchObject({ file: 'content/pages/about.md', line: 7 });
    const fixed = await change('content/pages/about.md', (t) => t.replace('(/items/gamma/)', '(/items/alpha/)'));
    expect(fixed.errors).toEqual([]);
  });

  it('re-renders every page after a template change, and reports a template that throws', async () => {
    const r = await change('templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', '<footer>new footer</footer>'));
    expect(r.errors).toEqual([]);
    expect(r.rendered).toBe(5);
    expect(await html('/about/')).toContain('new footer');
    const bad = await change('templates/pages.tsx', (t) => t.replace('return (<><h1>{title}</h1><p>', 'if (price > 5) throw new Error("too dear");\n  return (<><h1>{title}</h1><p>'));
    expect(bad.committed).toBe(false);
    expect(bad.errors.map((e) => e.id)).toEqual(['RenderError']);
    expect(bad.errors[0].location).toMatchObject({ file: 'templates/pages.tsx' });
    expect(bad.errors[0].text).toContain('too dear');
    expect(await html('/items/alpha/')).toContain('$6');
    const fixed = await change('templates/pages.tsx', (t) => t.replace('if (price > 5) throw new Error("too dear");\n  ', ''));
    expect(fixed.errors).toEqual([]);
  });

  it('adds and removes pages with their files', async () => {
    fs.writeFileSync(path.join(dir, 'content/items/gamma.yaml'), 'title: Gamma\ntags: [e, f]\nprice: 7\n');
    const added = (await site.apply([{ file: path.join(dir, 'content/items/gamma.yaml'), kind: 'add' }]))!;
    expect(added.errors).toEqual([]);
    expect(added.changed).toEqual(expect.arrayContaining(['/', '/items/gamma/', '/old/gamma/']));
    expect(await html('/items/gamma/')).toContain('Gamma');
    fs.rmSync(path.join(dir, 'content/items/gamma.yaml'));
    const removed = (await site.apply([{ file: path.join(dir, 'content/items/gamma.yaml'), kind: 'unlink' }]))!;
    expect(removed.errors).toEqual([]);
    expect((await host.get('/items/gamma/')).status).toBe(404);
  });

  it('serves a changed static file at once and ignores unrelated files', async () => {
    fs.writeFileSync(path.join(dir, 'static/robots.txt'), 'User-agent: *\nDisallow: /\n');
    const r = (await site.apply([{ file: path.join(dir, 'static/robots.txt'), kind: 'add' }]))!;
    expect(r.assets).toEqual(['/robots.txt']);
    expect(await text('/robots.txt')).toContain('Disallow: /');
    expect(await site.apply([{ file: path.join(dir, 'README.md'), kind: 'change' }, { file: path.join(dir, 'content/.x.yaml.swp'), kind: 'change' }])).toBeNull();
  });

  it('rebundles a stylesheet change under the same URL, so no page re-renders', async () => {
    // Dev stylesheets carry no hash in their URL: open pages swap them in place (src/dev/hmr.ts).
    const before = await html('/');
    expect(before).toContain('href="/assets/site.css"');
    const r = await change('templates/site.css', (t) => `${t}\nmain { color: red }\n`);
    expect(r.errors).toEqual([]);
    expect(r.changed).toEqual([]);
    expect(r.rendered).toBe(0);
    expect(await html('/')).toBe(before);
    expect(await text('/assets/site.css')).toContain('red');
  });

  it('rebundles an island edit through the kept context: new server HTML and a new chunk', async () => {
    const oldRuntime = (await html('/'))!.match(/\/assets\/runtime-\w+\.js/)![0];
    const r = await change('templates/islands/Counter.tsx', (t) => t.replace('<span id={id}>{label}</span>', '<span id={id}>{label}!</span>'));
    expect(r.errors).toEqual([]);
    expect(await html('/')).toContain('Clicks<!-- -->!</span>');
    const runtime = (await html('/'))!.match(/\/assets\/runtime-\w+\.js/)![0];
    expect(runtime).not.toBe(oldRuntime);
    expect(await text(runtime)).toBeTruthy();
    // A page loaded just before the rebuild can still fetch what it links.
    expect(await text(oldRuntime)).toBeTruthy();
  });
});
