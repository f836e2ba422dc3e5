// Headings, excerpt, words, reading minutes and links of every Markdown entry: what a template reads to make a
// table of contents, a docs sidebar or a post list, the same in a build, from the content cache, on worker
// threads and in dev; and the `<!-- more -->` line that ends an excerpt, the one raw HTML the policy allows.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Token } from 'marked';
import { compileMarkdown, markdownProblems, prepareMarkdown } from '../../src/markdown/compile.ts';
import { decode, isMoreMarker } from '../../src/markdown/entryText.ts';
import { markdown } from '../../src/markdown/options.ts';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';
import { cpuMs } from '../helpers/cpuTime.ts';

let site: TestSite | null = null;
afterEach(() => { site?.remove(); site = null; });

describe('the text of a Markdown body', () => {
  it('lists its headings in order, nested ones too, as plain text', () => {
    const md = compileMarkdown('# Getting *started* &amp; more\n\nIntro.\n\n## Install `npm`\n\n> ### Quoted\n\n- item\n\n  #### In a list\n');
    expect(md.text!.headings).toEqual([
      { depth: 1, text: 'Getting started & more' },
      { depth: 2, text: 'Install npm' },
      { depth: 3, text: 'Quoted' },
      { depth: 4, text: 'In a list' },
    ]);
  });

  it('gives each heading the id its HTML has when heading ids are on (and none without)', async () => {
    const ext = markdown({ headingIds: true }).markdown!;
    await prepareMarkdown(ext);
    const md = compileMarkdown('# Intro\n\n## Intro\n\n## What’s new?\n', ext);
    expect(md.text!.headings).toEqual([
      { depth: 1, text: 'Intro', id: 'intro' },
      { depth: 2, text: 'Intro', id: 'intro-1' },
      { depth: 2, text: 'What’s new?', id: 'whats-new' },
    ]);
    for (const h of md.text!.headings) expect(md.html).toContain(`id="${h.id}"`);
    expect(compileMarkdown('# Intro\n').html).toBe('<h1>Intro</h1>\n');
  });

  it('takes the first paragraph with text as the excerpt, in plain text', () => {
    const md = compileMarkdown('# Title\n\nThe **first** paragraph,\nwith a [link](/a/) and `code`.\n\nThe second.\n');
    expect(md.text!.excerpt).toBe('The first paragraph, with a link and code.');
    expect(compileMarkdown('# Only a heading\n').text!.excerpt).toBe('');
    // A post that opens with a picture: the first paragraph with text.
    expect(compileMarkdown('![A loaf](/img/loaf.png)\n\nBaked on Sunday.\n').text!.excerpt).toBe('Baked on Sunday.');
  });

  it('ends the excerpt at a <!-- more --> line, which is allowed and left out of the HTML', () => {
    const md = compileMarkdown('First.\n\nSecond paragraph.\n\n<!-- more -->\n\nThe rest.\n');
    expect(md.problems).toEqual([]);
    expect(md.text!.excerpt).toBe('First. Second paragraph.');
    expect(md.html).toBe('<p>First.</p>\n<p>Second paragraph.</p>\n<p>The rest.</p>\n');
  });

  it('still refuses other raw HTML, and a more marker inside a line', () => {
    expect(compileMarkdown('<!-- note --><b>x</b>\n').problems.map((p) => p.text)).toEqual(['Raw HTML is not allowed in Markdown: <!-- note --><b>x</b>']);
    expect(compileMarkdown('Text <!-- more --> text.\n').problems).toHaveLength(1);
  });

  it('leaves a comment of the author\'s out of the page (a line, over lines, or in running text), refusing what comes with it', () => {
    const c = compileMarkdown('# Title\n\n<!-- TODO: a better intro -->\n\nIntro <!-- inline note --> text.\n\n<!--\nmany\nlines\n-->\n\nEnd.\n');
    expect(c.problems).toEqual([]);
    expect(c.html).not.toContain('<!--');
    expect(c.html).not.toContain('TODO');
    expect(c.html).toContain('<p>Intro  text.</p>');
    expect(c.text!.words).toBe(4);
    // A comment is one: HTML after its end, or one that never ends, is raw HTML as before.
    expect(compileMarkdown('<!-- a --><script>x()</script>\n').problems).toHaveLength(1);
    expect(compileMarkdown('Text <!-- a --><img src=x onerror=y> end.\n').problems.length).toBeGreaterThan(0);
    expect(compileMarkdown('<!--> x\n').problems).toHaveLength(1);
    // Two on a line are notes too.
    expect(compileMarkdown('<!-- a --><!-- b -->\n\nText.\n').problems).toEqual([]);
    // The policy's own walk knows them: its other entry point leaves them too.
    expect(markdownProblems('<!-- a note -->\n\nText.\n')).toEqual([]);
  });

  it('locates a problem after a note where it is written, not inside a note that shows the same text', () => {
    const p = compileMarkdown('<!-- x -->\n\n<!-- example: <script>x</script> -->\n\ntext\n\n<script>x</script>\n').problems;
    expect(p.map((q) => [q.line, q.column])).toEqual([[7, 1]]);
  });

  it('says what to do with a comment that is not a note: text after it on its line, or a more marker in another case', () => {
    const [after] = compileMarkdown('<!-- note --> Intro text.\n').problems;
    expect(after.hint).toMatch(/^A comment is left out of the page when it is alone\..*put the note on a line of its own/);
    const [more] = compileMarkdown('Intro.\n\n<!-- More -->\n\nRest.\n').problems;
    expect(more.hint).toBe('The excerpt marker is <!-- more --> in lower case, on a line of its own at the top level of the body (not in running text, a list or a quote); the text before it is the excerpt.');
    expect(compileMarkdown('- item\n\n  <!-- more -->\n').problems[0].hint).toBe(more.hint);
    expect(compileMarkdown('<!-- TODO: finish this\n\nText.\n').problems[0].hint).toMatch(/^This comment is never closed: end it with -->/);
    // (the same hint for one in running text, in lower case)
    expect(compileMarkdown('Hello <!--more--> there.\n').problems[0].hint).toBe(more.hint);
  });

  it('counts the words of the text readers read (code included, markup and images not)', () => {
    const md = compileMarkdown('# Two words\n\nOne **two**three, `four`.\n\n![an image](/a.png)\n\n```\nfive six\n```\n\n| a | b |\n|---|---|\n| c | d |\n');
    // Two words / One / two­three / four. / five / six / a b c d
    expect(md.text!.words).toBe(2 + 3 + 2 + 4);
  });

  it('lists the URL of every link written in it, in order, as written', async () => {
    const body = '[Home](/) and <https://a.example/x>, www.b.example and [a ref][r].\n\n' +
      '- [nested *text*](/posts/a/#top)\n\n> [quoted](../up/)\n\n| a | b |\n|---|---|\n| [in a cell](/cell/) | ![an image](/img.png) |\n\n' +
      '`[not a link](/code/)`\n\n[again](/)\n\n[query](/search?q=a&amp;page=2) [escaped](/a\\_b)\n\n' +
      '![alt text with [a link](/in-alt/), which the HTML shows as text](https://e.example/a.png)\n\n[r]: /ref/target/ "title"\n';
    const links = ['/', 'https://a.example/x', 'http://www.b.example', '/ref/target/', '/posts/a/#top', '../up/', '/cell/', '/', '/search?q=a&page=2', '/a_b'];
    const plain = compileMarkdown(body);
    expect(plain.text!.links).toEqual(links);
    expect(plain.html).not.toContain('href="/in-alt/"');
    expect(Object.isFrozen(plain.text!.links)).toBe(true);
    // With the site's base the HTML has it; the list has the URLs as written, as routes' paths are.
    const based = compileMarkdown(body, undefined, '/docs/');
    expect(based.html).toContain('href="/docs/posts/a/#top"');
    expect(based.text!.links).toEqual(links);
    // With extensions (another walk of the tokens) the same.
    const ext = markdown({ headingIds: true }).markdown!;
    await prepareMarkdown(ext);
    expect(compileMarkdown(body, ext, '/docs/').text!.links).toEqual(links);
    expect(compileMarkdown('No links here.\n').text!.links).toEqual([]);
  });
});

