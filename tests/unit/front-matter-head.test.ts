// gray-matter is handed a Markdown file only up to its closing fence (src/content/parse.ts
// frontMatterHead): it hashes and encodes all it is given, but reads nothing past that fence. The front
// matter, its data and the body must come out as gray-matter gives them for the whole file, for every
// shape of fence: none, `----`, a language, CRLF, a byte-order mark, no closing fence, an empty block.
import { describe, expect, it } from 'vitest';
import matter from 'gray-matter';
import { frontMatterHead, frontMatterLanguage } from '../../src/content/parse.ts';
import { prng } from '../helpers/prng.ts';

const PIECES = ['---', '----', '---yaml', '--- yaml ', '\n', '\r\n', '\r', '\n---', '\n---\n', '\r\n---\r\n', '\n--- x', '\n----',
  'title: x', 'a: 1', '# c', '\uFEFF', 'body', ' ', '\n\n', '-', '---\n', 'text\n---\nmore'];

function generator(seed: number) {
  const next = prng(seed);
  return () => {
    let s = '';
    const n = 1 + Math.floor(next() * 12);
    for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
    return s;
  };
}

// The engine returns what it was given, so equal data means gray-matter handed it the same block.
const options = { language: 'yaml', engines: { yaml: (block: string) => ({ block }) } };
const isEmpty = (file: object) => (file as { isEmpty?: boolean }).isEmpty;
// gray-matter throws for a language it has no engine for (it reads "---yaml" with no newline as "yam"):
// that must happen the same way.
const outcome = (read: () => object) => { try { return JSON.stringify(read()); } catch (e) { return `throws ${(e as Error).message}`; } };
const parse = (text: string) => {
  const { head, body } = frontMatterHead(text, frontMatterLanguage(text).fenced);
  const file = matter(head, options as never);
  return { data: file.data, matter: file.matter, isEmpty: isEmpty(file), content: body ?? file.content };
};
const whole = (text: string) => {
  const file = matter(text, options as never);
  return { data: file.data, matter: file.matter, isEmpty: isEmpty(file), content: file.content };
};

describe('front matter read up to its closing fence', () => {
  it('gives gray-matter\'s data and body for the whole file, on 50,000 generated files', () => {
    const text = generator(5);
    const wrong: string[] = [];
    let cut = 0;
    for (let i = 0; i < 50_000; i++) {
      const t = text();
      // Any other language is refused before gray-matter sees the file (parse.ts).
      if (!['', 'yaml'].includes(frontMatterLanguage(t).name)) continue;
      if (frontMatterHead(t, frontMatterLanguage(t).fenced).head !== t) cut++;
      if (outcome(() => parse(t)) !== outcome(() => whole(t))) wrong.push(JSON.stringify(t));
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(cut).toBeGreaterThan(3_000);
  });

  it('hands gray-matter only the front matter of a usual file', () => {
    const text = '---\ntitle: Home\n---\n\nBody *text*.\n\n---\n\nAfter a rule.\n';
    expect(frontMatterHead(text, true)).toEqual({ head: '---\ntitle: Home\n---', body: '\nBody *text*.\n\n---\n\nAfter a rule.\n' });
    expect(frontMatterHead('Body\n---\nmore', false)).toEqual({ head: 'Body\n---\nmore' });
    expect(frontMatterHead('---\ntitle: open', true)).toEqual({ head: '---\ntitle: open' });
  });
});
