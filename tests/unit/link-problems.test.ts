// Broken links are data until they are reported (src/pipeline/linkScan.ts BrokenLink): the link check
// finds them, each use is located in its source file from the link itself, and the words are made last.
// So a link is found in its source whatever it holds, and a link shared by many pages points its notes
// at the lines that write it.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { PageLinks } from '../../src/pipeline/linkScan.ts';
import { makeTargets } from '../../src/pipeline/linkTargets.ts';
import { brokenLinks, linkProblems } from '../../src/pipeline/links.ts';
import { formatMessageLong } from '../../src/core/errors.ts';
import { SCRATCH, copyOf } from '../helpers/scratch.ts';

const root = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-links-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
function write(rel: string, text: string): string {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
  return rel;
}
const at = (l: { file: string; line: number; column: number } | null | undefined) => l && `${l.file}:${l.line}:${l.column}`;

describe('broken links, located in their sources', () => {
  const targets = makeTargets(['/', '/a/', '/about/'], ['index.html', 'a/index.html', 'about/index.html']);

  it('locates a link whatever characters it holds', async () => {
    const source = write('content/people/ada.yaml', 'name: Ada\nsite: "/see also, more/"\n');
    const pages: PageLinks[] = [{ page: '/people/ada/', source, links: ['/see also, more/'] }];
    const [m] = await linkProblems(root, pages, targets);
    expect(m.text).toBe('page /people/ada/ links to /see also, more/, which is not a page, alias or file');
    expect(at(m.location)).toBe('content/people/ada.yaml:2:8');
  });

  it('names every line of a content file that writes the same broken link: one message, a note for each other', async () => {
    const source = write('content/posts/twice.md', '---\ntitle: Twice\n---\nOne [x](/nothing-here/).\n\nTwo [y](/nothing-here/).\n');
    const [m, ...rest] = await linkProblems(root, [{ page: '/posts/twice/', source, links: ['/nothing-here/', '/nothing-here/'] }], targets);
    expect(rest).toEqual([]);
    expect(at(m.location)).toBe('content/posts/twice.md:4:9');
    expect(m.notes.map((n) => [n.text, at(n.location)])).toEqual([['the same link again', 'content/posts/twice.md:6:9']]);
  });

  it('points the notes of a link many pages share at the lines that write it', async () => {
    const pages: PageLinks[] = ['one', 'two', 'three', 'four'].map((n, i) => ({
      page: `/posts/${n}/`,
      source: write(`content/posts/${n}.md`, `---\ntitle: ${n}\n---\n${'\n'.repeat(i)}See [the old page](/gone/).\n`),
      links: ['/gone/'],
    }));
    const messages = await linkProblems(root, pages, targets);
    expect(messages).toHaveLength(1);
    expect(messages[0].text).toBe('4 pages link to /gone/, which is not a page, alias or file (a shared template link?)');
    expect(messages[0].notes.map((n) => [n.text, at(n.location)])).toEqual([
      ['on page /posts/one/', 'content/posts/one.md:4:20'],
      ['on page /posts/two/', 'content/posts/two.md:5:20'],
      ['on page /posts/three/', 'content/posts/three.md:6:20'],
    ]);
    expect(formatMessageLong(messages[0])).toContain('note: content/posts/one.md:4:20 on page /posts/one/');
  });

  it('locates a link its pages\' sources do not write in the site\'s code: a layout\'s link, shared by every page, is one message there', async () => {
    const layout = write('templates/Layout.tsx', "import { href } from 'sitegen-islands';\nexport const Layout = () => (\n  <header><a href={href('/abuot')}>About</a></header>\n);\n");
    const pages: PageLinks[] = ['one', 'two', 'three', 'four'].map((n) => ({ page: `/p/${n}/`, source: write(`content/p/${n}.md`, `---\ntitle: ${n}\n---\nText.\n`), links: ['/repo/abuot/'] }));
    const based = makeTargets(['/', '/about/'], ['index.html', 'about/index.html'], '/repo/');
    const [m, ...more] = await linkProblems(root, pages, based, undefined, undefined, [path.join(root, layout), path.join(root, 'node_modules/x/index.js')]);
    expect(more).toEqual([]);
    expect(m!.text).toBe('4 pages link to /abuot (served as /repo/abuot/), which is not a page, alias or file');
    expect(at(m!.location)).toBe('templates/Layout.tsx:3:26');
    expect(m!.hint).toBe('Did you mean /about/?'); // (as the template writes it: href() adds the base)
    // One page: located there as well.
    const [one] = await linkProblems(root, pages.slice(0, 1), based, undefined, undefined, [path.join(root, layout)]);
    expect(at(one!.location)).toBe('templates/Layout.tsx:3:26');
  });

  it('keeps what is broken as data: the kind, the path it names and the fix', () => {
    const pages: PageLinks[] = [{ page: '/a/', source: null, links: ['/about', 'id:top', '#top', '#nowhere'] }];
    expect(brokenLinks(pages, targets)).toEqual([
      { kind: 'path', resolved: '/about', fix: { kind: 'slash', to: '/about/' }, uses: [{ page: '/a/', source: null, link: '/about' }], base: '/' },
      { kind: 'fragment', target: '/a/', fragment: 'nowhere', uses: [{ page: '/a/', source: null, link: '#nowhere' }], ids: ['top'] },
    ]);
  });
});

describe('a broken Markdown link on a page with no source file', () => {
  it('is located in the content file whose Markdown writes it (a one-page site showing an entry\'s body)', async () => {
    const site = await copyOf('basic', { 'content/pages/about.md': '---\ntitle: About\n---\nMy [CV](/cv/) and [the old site](./old.md).\n' });
    try {
      site.edit('sitegen.config.ts', (t) => t.replace('title: p.data.title, source: p.file }', 'title: p.data.title }'));
      const r = await site.check();
      expect(r.errors.map((e) => [e.id, at(e.location)])).toEqual([['BrokenLink', 'content/pages/about.md:4:9'], ['BrokenLink', 'content/pages/about.md:4:34']]);
    } finally { site.remove(); }
  });
});


describe('a broken Markdown link after an author\'s note that shows it', () => {
  it('is located where the page writes it, not inside the note', async () => {
    const site = await copyOf('basic', { 'content/pages/about.md': '---\ntitle: About\n---\n<!-- TODO: link [the guide](/gide/)\n     once it is written -->\n\nRead [the guide](/gide/).\n' });
    try {
      const r = await site.check();
      expect(r.errors.map((e) => [e.id, at(e.location)])).toEqual([['BrokenLink', 'content/pages/about.md:7:18']]);
    } finally { site.remove(); }
  });
  it('and a comment written in backticks hides nothing; the line is shown as the file has it', async () => {
    const site = await copyOf('basic', { 'content/pages/about.md': '---\ntitle: About\n---\nA comment starts with `<!--`.\nRead [the guide](/gide/) now. <!-- ok -->\n' });
    try {
      const r = await site.check();
      expect(r.errors.map((e) => [e.id, at(e.location), e.location?.lineText])).toEqual([['BrokenLink', 'content/pages/about.md:5:18', 'Read [the guide](/gide/) now. <!-- ok -->']]);
    } finally { site.remove(); }
  });
});