/** The basic fixture with heading ids on and a route that writes every page's text as JSON. */
const withTextRoute = (t: string) => t
  .replace("import { defineConfig, href } from 'sitegen-islands';", "import { defineConfig, href, markdown } from 'sitegen-islands';")
  .replace('validate:', 'plugins: [markdown({ headingIds: true })],\n  validate:')
  .replace("{ path: '/404'", `{ path: '/text.json', output: 'text.json', title: 'text', props: c.pages,
      body: (ps: typeof c.pages) => JSON.stringify(ps.map((p) => ({ slug: p.slug, headings: p.headings, excerpt: p.excerpt, words: p.words, readingMinutes: p.readingMinutes, links: p.links, frozen: Object.isFrozen(p.links) }))) },
    { path: '/404'`);

const LONG = `# Long read\n\nOpening words here.\n\n<!-- more -->\n\n## Details\n\n${'word '.repeat(394)}[about](/about/)\n`;

const EXPECTED = [
  { slug: 'about', headings: [{ depth: 1, text: 'Hello', id: 'hello' }], excerpt: 'This is Markdown with a link home and an item.', words: 11, readingMinutes: 1, links: ['/', '/items/alpha/'], frozen: true },
  { slug: 'long', headings: [{ depth: 1, text: 'Long read', id: 'long-read' }, { depth: 2, text: 'Details', id: 'details' }], excerpt: 'Long read Opening words here.', words: 401, readingMinutes: 3, links: ['/about/'], frozen: true },
];

