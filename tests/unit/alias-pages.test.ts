// `aliasPages: false`: aliases go to _redirects only (no meta-refresh page per alias) and still resolve
// as link targets; the default (true) keeps a page per alias, as the fixtures test checks.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { copyOf } from '../helpers/scratch.ts';

describe('aliasPages: false', () => {
  it('writes no alias pages, keeps the _redirects rules and accepts links to aliases', async () => {
    // A copy with the repository's node_modules linked in, so the site's islands resolve react.
    const site = await copyOf('basic');
    const root = site.root;
    try {
      const config = path.join(root, 'sitegen.config.ts');
      fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace("layout: Layout,", "layout: Layout,\n  aliasPages: false,"));
      // a link to an alias path: valid, although no file is written there
      fs.appendFileSync(path.join(root, 'content/pages/about.md'), '\nSee [the old item URL](/old/alpha/).\n');
      const r = await site.build();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/✓ 5 pages, 2 aliases, \d+ assets/);
      const dist = path.join(root, 'dist');
      expect(fs.existsSync(path.join(dist, 'old/alpha/index.html'))).toBe(false);
      expect(fs.existsSync(path.join(dist, 'old'))).toBe(false);
      const redirects = fs.readFileSync(path.join(dist, '_redirects'), 'utf8');
      expect(redirects).toContain('/old/alpha/ /items/alpha/ 301');
      expect(redirects).not.toContain('meta-refresh');
    } finally {
      site.remove();
    }
  });
});

describe('an alias that is an old URL of a file', () => {
  it('writes that file (Jekyll\'s /2024/01/05/hello.html), redirects it and accepts links to it', async () => {
    const site = await copyOf('basic');
    try {
      site.edit('sitegen.config.ts', (t) => t.replace('aliases: [`/old/${i.slug}`]', 'aliases: [`/old/${i.slug}`, `/2024/01/05/${i.slug}.html`]'));
      fs.appendFileSync(path.join(site.root, 'content/pages/about.md'), '\nSee [the old post](/2024/01/05/alpha.html).\n');
      const r = await site.build();
      expect(r.code, r.stderr).toBe(0);
      const page = r.read('2024/01/05/alpha.html');
      expect(page).toContain('<meta http-equiv="refresh" content="0; url=/items/alpha/">');
      expect(fs.existsSync(path.join(r.outDir, '2024/01/05/alpha.html/index.html'))).toBe(false);
      expect(r.read('_redirects')).toContain('/2024/01/05/alpha.html /items/alpha/ 301');
    } finally {
      site.remove();
    }
  });
});
