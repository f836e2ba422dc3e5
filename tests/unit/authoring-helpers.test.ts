// The authoring helpers as a site calls them (issue 26): paginate() and taxonomy() in routes(), date() in a
// schema; each bad input is a clear error naming the call or the field.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { date, paginate, reference, taxonomy, type Entry } from '../../src/public.ts';
import { finishContent } from '../../src/authoring/finish.ts';
import { validateData } from '../../src/content/validate.ts';
import { parseYamlSource } from '../../src/content/yamlSource.ts';
import { issuesOf } from '../../src/authoring/issues.ts';
import { setUrlPolicy, DEFAULT_POLICY } from '../../src/render/urls.ts';

afterEach(() => setUrlPolicy(DEFAULT_POLICY));

const entry = (id: string, tags: unknown): Entry => ({ id, slug: id, dirs: [], file: `content/posts/${id}.md`, data: { tags } });

describe('paginate()', () => {
  it('puts page 1 at the bare path and page n at <path>/page/n, with prev/next links under the base', () => {
    setUrlPolicy({ base: '/docs/', trailingSlash: 'always' });
    const pages = paginate(['a', 'b', 'c', 'd', 'e'], { size: 2, path: '/blog' });
    expect(pages.map((p) => [p.path, p.page, p.pages, p.items, p.prev, p.next])).toEqual([
      ['/blog', 1, 3, ['a', 'b'], null, '/docs/blog/page/2/'],
      ['/blog/page/2', 2, 3, ['c', 'd'], '/docs/blog/', '/docs/blog/page/3/'],
      ['/blog/page/3', 3, 3, ['e'], '/docs/blog/page/2/', null],
    ]);
  });

  it('gives an empty list one empty page, and follows trailingSlash "never" and a page path of the site\'s own', () => {
    expect(paginate([], { size: 10, path: '/news' })).toEqual([{ path: '/news', page: 1, pages: 1, items: [], prev: null, next: null }]);
    setUrlPolicy({ base: '/', trailingSlash: 'never' });
    const pages = paginate([1, 2, 3], { size: 2, path: '/', pagePath: (n) => `/p${n}` });
    expect(pages.map((p) => [p.path, p.prev, p.next])).toEqual([['/', null, '/p2'], ['/p2', '/', null]]);
  });

  it.each([[0, '0'], [-3, '-3'], [2.5, '2.5'], [Number.NaN, 'NaN'], ['2', '"2"']])('refuses size %s naming the call', (size, shown) => {
    expect(() => paginate([1], { size: size as number, path: '/blog' })).toThrow(`paginate(): size must be a positive whole number, got ${shown}`);
  });

  it('refuses a path that is not a site path', () => {
    expect(() => paginate([1], { size: 1, path: 'blog' })).toThrow('paginate(): path must be a site path starting with "/", got "blog"');
  });
});