describe('entry.headings, excerpt, words, readingMinutes and links in a site', () => {
  it('are the same in a build, a warm build (content cache), on worker threads and in dev', async () => {
    site = await copyOf('basic', { 'content/pages/long.md': '---\ntitle: Long\n---\n' + LONG });
    site.edit('sitegen.config.ts', withTextRoute);
    const cold = await site.build({ quiet: true });
    expect(cold.errors).toEqual([]);
    expect(JSON.parse(cold.read('text.json'))).toEqual(EXPECTED);
    expect(cold.read('long/index.html')).not.toContain('more');

    const warm = await site.build({ quiet: true });
    expect(JSON.parse(warm.read('text.json'))).toEqual(EXPECTED);

    // Parsed on a worker thread, into a fresh content cache that the next build reads.
    fs.rmSync(path.join(site.root, '.sitegen/cache/content'), { recursive: true });
    const workers = await site.build({ quiet: true, env: { SITEGEN_PARALLEL_MIN: '1', SITEGEN_WORKERS: '1', SITEGEN_POOL_MAIN: '0', SITEGEN_POOL_RENDER: '1' } });
    expect(workers.errors).toEqual([]);
    expect(JSON.parse(workers.read('text.json'))).toEqual(EXPECTED);
    expect(JSON.parse((await site.build({ quiet: true })).read('text.json'))).toEqual(EXPECTED);

    const dev = await site.dev();
    try {
      expect(dev.code).toBe(0);
      expect(await (await fetch(`${dev.url}/text.json`)).json()).toEqual(EXPECTED);
    } finally { await dev.close(); }
  }, 120_000);
});

describe('the text patterns read in linear time', () => {
  // 256 KB: a linear reading takes milliseconds, a quadratic one tens of seconds (checked by taking the
  // anchor off the marker's pattern); larger inputs only cost time.
  const KB256 = 256 * 1024;
  const timed = (input: string, fn: (s: string) => unknown) => cpuMs(() => fn(input));
  it('character references and the more marker, on 256 KB of each shape they repeat', () => {
    for (const unit of ['&', '&#', '&#x', '&#1', '&am', '&amp;', '&#12345678', ' ', '&nbsp;x']) {
      expect(timed(unit.repeat(KB256 / unit.length), decode)).toBeLessThan(1500);
    }
    for (const raw of [`<!--${' '.repeat(KB256)}`, `<!--${' \t'.repeat(KB256 / 2)}more`, `<!-- more${' '.repeat(KB256)}--`, '<!--'.repeat(KB256 / 4)]) {
      expect(timed(raw, (s) => isMoreMarker({ type: 'html', block: true, raw: s, text: s, pre: false } as Token))).toBeLessThan(1500);
    }
    expect(decode('a &amp; b &#x41;&#66; &nbsp;&bogus; &#0;')).toBe('a & b AB \u00a0&bogus; &#0;');
  });
});
