// A build that walked content/ for its up-to-date check lists the content files from that walk
// (content/glob.ts listedContentFiles) instead of reading every folder again: the list must be the one the
// loader's own walk makes, file for file and in the same order, hidden files and other extensions left out.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { listContentFiles, listedContentFiles } from '../../src/content/glob.ts';
import { upToDate } from '../../src/pipeline/upToDate.ts';
import { scratchDir } from '../helpers/scratch.ts';

describe('the content files listed from the build\'s walk', () => {
  const root = scratchDir('sitegen-listing-');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('are the files the loader\'s walk lists, in its order', async () => {
    const files = ['a.md', 'B.md', '10.md', '9.md', 'é.md', 'z.yml', 'posts/one.md', 'posts/2024/two.md', 'posts/2024/.draft.md',
      '.hidden/x.md', 'data/site.yaml', 'data/list.json', 'data/notes.txt', 'data/.env.yaml', 'deep/a/b/c/d.md', 'posts-old/x.md', 'posts.md'];
    for (const f of files) { fs.mkdirSync(path.dirname(path.join(root, 'content', f)), { recursive: true }); fs.writeFileSync(path.join(root, 'content', f), 'x'); }
    fs.mkdirSync(path.join(root, 'content', 'empty'));
    const probe = await upToDate(root, { outDir: path.join(root, 'dist'), env: {} });
    const stamps = probe.contentStamps();
    expect(stamps).not.toBeNull();
    const walked = await listContentFiles(root);
    expect(listedContentFiles(stamps!)).toEqual(walked);
    expect(walked).toContain('posts/2024/two.md');
    expect(walked).not.toContain('posts/2024/.draft.md');
    expect(walked.some((f) => f.startsWith('.hidden'))).toBe(false);
  });
});
