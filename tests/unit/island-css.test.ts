// CSS an island imports (import './Counter.css'), as Vite and Astro take it: bundled and linked on the
// pages after the site's own stylesheets, in build and dev. It was bundled into dist/ and linked nowhere,
// so an island's styles never applied, with no word.
import { describe, expect, it } from 'vitest';
import { copyOf } from '../helpers/scratch.ts';

const sheets = (html: string) => [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);

describe('CSS imported by an island', () => {
  it('is linked on the pages after the site\'s stylesheet, in build and dev', async () => {
    const site = await copyOf('basic', { 'templates/islands/Counter.css': '.counter-from-island { color: #b00 }\n' });
    try {
      site.edit('templates/islands/Counter.tsx', (t) => `import './Counter.css';\n${t}`);
      const build = await site.build();
      expect(build.errors).toEqual([]);
      for (const page of ['index.html', 'items/alpha/index.html']) {
        const links = sheets(build.read(page));
        expect(links, page).toHaveLength(2);
        expect(links[0]).toMatch(/^\/assets\/site-[A-Z0-9]+\.css$/);
        expect(build.read(links[1]!.slice(1))).toContain('.counter-from-island{color:#b00}');
      }
      // Once: esbuild's copy of it as the island chunk's own stylesheet, which nothing links, is not published.
      const withIt = Object.entries(build.output()).filter(([f, text]) => f.endsWith('.css') && text.includes('counter-from-island'));
      expect(withIt.map(([f]) => f)).toEqual([sheets(build.read('index.html'))[1]!.slice(1)]);
      const dev = await site.dev();
      try {
        const links = sheets(await (await fetch(`${dev.url}/`)).text());
        expect(links).toHaveLength(2);
        expect(await (await fetch(dev.url + links[1])).text()).toContain('counter-from-island');
      } finally { await dev.close(); }
    } finally { site.remove(); }
  });

  it('leaves a root-relative url() in the site\'s CSS as a file of static/, under the base; a relative one is bundled', async () => {
    const site = await copyOf('basic');
    try {
      site.edit('templates/site.css', (t) => `${t}.logo { background: url(/favicon.svg) no-repeat; }\n.mark { background: url("../static/favicon.svg"); }\n`);
      const plain = await site.build();
      expect(plain.errors).toEqual([]);
      const css = plain.read(sheets(plain.read('index.html'))[0]!.slice(1));
      expect(css).toContain('url(/favicon.svg)');
      expect(css).toMatch(/url\("?\/assets\/favicon-[A-Z0-9]+\.svg"?\)/);
      // A file static/ does not have: the bundle's error at the stylesheet's line.
      site.edit('templates/site.css', (t) => t.replace('url(/favicon.svg)', 'url(/favicon.sgv)'));
      const missing = await site.build();
      expect(missing.errors.map((e) => [e.id, e.location?.file, e.text])).toEqual([['BundleError', 'templates/site.css', 'url(/favicon.sgv) names static/favicon.sgv, which does not exist (a root-relative url() is a file of static/; a relative one is bundled)']]);
    } finally { site.remove(); }
    // Under a base (a blog served at /blog/): the URL as served.
    const blog = await copyOf('base-blog');
    try {
      blog.edit('templates/site.css', (t) => `${t}.logo { background: url(/favicon.svg) no-repeat; }\n`);
      const based = await blog.build();
      expect(based.errors).toEqual([]);
      expect(based.read(sheets(based.read('index.html'))[0]!.replace('/blog/', ''))).toContain('url(/blog/favicon.svg)');
    } finally { blog.remove(); }
  });
});