describe('taxonomy()', () => {
  it('groups entries by a list or a single term, with github slugs, ordered by slug', () => {
    const a = entry('a', ['Node.js', 'Notes']), b = entry('b', 'Notes'), c = entry('c', undefined);
    const t = taxonomy([a, b, c], { field: 'tags', path: '/tags/' });
    expect(t.path).toBe('/tags');
    expect(t.terms.map((x) => [x.term, x.slug, x.path, x.entries.map((e) => e.id)])).toEqual([
      ['Node.js', 'nodejs', '/tags/nodejs', ['a']],
      ['Notes', 'notes', '/tags/notes', ['a', 'b']],
    ]);
  });

  it('leaves out the terms it is told to exclude (an Eleventy site\'s "posts" tag), as if unwritten', () => {
    const t = taxonomy([entry('a', ['posts', 'Notes']), entry('b', 'posts')], { field: 'tags', path: '/tags', exclude: ['posts'] });
    expect(t.terms.map((x) => [x.term, x.entries.map((e) => e.id)])).toEqual([['Notes', ['a']]]);
    expect(() => taxonomy([], { field: 'tags', path: '/tags', exclude: 'posts' as never })).toThrow('taxonomy(): exclude must be a list of terms, got "posts"');
  });

  it('lists an entry once under a term it repeats', () => {
    expect(taxonomy([entry('a', ['x', 'x'])], { field: 'tags', path: '/t' }).terms[0].entries).toHaveLength(1);
  });

  it('throws the content issue of two terms with one slug, at the second term\'s field and file', () => {
    let thrown: unknown;
    try { taxonomy([entry('a', ['Node.js']), entry('b', ['misc', 'nodejs'])], { field: 'tags', path: '/tags' }); } catch (e) { thrown = e; }
    expect(issuesOf(thrown)).toEqual([{ kind: 'TermCollision', file: 'content/posts/b.md', path: ['tags', 1], message: 'The tags term "nodejs" has the same URL (/tags/nodejs) as "Node.js" in content/posts/a.md' }]);
  });

  it('takes a slug function of the site\'s (a blog moved from Hugo keeps /tags/node.js), and refuses a slug that is not one URL segment', () => {
    const hugo = (t: string) => t.toLowerCase().replaceAll(' ', '-');
    const t = taxonomy([entry('a', ['Node.js', 'Web Dev'])], { field: 'tags', path: '/tags', slug: hugo });
    expect(t.terms.map((x) => [x.term, x.path])).toEqual([['Node.js', '/tags/node.js/'], ['Web Dev', '/tags/web-dev']]);
    let thrown: unknown;
    try { taxonomy([entry('a', ['a/b', 'ok'])], { field: 'tags', path: '/tags', slug: (x) => x }); } catch (e) { thrown = e; }
    expect(issuesOf(thrown)).toEqual([{ kind: 'TermUrlError', file: 'content/posts/a.md', path: ['tags', 0], message: 'The slug of the tags term "a/b": "a/b" is not one URL segment (no "/", "?", "#", "%", "\\" or spaces)' }]);
  });

  it('throws the content issue of a term with a space at its start or end (it would have a page apart)', () => {
    let thrown: unknown;
    try { taxonomy([entry('a', ['pwa']), entry('b', ['react', ' pwa', 'svelte '])], { field: 'tags', path: '/tags' }); } catch (e) { thrown = e; }
    expect(issuesOf(thrown)).toEqual([
      { kind: 'TermUrlError', file: 'content/posts/b.md', path: ['tags', 1], message: 'The tags term " pwa" starts with a space, which would give it a page of its own (/tags/-pwa): write "pwa"' },
      { kind: 'TermUrlError', file: 'content/posts/b.md', path: ['tags', 2], message: 'The tags term "svelte " ends with a space, which would give it a page of its own (/tags/svelte-): write "svelte"' },
    ]);
  });

  it('throws the content issue of a term with no letters or digits', () => {
    let thrown: unknown;
    try { taxonomy([entry('a', '!!!')], { field: 'tags', path: '/tags' }); } catch (e) { thrown = e; }
    expect(issuesOf(thrown)?.[0]).toMatchObject({ kind: 'TermUrlError', file: 'content/posts/a.md', path: ['tags'], message: expect.stringContaining('no letters or digits') });
  });
});

