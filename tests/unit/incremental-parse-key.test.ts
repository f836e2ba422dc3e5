// A page's key names an entry whose body waits on disk by its parse's place alone (content/diskBody.ts
// bodyFields `parse`), as long as the entry is as its file's parse made it: a new parse of the file (a front
// matter or body edit) is a new place, so the page renders again. An entry that holds others (references,
// resolved into a copy) is walked field by field, so an edit to an entry it points at renders it again too.
// SITEGEN_DISK_BODIES_MIN=0 keeps the bodies of this small site on disk, as a big site's are.
import { afterEach, describe, expect, it } from 'vitest';
import { type TestSite } from '../helpers/site.ts';
import { siteFrom } from '../helpers/scratch.ts';
import { cleanBuilder } from '../helpers/cleanBuild.ts';
import { stamps, written } from '../helpers/outputStamps.ts';

// (the whole build's keys: a build after a body edit would otherwise be replayed, pipeline/replay.ts, tested in replay.test.ts)
const DISK = { SITEGEN_DISK_BODIES_MIN: '0', SITEGEN_REPLAY: '0' };

const CONFIG = `import { z } from 'zod';
import { defineConfig, reference } from 'sitegen-islands';
import { Post, Author } from './templates/pages.tsx';

export default defineConfig({
  site: { title: 'Keys', url: 'https://keys.example' },
  collections: {
    authors: { pattern: 'authors/*.md', schema: z.strictObject({ name: z.string() }) },
    posts: { pattern: 'posts/*.md', schema: z.strictObject({ title: z.string(), tags: z.array(z.string()), author: reference('authors') }) },
  },
  routes: (c) => [
    ...c.posts.map((p) => ({ path: '/' + p.slug, component: Post, props: { entry: p }, title: p.data.title, source: p.file })),
    ...c.authors.map((a) => ({ path: '/by/' + a.slug, component: Author, props: { entry: a }, title: a.data.name, source: a.file })),
  ],
});
`;
const PAGES = `import type { Entry } from 'sitegen-islands';
type P = { title: string; tags: string[]; author: Entry };
export function Post({ entry }: { entry: Entry }) {
  const d = entry.data as P;
  return (<><h1>{d.title}</h1><p className="tags">{d.tags.join(', ')}</p><p className="by">{(d.author.data as { name: string }).name}</p>
    <div dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} /></>);
}
export function Author({ entry }: { entry: Entry }) {
  return (<><h1>{(entry.data as { name: string }).name}</h1><div dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} /></>);
}
`;

function files(): Record<string, string> {
  return {
    'sitegen.config.ts': CONFIG, 'templates/pages.tsx': PAGES,
    'content/authors/ada.md': '---\nname: Ada\n---\nAda writes.\n',
    'content/authors/sam.md': '---\nname: Sam\n---\nSam writes.\n',
    'content/posts/one.md': '---\ntitle: One\ntags: [a]\nauthor: ada\n---\nThe first post.\n',
    'content/posts/two.md': '---\ntitle: Two\ntags: [b]\nauthor: sam\n---\nThe second post.\n',
  };
}

let site: TestSite;
afterEach(() => site?.remove());

async function buildOk() {
  const r = await site.build({ env: DISK });
  expect(r.errors).toEqual([]);
  return r;
}

describe('page keys of entries with bodies on disk', () => {
  it('render again what a front matter edit, an edit to a referenced entry or a body edit changes, and nothing else', async () => {
    site = await siteFrom(files());
    const clean = cleanBuilder(site);
    let r = await buildOk();
    const step = async (edit: () => void, expected: string[]) => {
      const before = stamps(r.outDir);
      edit();
      r = await buildOk();
      expect(written(before, stamps(r.outDir)).filter((f) => f.endsWith('.html')).sort()).toEqual(expected);
      const c = await clean();
      expect(c.errors).toEqual([]);
      expect(r.output()).toEqual(c.output());
    };
    // A list in the front matter of an entry that holds no other: its page alone.
    await step(() => site.edit('content/authors/ada.md', (t) => t.replace('Ada writes.', 'Ada writes more.')), ['by/ada/index.html', 'one/index.html']);
    await step(() => site.edit('content/posts/two.md', (t) => t.replace('tags: [b]', 'tags: [b, c]')), ['two/index.html']);
    // The author's name: the author's page and the post that shows it (it holds the author's entry).
    await step(() => site.edit('content/authors/sam.md', (t) => t.replace('name: Sam', 'name: Samira')), ['by/sam/index.html', 'two/index.html']);
    await step(() => site.edit('content/posts/one.md', (t) => t.replace('The first post.', 'The first post, edited.')), ['one/index.html']);
  }, 120_000);
});
