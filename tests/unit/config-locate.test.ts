// Where a config key path is written (src/site/configLocate.ts): among its parent's own entries, not a deeper
// key of the same name (a schema's field) or a word in a string, through variables and call arguments.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateKey } from '../../src/site/configLocate.ts';
import { scratchDir } from '../helpers/scratch.ts';

const root = scratchDir('config-locate');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
/** The line and column of the key path in `config`, and the text there. */
function at(config: string, keys: PropertyKey[]): [number, number, string] {
  fs.writeFileSync(path.join(root, 'sitegen.config.ts'), config);
  const l = locateKey(root, keys);
  return [l.line, l.column, l.lineText.slice(l.column - 1).split(/[:,]/, 1)[0]!];
}

const CONFIG = `import { z } from 'zod';
import { defineCollection, defineConfig } from 'sitegen-islands';

// a comment with draft: in it
const posts = defineCollection({
  pattern: 'posts/*.md',
  schema: z.strictObject({ title: z.string().describe('see draft: below'), draft: z.boolean() }),
  draft: 'drat',
});
const docs = { pattern: 'docs/*.md', schema: z.strictObject({}), draft: 'isDraft' };

export default defineConfig({
  site: { title: 'T', url: 'https://t.example' },
  csp: { 'script-src': "'self'" },
  collections: {
    // the blog's posts
    posts, docs: docs },
  plugins: [{ name: 'a' }, { name: 'b', head: () => [] }],
  routes: (c) => c.posts.map((p) => ({ path: '/x', draft: p.draft })),
});
`;

describe('locateKey', () => {
  it('finds a collection key among its own entries, not the schema field or a word in a string before it', () => {
    expect(at(CONFIG, ['collections', 'posts', 'draft'])).toEqual([8, 3, 'draft']);
    expect(at(CONFIG, ['collections', 'posts'])).toEqual([17, 5, 'posts']);
    expect(at(CONFIG, ['collections', 'posts', 'pattern'])).toEqual([6, 3, 'pattern']);
  });
  it('follows `key: variable` as it follows a shorthand', () => {
    expect(at(CONFIG, ['collections', 'docs', 'draft'])).toEqual([10, 66, 'draft']);
  });
  it('finds a quoted key, and the n-th element of a list', () => {
    expect(at(CONFIG, ['csp', 'script-src'])).toEqual([14, 10, "'script-src'"]);
    expect(at(CONFIG, ['plugins', 1, 'head'])).toEqual([18, 41, 'head']);
  });
  it('reads past regular expressions, nested template literals and comments, into spreads and type arguments', () => {
    const config = `import { defineCollection, defineConfig } from 'sitegen-islands';
// see defineConfig() in the docs
const base = { site: { title: 'T', url: 'https://t.example' } };
const posts = defineCollection<{ title: string }>({ pattern: 'posts/*.md', draft: 'drat', schema: s });
export default defineConfig({
  validate: (c) => c.posts.filter((p) => /[{'"]/.test(p.data.title) || /\\)$/.test(\`a \${p ? \`{\` : ''}\`)).map(() => ({ file: '', path: [], message: '' })),
  ...base,
  collections: { posts },
});
`;
    expect(at(config, ['site', 'title'])).toEqual([3, 24, 'title']);
    expect(at(config, ['collections', 'posts', 'draft'])).toEqual([4, 76, 'draft']);
  });
  it('stops at the deepest key it found, and at the file when there is none', () => {
    expect(at(CONFIG, ['site', 'nope'])).toEqual([13, 3, 'site']);
    fs.writeFileSync(path.join(root, 'sitegen.config.ts'), 'export default {};\n');
    expect(locateKey(root, ['site'])).toMatchObject({ file: 'sitegen.config.ts', line: 0 });
  });
});