describe('date()', () => {
  const schema = z.object({ date: date() });
  const parse = (v: unknown) => schema.safeParse({ date: v });

  it('accepts YAML dates as written, dates with a time and a zone, and Date values', () => {
    expect(parse('2025-02-28').data?.date.toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(parse('2024-02-29').data?.date.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parse('2025-03-15T09:30').data?.date.toISOString()).toBe('2025-03-15T09:30:00.000Z');
    expect(parse('2025-03-15T09:30:00+01:00').data?.date.toISOString()).toBe('2025-03-15T08:30:00.000Z');
    // Jekyll's form (and YAML 1.1's): a space before the zone, and a zone without a colon.
    expect(parse('2022-03-15 14:20:00 +0100').data?.date.toISOString()).toBe('2022-03-15T13:20:00.000Z');
    expect(parse('2022-03-15 14:20:00 -05:00').data?.date.toISOString()).toBe('2022-03-15T19:20:00.000Z');
    const d = new Date('2020-01-01T00:00:00Z');
    expect(parse(d).data?.date).toBe(d);
    // Astro's blog writes the month's name: that day in UTC, whatever the build machine's time zone.
    for (const written of ['Jul 08 2022', 'July 8, 2022', 'jul 8 2022']) expect(parse(written).data?.date.toISOString()).toBe('2022-07-08T00:00:00.000Z');
    expect(parse('Sept. 3 2024').data?.date.toISOString()).toBe('2024-09-03T00:00:00.000Z');
    expect(parse('Jan 1 0099').data?.date.getUTCFullYear()).toBe(99); // (not 1999)
  });

  it('a missing date is "Required", as any missing field is (zod says "Invalid input" of a union)', () => {
    const { source } = parseYamlSource('title: x\n', 'content/posts/p.yaml', 0);
    const r = validateData(z.object({ title: z.string(), date: date() }), { title: 'x' }, source);
    expect(r.errors.map((e) => e.text)).toEqual(['Required']);
    expect(r.errors[0]!.field).toBe('date');
    // Located where the data starts (a missing field has no line), which the hint says, naming what to add.
    expect(r.errors[0]!.hint).toBe('The file has no date field: add one (date: …). The place shown is where its data starts.');
  });

  it('a missing field of a nested map names the map; yes or no for a boolean says to write true or false', () => {
    const { source } = parseYamlSource('title: x\nauthor:\n  name: Ada\ndraft: yes\n', 'content/posts/p.yaml', 0);
    const r = validateData(z.object({ title: z.string(), author: z.object({ name: z.string(), email: z.string() }), draft: z.boolean() }), { title: 'x', author: { name: 'Ada' }, draft: 'yes' }, source);
    expect(r.errors.map((e) => [e.field, e.text, e.hint])).toEqual([
      ['author.email', 'Required', 'The map has no email field: add one (email: …). The place shown is where that map starts.'],
      ['draft', 'Expected boolean, received string "yes"', 'Write true or false: YAML reads "yes" as text.'],
    ]);
  });

  it('a key with nothing after it (null in YAML) says what an empty value is written as', () => {
    const { source } = parseYamlSource('title:\ntags:\n', 'content/posts/p.yaml', 0);
    const r = validateData(z.object({ title: z.string(), tags: z.array(z.string()) }), { title: null, tags: null }, source);
    expect(r.errors.map((e) => [e.field, e.location?.line, e.hint])).toEqual([
      ['title', 1, 'title: with nothing after it is empty (null): write title: "", or leave the line out if the field is optional.'],
      ['tags', 2, 'tags: with nothing after it is empty (null): write tags: [], or leave the line out if the field is optional.'],
    ]);
    const item = parseYamlSource('tags:\n  - react\n  -\n', 'content/posts/p.yaml', 0).source;
    expect(validateData(z.object({ tags: z.array(z.string()) }), { tags: ['react', null] }, item).errors.map((e) => e.hint)).toEqual(['A list item with nothing after its "-" is empty (null): give it a value, or take the line out.']);
  });

  it('a lone list item with no space after its "-" (text to YAML) says where the space goes', () => {
    const { source } = parseYamlSource('tags:\n  -react\n', 'content/posts/p.yaml', 0);
    const r = validateData(z.object({ tags: z.array(z.string()) }), { tags: '-react' }, source);
    expect(r.errors.map((e) => e.hint)).toEqual(['A list item has a space after its "-": - react']);
  });

  it('a misspelt required field is one error, at the key written, naming the field meant', () => {
    const { source } = parseYamlSource('title: x\ndescripton: About\nauthor:\n  nmae: Ada\n', 'content/posts/p.yaml', 0);
    const schema = z.strictObject({ title: z.string(), description: z.string(), author: z.strictObject({ name: z.string() }), tagline: z.string() });
    const r = validateData(schema, { title: 'x', descripton: 'About', author: { nmae: 'Ada' } }, source);
    expect(r.errors.map((e) => [e.field, e.text, e.location?.line, e.hint?.slice(0, 30)])).toEqual([
      // (a required field missing without a misspelling of it is still said, where the data starts)
      ['tagline', 'Required', 1, 'The file has no tagline field:'],
      ['descripton', 'Unknown field "descripton"', 2, 'Did you mean "description"? Fi'],
      ['author.nmae', 'Unknown field "nmae"', 4, 'Did you mean "name"? Fields he'],
    ]);
  });

  it('a number or true/false where text goes says to quote it; a list of numbers where text goes too', () => {
    const { source } = parseYamlSource('title: 42\nsubtitle: true\ntags: [a, 7]\n', 'content/posts/p.yaml', 0);
    const r = validateData(z.object({ title: z.string(), subtitle: z.string(), tags: z.array(z.string()) }), { title: 42, subtitle: true, tags: ['a', 7] }, source);
    expect(r.errors.map((e) => [e.field, e.text, e.hint])).toEqual([
      ['title', 'Expected string, received number 42', 'Put the value in quotes, as written ("…"), so it is read as text, not as a number.'],
      ['subtitle', 'Expected string, received boolean true', 'Put the value in quotes, as written ("…"), so it is read as text, not as a boolean.'],
      ['tags[1]', 'Expected string, received number 7', 'Put the value in quotes, as written ("…"), so it is read as text, not as a number.'],
    ]);
  });

  it.each([
    ['2025-02-30', 'February 2025 has 28 days'],
    ['2024-02-30', 'February 2024 has 29 days'],
    ['2025-04-31', 'April 2025 has 30 days'],
    ['2025-13-01', '13 is not a month (01 to 12)'],
    ['2025-01-01T24:00', '24:00:00 is not a time of day'],
    ['2025-01-01 10:00 +2500', '+25:00 is not a time zone offset'],
    ['next tuesday', '"next tuesday" is not a date: write it as YYYY-MM-DD (or an ISO 8601 date and time, or as "Jul 8 2022")'],
    ['Sep 31 2024', 'September 2024 has 30 days'],
    ['Mayday 1 2022', '"Mayday 1 2022" is not a date: write it as YYYY-MM-DD (or an ISO 8601 date and time, or as "Jul 8 2022")'],
    // (Eleventy's words for the file's own dates)
    ['Last Modified', '"Last Modified" is a date Eleventy took from the file or from git, which sitegen does not: write the date itself, as YYYY-MM-DD'],
    ['git Created', '"git Created" is a date Eleventy took from the file or from git, which sitegen does not: write the date itself, as YYYY-MM-DD'],
    // `date: 2026` in YAML is a number.
    [2026, "2026 is a number, not a date: write the day as YYYY-MM-DD (2026-01-01, the year's first day)"],
    [20260105, '20260105 is a number, not a date: write the day as YYYY-MM-DD'],
  ])('refuses %s: %s', (input, problem) => {
    const r = parse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path, i.message])).toEqual([[['date'], problem]]);
  });
});

