// The authoring helpers through the engine (issue 26), in process, on a copy of the authoring fixture: the
// pages build makes of paginate() and taxonomy(), references resolved for routes, drafts left out of build
// and check but kept by `--drafts` and dev (marked), and each bad input — pagination size 0, two terms with
// one slug, a dangling reference, an impossible date — one located error, no stack, dist/ left as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { build, checkSite } from '../../src/pipeline/build.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { formatMessage, formatMessageLong } from '../../src/core/errors.ts';
import type { BuildResult } from '../../src/core/types.ts';
import { createContentStore } from '../../src/content/liveContent.ts';
import { date, reference } from '../../src/public.ts';
import type { SiteConfig } from '../../src/core/types.ts';
import { z } from 'zod';
import { editFile } from './dev-fixture.ts';
import { copyFixture, copyOf, removeCopy } from '../helpers/scratch.ts';
import { siteAt } from '../helpers/site.ts';

let dir = '';
let first: BuildResult;
// One good build first: each test then starts from its dist/ (a failed build must leave it as it was).
beforeAll(async () => { dir = copyFixture('authoring'); first = await build({ root: dir }); }, 60_000);
afterAll(() => removeCopy(dir));

const page = (p: string) => fs.readFileSync(path.join(dir, 'dist', p, 'index.html'), 'utf8');
const main = (p: string) => /<main>(.*)<\/main>/s.exec(page(p))?.[1] ?? '';
/** Every file of dist/ with its bytes, to prove a failed build left it as it was. */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f); else out[path.relative(dir, f)] = fs.readFileSync(f, 'utf8');
    }
  };
  walk(path.join(dir, 'dist'));
  return out;
}
const run = (opts: { drafts?: boolean } = {}) => build({ root: dir, ...opts });
const errorsOf = (r: BuildResult) => r.errors.map(formatMessage);

describe('a build with the authoring helpers', () => {
  it('paginates the blog under the base, two posts a page, newest first, drafts left out', () => {
    expect(errorsOf(first)).toEqual([]);
    expect(main('blog')).toBe('<h1>Blog 1/2</h1><ul><li><a href="/docs/posts/third/">Third post</a></li><li><a href="/docs/posts/second/">Second post</a></li></ul><a rel="next" href="/docs/blog/page/2/">Older</a>');
    expect(main('blog/page/2')).toBe('<h1>Blog 2/2</h1><ul><li><a href="/docs/posts/first/">First post</a></li></ul><a rel="prev" href="/docs/blog/">Newer</a>');
    expect(fs.existsSync(path.join(dir, 'dist/blog/page/3'))).toBe(false);
  });

  it('makes a page per term and an index, and gives routes the referenced author', () => {
    expect(main('tags')).toContain('<a href="/docs/tags/nodejs/">Node.js</a> (2)');
    expect(main('tags/nodejs')).toContain('<h1>Tagged Node.js</h1>');
    expect(main('tags/nodejs')).toContain('Third post');
    expect(main('posts/third')).toContain('<p class="byline">Ada Lovelace, 2025-03-15</p>');
    expect(main('posts/second')).toContain('<p class="byline">Grace Hopper, 2025-02-28</p>');
  });

  it('leaves the draft out of its page, the lists, the tags and the sitemap', () => {
    expect(fs.existsSync(path.join(dir, 'dist/posts/unfinished'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'dist/tags/drafts'))).toBe(false);
    const all = Object.values(snapshot()).join('\n');
    expect(all).not.toContain('unfinished');
    expect(all).not.toContain('Unfinished');
  });

  it('renders the same on worker threads, which assemble the content themselves', async () => {
    const before = snapshot();
    // Without the caches: every page renders (on the workers), none is kept from the last build.
    const r = await build({ root: dir, settings: { cache: false, parallelMin: 0, workers: 2, renderOnWorkers: true, mainTakesTasks: false } });
    expect(errorsOf(r)).toEqual([]);
    expect(r.workers?.tasks.pages?.onMain).toBe(0);
    expect(snapshot()).toEqual(before);
  }, 60_000);

  it('includes the draft with --drafts (build) and keeps it marked; check counts it only with --drafts', async () => {
    const r = await run({ drafts: true });
    expect(errorsOf(r)).toEqual([]);
    expect(main('posts/unfinished')).toContain('<mark class="draft">draft</mark><h1>Unfinished post</h1>');
    expect(main('tags')).toContain('Drafts');
    expect(fs.readFileSync(path.join(dir, 'dist/sitemap.xml'), 'utf8')).toContain('/docs/posts/unfinished/');
    expect((await checkSite({ root: dir })).pages).toBe(8);
    expect((await checkSite({ root: dir, drafts: true })).pages).toBe(10);
    expect(errorsOf(await run())).toEqual([]); // back to the site without the draft for what follows
  });

  it('dev shows the draft, and its first line says the count is not the build\'s', async () => {
    const dev = await siteAt(dir).dev();
    try {
      expect(dev.code).toBe(0);
      await expect.poll(() => dev.stdout(), { timeout: 30_000 }).toMatch(/✓ built 10 pages in memory in \d+ ms, with a draft entry that `sitegen build` leaves out\n/);
      expect(await (await fetch(`${dev.url}/docs/posts/unfinished/`)).text()).toContain('<mark class="draft">draft</mark>');
    } finally { await dev.close(); }
  });
});

