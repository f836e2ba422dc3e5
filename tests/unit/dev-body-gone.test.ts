// `sitegen dev` takes Markdown bodies from the content cache a build left; a big site's bodies wait in files
// of .sitegen/cache/bodies (content/diskBody.ts). Another `sitegen build` of the same site while dev runs
// prunes the bodies files its own content cache no longer names: dev must then parse those files again
// from their sources, not fail on a file that is gone.
// SITEGEN_DISK_BODIES_MIN=0 keeps the bodies of this small site on disk, as a big site's are.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { type TestSite } from '../helpers/site.ts';
import { siteFrom } from '../helpers/scratch.ts';
import { createContentStore } from '../../src/content/liveContent.ts';
import { openContentCache } from '../../src/content/contentCache.ts';
import { closeBodies } from '../../src/content/diskBody.ts';
import { loadSiteModule } from '../../src/site/index.ts';

const CONFIG = `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Post } from './templates/pages.tsx';

export default defineConfig({
  site: { title: 'Gone', url: 'https://gone.example' },
  collections: { posts: { pattern: 'posts/*.md', schema: z.strictObject({ title: z.string() }) } },
  routes: (c) => c.posts.map((p) => ({ path: '/' + p.slug, component: Post, props: { html: p.html }, title: p.data.title, source: p.file })),
});
`;
const PAGES = `export function Post({ html }: { html: string }) { return <div dangerouslySetInnerHTML={{ __html: html }} />; }
`;
const post = (i: number) => `---\ntitle: "Post ${i}"\n---\nThe body of post ${i}.\n\n## Heading ${i}\n\nMore text.\n`;

let site: TestSite;
afterEach(() => site?.remove());

describe('dev after a build pruned the bodies files it found', () => {
  it('parses those files again from their sources and shows their bodies', async () => {
    const files: Record<string, string> = { 'sitegen.config.ts': CONFIG, 'templates/pages.tsx': PAGES };
    for (let i = 0; i < 4; i++) files[`content/posts/post-${i}.md`] = post(i);
    site = await siteFrom(files);
    const r = await site.build({ env: { SITEGEN_DISK_BODIES_MIN: '0' } });
    expect(r.errors).toEqual([]);
    const bodies = path.join(site.root, '.sitegen/cache/bodies');
    expect(fs.readdirSync(bodies).length).toBeGreaterThan(0);

    const { site: module, errors } = await loadSiteModule(site.root);
    expect(errors).toEqual([]);
    const store = await createContentStore(site.root, await openContentCache(site.root));
    try {
      await store.configure(module!.config);
      expect(store.errors()).toEqual([]);
      // A build of the same site in another process prunes the bodies files (here: all of them), while dev
      // holds none open (it keeps a few open at a time: a big site's others are closed).
      for (const f of fs.readdirSync(bodies)) fs.rmSync(path.join(bodies, f));
      closeBodies();
      // The config changes: dev validates every file again, from the content cache it opened at start.
      await store.configure({ ...module!.config, site: { ...module!.config.site, title: 'Gone again' } });
      expect(store.errors()).toEqual([]);
      const posts = (store.content.posts as { slug: string; html: string; headings: { text: string }[] }[]).slice().sort((a, b) => a.slug.localeCompare(b.slug));
      expect(posts.map((p) => p.html)).toEqual([0, 1, 2, 3].map((i) => expect.stringContaining(`The body of post ${i}.`)));
      expect(posts.map((p) => p.headings.map((h) => h.text))).toEqual([0, 1, 2, 3].map((i) => [`Heading ${i}`]));
    } finally {
      await store.close();
    }
  }, 60_000);
});
