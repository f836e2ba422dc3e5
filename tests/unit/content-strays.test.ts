// A content file no collection takes is never published: the build says so, at the file, with the patterns
// there are (a Hugo page bundle under a `posts/*.md` pattern, a misspelt folder), and goes on. A name that
// starts with "_" is kept out on purpose and not named.
import { afterAll, describe, expect, it } from 'vitest';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';

const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });

describe('content files in no collection', () => {
  it('are a warning at each file in build, check and dev; "_" files and other kinds of file are not', async () => {
    const s = await copyOf('basic', {
      'content/pages/a-trip/index.md': '---\ntitle: A trip\n---\nText.\n',
      'content/itmes/gamma.yaml': 'title: Gamma\ntags: [a, b]\nprice: 3\n',
      'content/_notes/todo.md': 'Not a page.\n',
      'content/pages/photo.txt': 'not content',
    });
    sites.push(s);
    const where = (r: { warnings: { id: string; text: string; location: { file: string } | null }[] }) => r.warnings.map((w) => [w.id, w.location?.file, w.text]);
    const want = [
      ['ContentNotInCollection', 'content/itmes/gamma.yaml', 'This file is in no collection, so it is not published'],
      ['ContentNotInCollection', 'content/pages/a-trip/index.md', 'This file is in no collection, so it is not published'],
    ];
    const build = await s.build();
    expect(build.code).toBe(0);
    expect(where(build)).toEqual(want);
    expect(build.warnings[0].hint).toContain('(items: items/*.yaml; pages: pages/*.md)');
    expect(build.warnings[0].hint).toContain('"posts/**/*.md"');
    expect(where(await s.check())).toEqual(want);
    const dev = await s.dev();
    try {
      await expect.poll(() => dev.output(), { timeout: 10_000 }).toContain('content/pages/a-trip/index.md This file is in no collection');
    } finally { await dev.close(); }
  });
});