describe('bad input is one located error, and dist/ is left as it was', () => {
  const cases = [
    {
      what: 'a pagination size of 0',
      file: 'sitegen.config.ts', edit: (t: string) => t.replace('size: 2', 'size: 0'),
      error: /^sitegen\.config\.ts:23:\d+ routes\(\) threw: paginate\(\): size must be a positive whole number, got 0$/,
    },
    {
      what: 'two terms with one slug',
      file: 'content/posts/second.md', edit: (t: string) => t.replace('tags: [Notes]', 'tags: [nodejs]'),
      error: /^content\/posts\/second\.md:4:8 tags\[0\]: The tags term "nodejs" has the same URL \(\/tags\/nodejs\) as "Node\.js" in content\/posts\/third\.md$/,
      hint: 'Write the term the same way in every file',
    },
    {
      what: 'a dangling reference',
      file: 'content/posts/first.md', edit: (t: string) => t.replace('author: ada-lovelace', 'author: ada-l'),
      error: /^content\/posts\/first\.md:5:9 author: no entry "ada-l" in collection authors\. Did you mean "ada-lovelace"\?$/,
      hint: 'Write the id of an existing entry',
    },
    {
      what: 'a reference to a draft',
      file: 'content/posts/first.md', edit: (t: string) => t.replace('author: ada-lovelace', 'author: ada-lovelace\nsee: unfinished'),
      schema: true,
      error: /^content\/posts\/first\.md:6:6 see: no entry "unfinished" in collection posts \(it is a draft, left out of this build\)$/,
    },
    {
      what: 'a link to a draft',
      file: 'content/posts/first.md', edit: (t: string) => `${t}\nRead [the unfinished one](/posts/unfinished/) next.\n`,
      error: /^content\/posts\/first\.md:9:27 page \/posts\/first\/ links to \/posts\/unfinished\/ \(served as \/docs\/posts\/unfinished\/\), which is not a page, alias or file$/,
      hint: 'It may be the page of content/posts/unfinished.md, a draft, left out of this build (`sitegen dev` and `sitegen build --drafts` show drafts)',
    },
    {
      what: 'a draft marker that names no field of the schema (every draft would be published)',
      file: 'sitegen.config.ts', edit: (t: string) => t.replace("draft: 'draft',", "draft: 'isDraft',"),
      error: /^sitegen\.config\.ts:10:3 Config "collections\.posts\.draft" names "isDraft", which is not a field of the collection's schema \(did you mean draft\?\), so no entry would be a draft/,
    },
    {
      what: 'a typo in a collection a variable holds (defineCollection), located there, not at the same word in routes()',
      file: 'sitegen.config.ts', edit: (t: string) => t.replace("draft: 'draft',", "drafts: 'draft',"),
      error: /^sitegen\.config\.ts:10:3 Unknown config key "collections\.posts\.drafts"$/,
    },
    {
      what: 'a draft marker that names a field other than true or false',
      file: 'sitegen.config.ts', edit: (t: string) => t.replace("draft: 'draft',", "draft: 'title',"),
      error: /^sitegen\.config\.ts:10:3 Config "collections\.posts\.draft" names "title", a string field: a draft is marked by true, so its schema is z\.boolean\(\)/,
    },
    {
      what: 'an impossible date',
      file: 'content/posts/second.md', edit: (t: string) => t.replace('date: 2025-02-28', 'date: 2025-02-30'),
      error: /^content\/posts\/second\.md:3:7 date: February 2025 has 28 days$/,
    },
  ];
  for (const c of cases) {
    it(`${c.what}: build and check say where, dev too`, async () => {
      const before = snapshot();
      expect(before['dist/posts/third/index.html']).toContain('Third post');
      const original = fs.readFileSync(path.join(dir, c.file), 'utf8');
      const config = fs.readFileSync(path.join(dir, 'sitegen.config.ts'), 'utf8');
      if (c.schema) editFile(dir, 'sitegen.config.ts', (t) => t.replace("draft: z.boolean().optional() }", "draft: z.boolean().optional(), see: reference('posts').optional() }"));
      editFile(dir, c.file, c.edit);
      try {
        const r = await run();
        expect(errorsOf(r)).toEqual([expect.stringMatching(c.error)]);
        const long = formatMessageLong(r.errors[0]);
        expect(long).not.toMatch(/\n\s+at /);
        if (c.hint) expect(r.errors[0].hint).toContain(c.hint);
        expect(snapshot()).toEqual(before);
        const checked = await checkSite({ root: dir });
        expect(errorsOf(checked)).toEqual([expect.stringMatching(c.error)]);
        if (c.hint) expect(checked.errors[0].hint).toContain(c.hint);
        const dev = await createDevSite({ root: dir });
        try {
          const started = await dev.start();
          // Dev keeps drafts: a reference to one resolves there.
          if (c.what.endsWith('to a draft')) expect(started.errors).toEqual([]);
          else expect(started.errors.map(formatMessage)).toEqual([expect.stringMatching(c.error)]);
        } finally { await dev.close(); }
      } finally {
        fs.writeFileSync(path.join(dir, c.file), original);
        fs.writeFileSync(path.join(dir, 'sitegen.config.ts'), config);
      }
    }, 60_000);
  }
});