describe('references between entries', () => {
  const authors = [{ id: 'ada-lovelace', slug: 'ada-lovelace', dirs: [], file: 'content/authors/ada-lovelace.yaml', data: { name: 'Ada' } }];
  const post = (author: unknown) => ({ id: 'p', slug: 'p', dirs: [], file: 'content/posts/p.md', data: { title: 'P', meta: { authors: [author] } } });
  const config = (collection: string) => ({
    collections: { authors: { pattern: 'authors/*.yaml', schema: z.object({ name: z.string() }) }, site: { pattern: 'site.yaml', schema: z.object({}), single: true }, posts: { pattern: 'posts/*.md', schema: z.object({ title: z.string(), meta: z.object({ authors: z.array(reference(collection)) }) }) } },
  }) as any;
  const finish = (collection: string, id: string) => {
    const parsed = config(collection).collections.posts.schema.parse({ title: 'P', meta: { authors: [id] } });
    return finishContent(config(collection), { authors, site: [], posts: [{ ...post(null), data: parsed }] });
  };

  it('replaces a nested reference by the entry, leaving the parsed entry as it was', () => {
    const r = finish('authors', 'ada-lovelace');
    expect(r.issues).toEqual([]);
    expect(r.lists.posts[0].data.meta.authors[0]).toBe(authors[0]);
    expect(r.lists.authors[0]).toBe(authors[0]);
  });

  it('reports a dangling id at its field path with the closest id, an unknown or single collection by name', () => {
    expect(finish('authors', 'ada-lovelase').issues).toEqual([{ kind: 'ContentReferenceError', file: 'content/posts/p.md', path: ['meta', 'authors', 0], target: 'authors', message: 'no entry "ada-lovelase" in collection authors. Did you mean "ada-lovelace"?' }]);
    expect(finish('autors', 'ada-lovelace').issues[0].message).toBe('reference("autors"): no collection named autors. Did you mean authors?');
    expect(finish('site', 'x').issues[0].message).toBe('reference("site"): collection site is a single file, not a list of entries to refer to');
  });
});
