// The plugin hooks the engine calls while it builds (src/site/plugins.ts): `head` adds tags to every page's
// <head> (rendered and escaped by the engine), `outputs` adds files that `build` writes and `dev` serves,
// which count as link targets. The same site through both commands gives the same pages.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sitegen } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { copyFixture, editFile, removeCopy } from './dev-fixture.ts';
import { withoutAssetHashes } from '../helpers/html.ts';
import { hostOf } from '../helpers/devHost.ts';

let dir = '';
afterEach(() => { if (dir) removeCopy(dir); dir = ''; });

const PLUGIN = `plugins: [{
    name: 'seo',
    head: (route) => [
      { tag: 'meta', attrs: { name: 'x-route', content: route.path } },
      { tag: 'jsonld', data: { '@type': 'WebPage', name: '</script><script>alert(1)</script>' } },
    ],
    outputs: ({ routes, siteUrl, mode }) => [{ path: OUT_PATH, contents: \`<feed mode="\${mode}">\${routes.map((r) => siteUrl + r.path).join(' ')}</feed>\` }],
  }],
  validate:`;

function siteWithPlugin(outPath = 'feed.xml'): string {
  const root = copyFixture('basic');
  editFile(root, 'sitegen.config.ts', (t) => t.replace('validate:', PLUGIN.replace('OUT_PATH', JSON.stringify(outPath))));
  // A link to the plugin's file: the link check must know it exists.
  editFile(root, 'templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', '<footer><a href="/feed.xml">feed</a></footer>'));
  return root;
}

describe('plugin head and outputs hooks', () => {
  it('build writes the extra file and the head tags (JSON-LD escaped); dev serves the same', async () => {
    dir = siteWithPlugin();
    const r = await siteAt(dir).build();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'dist/feed.xml'), 'utf8')).toBe('<feed mode="build">https://fixture.example/ https://fixture.example/items/alpha/ https://fixture.example/items/beta/ https://fixture.example/about/ https://fixture.example/404</feed>');
    const home = fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8');
    expect(home).toContain('<meta name="x-route" content="/"/>');
    expect(home).toContain('<script type="application/ld+json">{"@type":"WebPage","name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"}</script>');
    expect(home).not.toContain('<script>alert(1)');

    const site = await createDevSite({ root: dir });
    try {
      expect((await site.start()).errors).toEqual([]);
      const host = await hostOf(site);
      try { expect(await host.text('/feed.xml')).toContain('<feed mode="dev">https://fixture.example/ '); } finally { await host.close(); }
      for (const [file, page] of site.output.pages) expect(withoutAssetHashes(page.html), file).toBe(withoutAssetHashes(fs.readFileSync(path.join(dir, 'dist', file), 'utf8')));
    } finally { await site.close(); }
  }, 60_000);

  it('an output that would replace a page is an error in build and dev', async () => {
    dir = siteWithPlugin('index.html');
    const r = await siteAt(dir).build();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('plugin "seo" writes index.html, which a page writes too');
    const site = await createDevSite({ root: dir });
    try {
      const report = await site.start();
      expect(report.errors.map((e) => e.text)).toEqual(['plugin "seo" writes index.html, which a page writes too']);
    } finally { await site.close(); }
  }, 60_000);
});
