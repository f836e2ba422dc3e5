// og:image follows the link policy: a route's ogImage or the site's that a browser or a link preview would
// run as javascript:, vbscript: or data: (typed in any case, after spaces, or as character references) is a
// located error, as a Markdown link to one is, and the page is never written with it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.ts';
import { formatMessage } from '../../src/core/errors.ts';
import { routeContent } from '../../src/pipeline/routes.ts';
import type { Content, RouteDef, SiteConfig } from '../../src/core/types.ts';
import { editFile } from './dev-fixture.ts';
import { copyFixture, removeCopy } from '../helpers/scratch.ts';

let dir: string;
beforeAll(() => { dir = copyFixture('basic'); });
afterAll(() => removeCopy(dir));

async function buildWith(edit: (t: string) => string) {
  const original = fs.readFileSync(path.join(dir, 'sitegen.config.ts'), 'utf8');
  editFile(dir, 'sitegen.config.ts', edit);
  try { return await build({ root: dir }); } finally { fs.writeFileSync(path.join(dir, 'sitegen.config.ts'), original); }
}

describe('og:image and the link policy', () => {
  it('a safe og:image (site path, https URL) is written absolute', async () => {
    const r = await buildWith((t) => t.replace("favicon: '/favicon.svg' }", "favicon: '/favicon.svg', ogImage: '/favicon.svg' }")
      .replace("source: i.file, aliases", "source: i.file, ogImage: 'https://cdn.example/i.png', aliases"));
    expect(r.errors).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8')).toContain('<meta property="og:image" content="https://fixture.example/favicon.svg"/>');
    expect(fs.readFileSync(path.join(dir, 'dist/items/alpha/index.html'), 'utf8')).toContain('<meta property="og:image" content="https://cdn.example/i.png"/>');
  });
  for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'jav&#x61;script&colon;alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)']) {
    it(`a route's ogImage ${JSON.stringify(bad)} is an error where routes() makes the route, naming its source; dist/ is untouched`, async () => {
      const before = fs.readFileSync(path.join(dir, 'dist/items/alpha/index.html'), 'utf8');
      const r = await buildWith((t) => t.replace("source: i.file, aliases", `source: i.file, ogImage: ${JSON.stringify(bad)}, aliases`));
      expect(r.errors.length).toBeGreaterThan(0);
      const m = r.errors[0];
      expect(m.location?.file).toBe('sitegen.config.ts');
      expect(m.notes.map((n) => n.text)).toEqual(['the route of content/items/alpha.yaml']);
      expect(formatMessage(m)).toMatch(/ogImage .* is a (javascript|vbscript|data): URL, which is not allowed/);
      expect(fs.readFileSync(path.join(dir, 'dist/items/alpha/index.html'), 'utf8')).toBe(before);
    });
  }
  it("an ogImage that names no file of static/, or is not written from the root, is an error at its key or route", async () => {
    const missing = await buildWith((t) => t.replace("favicon: '/favicon.svg' }", "favicon: '/favicon.svg', ogImage: '/og.png' }"));
    expect(missing.errors.map((e) => [e.id, e.text, e.location?.file])).toEqual([['ConfigError', 'site.ogImage is /og.png, but static/og.png does not exist', 'sitegen.config.ts']]);
    const relative = await buildWith((t) => t.replace("favicon: '/favicon.svg' }", "favicon: '/favicon.svg', ogImage: 'og.png' }"));
    expect(relative.errors.map((e) => formatMessage(e))).toEqual([expect.stringContaining('Config "site.ogImage" must be a site path from the root ("/og.png") or an absolute http(s) URL')]);
    // A query (a preview's cache-buster) and a %-encoded name name the file without them.
    fs.writeFileSync(path.join(dir, 'static/my og.png'), 'x');
    try {
      const query = await buildWith((t) => t.replace("favicon: '/favicon.svg' }", "favicon: '/favicon.svg', ogImage: '/my%20og.png?v=2' }"));
      expect(query.errors).toEqual([]);
    } finally { fs.rmSync(path.join(dir, 'static/my og.png')); }
    // A file a plugin writes is there too.
    const plugin = await buildWith((t) => t.replace("favicon: '/favicon.svg' }", "favicon: '/favicon.svg', ogImage: '/og/site.png' }")
      .replace('  css:', "  plugins: [{ name: 'og', outputs: () => [{ path: 'og/site.png', contents: new Uint8Array([1]) }] }],\n  css:"));
    expect(plugin.errors).toEqual([]);
    // Written with the site's base, which the build adds: the hint says so.
    const based = await buildWith((t) => t.replace("favicon: '/favicon.svg' }", "favicon: '/favicon.svg', base: '/docs/', ogImage: '/docs/favicon.svg' }"));
    expect(based.errors.filter((e) => e.text.startsWith('site.ogImage')).map((e) => e.hint)).toEqual(['Write it without site.base, which the build adds: /favicon.svg.']);
    const route = await buildWith((t) => t.replace("source: i.file, aliases", "source: i.file, ogImage: '/img/share.png', aliases"));
    expect(route.errors.map((e) => [e.text, e.location?.file, e.notes[0]?.text])).toEqual([
      ['route /items/alpha/ has ogImage /img/share.png, but static/img/share.png does not exist', 'sitegen.config.ts', 'the route of content/items/alpha.yaml'],
      ['route /items/beta/ has ogImage /img/share.png, but static/img/share.png does not exist', 'sitegen.config.ts', 'the route of content/items/beta.yaml'],
    ]);
    // Read from the content file, it is located there, at the value; one beside the file, or under static/ by
    // the folder's name, is told how a site path names it.
    fs.writeFileSync(path.join(dir, 'content/items/alpha.yaml'), fs.readFileSync(path.join(dir, 'content/items/alpha.yaml'), 'utf8') + 'cover: ./cover.jpg\n');
    fs.writeFileSync(path.join(dir, 'content/items/beta.yaml'), fs.readFileSync(path.join(dir, 'content/items/beta.yaml'), 'utf8') + 'cover: static/img/b.png\n');
    fs.writeFileSync(path.join(dir, 'content/items/beside.png'), 'x');
    try {
      const front = await buildWith((t) => t.replace('price: z.number() })', 'price: z.number(), cover: z.string() })').replace("source: i.file, aliases", 'source: i.file, ogImage: i.data.cover, aliases'));
      expect(front.errors.map((e) => [formatMessage(e), e.notes.length])).toEqual([
        ['content/items/alpha.yaml:4:8 route /items/alpha ogImage "./cover.jpg" must be a site path from the root or an absolute http(s) URL: a path from a content file (an image beside it) is not one, and such an image is not published as it is; declare its field with imageFile() and give ogImage the field\'s value, or put it in static/ and name it by its path there (static/img/cover.jpg is "/img/cover.jpg")', 0],
        ['content/items/beta.yaml:6:8 route /items/beta ogImage "static/img/b.png" must be a site path from the root: a file of static/ is named by its path below static/ ("/img/b.png")', 0],
      ]);
      // A bare name of a file beside the content file is told the same as a ./ one.
      fs.writeFileSync(path.join(dir, 'content/items/alpha.yaml'), fs.readFileSync(path.join(dir, 'content/items/alpha.yaml'), 'utf8').replace('cover: ./cover.jpg', 'cover: beside.png'));
      const bare = await buildWith((t) => t.replace('price: z.number() })', 'price: z.number(), cover: z.string() })').replace("source: i.file, aliases", 'source: i.file, ogImage: i.data.cover, aliases'));
      expect(formatMessage(bare.errors[0]!)).toContain('route /items/alpha ogImage "beside.png" must be a site path from the root or an absolute http(s) URL: a path from a content file (an image beside it) is not one');
    } finally {
      fs.rmSync(path.join(dir, 'content/items/beside.png'), { force: true });
      for (const f of ['alpha', 'beta']) fs.writeFileSync(path.join(dir, `content/items/${f}.yaml`), fs.readFileSync(path.join(dir, `content/items/${f}.yaml`), 'utf8').replace(/cover: .*\n/, ''));
    }
  });

  it("the site's ogImage with a javascript: URL is an error at the key in sitegen.config.ts", async () => {
    const r = await buildWith((t) => t.replace("favicon: '/favicon.svg' }", "favicon: '/favicon.svg', ogImage: 'javascript:alert(1)' }"));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].location).toMatchObject({ file: 'sitegen.config.ts', line: 9 });
    expect(formatMessage(r.errors[0])).toContain('Config "site.ogImage" is a javascript: URL, which is not allowed');
  });
  it('in dev, a route table reused across edits still refuses an ogImage changed to javascript:', () => {
    const config = { site: { title: 't', url: 'https://x.test' }, collections: {}, routes: () => defs } as unknown as SiteConfig;
    const Page = () => null;
    let defs: RouteDef[] = [{ path: '/a', component: Page, props: {}, title: 'a', source: 'content/a.md', ogImage: '/a.png' }];
    const first = routeContent({} as Content, config, '', null);
    expect(first.table.errors).toEqual([]);
    defs = [{ ...defs[0], ogImage: 'javascript:alert(1)' }];
    const next = routeContent({} as Content, config, '', first);
    expect(next.table.errors.map(formatMessage)).toEqual([expect.stringContaining('is a javascript: URL')]);
    expect(next.table.routes).toEqual([]);
  });
});