describe('a link to a draft whose file name has a date', () => {
  it('is told it may be that draft when it links the name without the date', async () => {
    const site = await copyOf('authoring', {});
    try {
      fs.renameSync(path.join(site.root, 'content/posts/unfinished.md'), path.join(site.root, 'content/posts/2025-04-01-unfinished.md'));
      site.edit('content/posts/first.md', (t) => `${t}\nRead [the unfinished one](/posts/unfinished/) next.\n`);
      const r = await site.check();
      expect(r.errors.map((e) => e.id)).toEqual(['BrokenLink']);
      expect(r.errors[0]!.hint).toContain('It may be the page of content/posts/2025-04-01-unfinished.md, a draft');
      // A site whose plugins add output files says it too (their files joined to the link targets).
      site.edit('sitegen.config.ts', (t) => t.replace('  layout: Layout,', "  layout: Layout,\n  plugins: [{ name: 'files', outputs: () => [{ path: 'data/a.json', contents: '{}' }] }],"));
      const withOutputs = await site.check();
      expect(withOutputs.errors[0]!.hint).toContain('It may be the page of content/posts/2025-04-01-unfinished.md, a draft');
    } finally { site.remove(); }
  });
});

describe('dev', () => {
  it('shows drafts marked, and re-renders a post when the author it references changes', async () => {
    const dev = await createDevSite({ root: dir });
    try {
      const r = await dev.start();
      expect(r.errors).toEqual([]);
      const html = (p: string) => dev.output.pages.get(`${p.slice(1)}index.html`)?.html ?? '';
      expect(html('/posts/unfinished/')).toContain('<mark class="draft">draft</mark>');
      expect(html('/blog/')).toContain('Unfinished post</a><mark class="draft">draft</mark>');
      editFile(dir, 'content/authors/ada-lovelace.yaml', (t) => t.replace('Ada Lovelace', 'Augusta Ada King'));
      const u = (await dev.apply([{ file: path.join(dir, 'content/authors/ada-lovelace.yaml'), kind: 'change' }]))!;
      expect(u.errors).toEqual([]);
      expect(u.changed.sort()).toEqual(['/posts/first/', '/posts/third/']);
      expect(html('/posts/third/')).toContain('Augusta Ada King, 2025-03-15');
      // A dangling reference while dev runs: located, and the last good page stays served.
      editFile(dir, 'content/posts/third.md', (t) => t.replace('author: ada-lovelace', 'author: grace'));
      const bad = (await dev.apply([{ file: path.join(dir, 'content/posts/third.md'), kind: 'change' }]))!;
      expect(bad.errors.map(formatMessage)).toEqual(['content/posts/third.md:5:9 author: no entry "grace" in collection authors. Did you mean "grace-hopper"?']);
      expect(html('/posts/third/')).toContain('Augusta Ada King');
    } finally {
      await dev.close();
      editFile(dir, 'content/posts/third.md', (t) => t.replace('author: grace', 'author: ada-lovelace'));
      editFile(dir, 'content/authors/ada-lovelace.yaml', (t) => t.replace('Augusta Ada King', 'Ada Lovelace'));
    }
  }, 60_000);
});

describe('dev content', () => {
  it('counts a collection as changed when an entry it references changes', async () => {
    const authors = { pattern: 'authors/*.yaml', schema: z.strictObject({ name: z.string() }) };
    const config = {
      site: { title: 'T', url: 'https://t.example' }, routes: () => [],
      collections: {
        posts: { pattern: 'posts/*.md', draft: 'draft', schema: z.strictObject({ title: z.string(), date: date(), tags: z.array(z.string()), author: reference('authors', authors), draft: z.boolean().optional() }) },
        authors,
      },
    } as unknown as SiteConfig;
    const store = await createContentStore(dir);
    try {
      await store.configure(config);
      expect(store.errors()).toEqual([]);
      const posts = store.content.posts;
      const version = store.version('posts');
      editFile(dir, 'content/authors/grace-hopper.yaml', (t) => t.replace('Grace Hopper', 'Grace B. Hopper'));
      expect((await store.update(new Map([['authors/grace-hopper.yaml', 'change']]))).sort()).toEqual(['authors', 'posts']);
      expect(store.version('posts')).toBeGreaterThan(version);
      const second = store.content.posts.find((p: any) => p.slug === 'second');
      expect(second.data.author.data.name).toBe('Grace B. Hopper');
      // A post that does not refer to the changed author keeps its entry object (dev compares by identity).
      const firstPost = (list: any[]) => list.find((p) => p.slug === 'first');
      expect(firstPost(store.content.posts)).toBe(firstPost(posts));
    } finally {
      editFile(dir, 'content/authors/grace-hopper.yaml', (t) => t.replace('Grace B. Hopper', 'Grace Hopper'));
      await store.close();
    }
  });
});
