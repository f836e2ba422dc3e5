// The Markdown features through the real pipeline: a site that opts in with markdown({...}) in
// sitegen.config.ts gets the same HTML from a build (in-process and on render workers) and from dev, and a
// warm build takes the highlighted HTML from the content cache instead of highlighting again.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sitegen } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { editFile } from './dev-fixture.ts';
import { copyFixture, removeCopy } from '../helpers/scratch.ts';
import { expectSameOnWorkersAndInDev } from '../helpers/sameEverywhere.ts';
import { openContentCache, saveContentCache } from '../../src/content/contentCache.ts';
import { configureEngine } from '../../src/core/settings.ts';

let dir = '';
afterEach(() => { if (dir) removeCopy(dir); dir = ''; });

const BODY = `# Hello

Some "prose" with a note.[^1]

\`\`\`ts
const answer: number = 42;
\`\`\`

[^1]: The note.
`;

function siteWithFeatures(): string {
  const root = copyFixture('basic');
  editFile(root, 'sitegen.config.ts', (t) => t
    .replace("import { defineConfig, href } from 'sitegen-islands';", "import { defineConfig, href, markdown, type Entry } from 'sitegen-islands';")
    .replace('validate:', "plugins: [markdown({ headingIds: true, footnotes: true, smartQuotes: true, highlight: true })],\n  validate:"));
  editFile(root, 'content/pages/about.md', (t) => t.replace(/# Hello[\s\S]*/, BODY));
  return root;
}

const about = (root: string) => fs.readFileSync(path.join(root, 'dist/about/index.html'), 'utf8');

describe('markdown({...}) in a site', () => {
  it('build (in-process and on workers) and dev render the features alike', async () => {
    dir = siteWithFeatures();
    const r = await siteAt(dir).build({ quiet: true });
    expect(r.stderr).toBe('');
    const html = about(dir);
    expect(html).toContain('<h1 id="hello">Hello <a class="heading-anchor" href="#hello"');
    expect(html).toContain('Some “prose” with a note.<sup><a id="footnote-ref-1" href="#footnote-1"');
    expect(html).toContain('<pre class="language-ts"><code class="language-ts"><span class="token keyword">const</span> answer');
    expect(html).toContain('<section class="footnotes" data-footnotes>');

    await expectSameOnWorkersAndInDev(dir, 'about/index.html', html);
  }, 120_000);

  it('a warm build takes the highlighted HTML from the content cache (no second highlighting)', async () => {
    dir = siteWithFeatures();
    expect((await siteAt(dir).build({ quiet: true })).code).toBe(0);
    // Mark the cached HTML of about.md: if the warm build highlighted again, the mark would be gone.
    // (through the cache's own reader and writer: its chunks' layout is its own business)
    configureEngine();
    const cache = (await openContentCache(dir))!;
    let marked = 0;
    for (const [key, value] of cache) if (key.startsWith('pages/about.md') && value.html) { value.html = value.html.replace('answer', 'CACHED_answer'); marked++; }
    await saveContentCache(dir, cache);
    expect(marked).toBe(1);
    // Warm: the output removed, the caches kept (with dist/ in place and nothing changed, the build is skipped).
    fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
    expect((await siteAt(dir).build({ quiet: true })).code).toBe(0);
    expect(about(dir)).toContain('<span class="token keyword">const</span> CACHED_answer');
  }, 90_000);

  it('a #fragment link to an id that does not exist is a located error in build and dev; existing ids pass', async () => {
    dir = siteWithFeatures();
    editFile(dir, 'content/pages/about.md', (t) => t + '\nSee [hello](#hello), [home](/#top), [the item](/items/alpha/#missing)\nand [nowhere](#nowhere).\n');
    const r = await siteAt(dir).build();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('content/pages/about.md:15:48 page /about/ links to /items/alpha/#missing, but /items/alpha/ has no element with id "missing"');
    expect(r.stderr).toContain('content/pages/about.md:16:15 page /about/ links to #nowhere, but the page has no element with id "nowhere"');
    expect(r.stderr).not.toContain('links to #hello');
    expect(r.stderr).toContain('build failed with 2 errors');

    const site = await createDevSite({ root: dir });
    try {
      const errors = (await site.start()).errors.map((e) => `${e.location?.file}:${e.location?.line} ${e.text}`);
      expect(errors).toEqual([
        'content/pages/about.md:15 page /about/ links to /items/alpha/#missing, but /items/alpha/ has no element with id "missing"',
        'content/pages/about.md:16 page /about/ links to #nowhere, but the page has no element with id "nowhere"',
      ]);
      // Fixing the link in the page clears the error on the next pass.
      editFile(dir, 'content/pages/about.md', (t) => t.replace('/items/alpha/#missing', '/items/alpha/').replace('#nowhere', '#hello'));
      expect((await site.apply([{ file: 'content/pages/about.md', kind: 'change' }]))?.errors).toEqual([]);
    } finally { await site.close(); }
  }, 90_000);
});
