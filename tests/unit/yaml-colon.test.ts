// A ": " in a plain YAML value (`title: Part one: the start`) reads as a second key: the message says to quote
// the value and shows the line quoted, once per line, and only where quoting is the fix. A key indented under
// one that has its value is said at the indented line.
import { describe, expect, it } from 'vitest';
import { parseYamlSource } from '../../src/content/yamlSource.ts';

const problems = (text: string) => parseYamlSource(text, 'content/a.yaml', 0).problems.map((p) => [p.line, p.column, p.message]);
const QUOTE = 'This value has ": " in it, which YAML reads as the start of another key: put the value in quotes';

describe('a colon in a plain value', () => {
  it('says to quote the value, at the value, with the line quoted', () => {
    expect(problems('title: Second post: the sequel\n')).toEqual([[1, 8, `${QUOTE} (title: "Second post: the sequel")`]]);
    expect(problems('- a: b: c\n')).toEqual([[1, 6, `${QUOTE} (- a: "b: c")`]]);
    expect(problems('x: 1\r\ny: a: b # note\r\n')).toEqual([[2, 4, `${QUOTE} (y: "a: b")`]]);
    expect(problems('t: Re: "hi" there\n')[0]).toEqual([1, 4, `${QUOTE} (t: 'Re: "hi" there')`]);
  });

  it('says it once for a value with two colons', () => {
    expect(problems('a: b: c: d\n')).toEqual([[1, 4, `${QUOTE} (a: "b: c: d")`]]);
  });

  it('keeps the parser\'s words where quoting the line is not the fix', () => {
    // (an anchor or a tag before the value, a value that goes on over the next line)
    for (const text of ['title: &x a: b\n', 'title: !!str a: b\n', 'title: a: b\n  more text\n']) {
      expect(problems(text)[0]![2], text).not.toContain('put the value in quotes');
    }
  });
});

describe('a key indented under a key that has its value', () => {
  it('is one problem at the indented key, saying where the key starts', () => {
    expect(problems('title: Mistake\n  description: oops\norder: 7\n')).toEqual([[2, 3, 'This line is indented under title, which already has a value on its line, so YAML reads it as more of that value: start description: where title: starts (at the start of the line)']]);
    expect(problems('site:\n  title: A\n    lang: en\n')).toEqual([[3, 5, 'This line is indented under title, which already has a value on its line, so YAML reads it as more of that value: start lang: where title: starts']]);
  });

  it('leaves a value that goes on over lines, which is valid YAML', () => {
    expect(problems('title: A long\n  title over two lines\n')).toEqual([]);
  });
});

describe('other structure mistakes, each one problem', () => {
  it("a list item's key out of line with the item's first key, at the key", () => {
    expect(problems('projects:\n  - title: Budget CLI\n   description: Track spending\n    image: /img/a.jpg\n')).toEqual([[3, 4, 'description: starts at column 4, but the keys of this list item start at column 5, where title: is: line it up with title:']]);
  });

  it('a line with no colon after its key', () => {
    expect(problems('title: A\ndescription Track spending\nimage: y\n')).toEqual([[2, 1, 'This line has no ":" after its key: write it as key: value (description: Track spending)']]);
  });

  it('a bracket never closed, without the parser\'s complaints about every line after it', () => {
    expect(problems('title: A\ntags: [node, cli\ndescription: x\nimage: y\nmore: z\n')).toEqual([[2, 7, 'The list that starts with this [ never ends with a ] (YAML looked for it up to line 3)']]);
  });

  it('two values with ": " in them are two problems still', () => {
    expect(problems('title: A: b\nsub: C: d\n').map((p) => p[0])).toEqual([1, 2]);
  });
});

describe('a list item with no space after its "-"', () => {
  it('is one problem at the "-", saying a list item has a space after it', () => {
    const said = 'This line is text, not a list item: a list item has a space after its "-" (- typescript)';
    expect(problems('title: x\ntags:\n  - react\n  -typescript\n')).toEqual([[4, 3, said]]);
    expect(problems('tags:\n- react\n-typescript\ntitle: x\n')).toEqual([[3, 1, said]]);
    // (a document marker and a negative number are no such line)
    expect(problems('a:\n  - 1\n  - -2\n')).toEqual([]);
  });
});

describe('a list item out of line with the one above', () => {
  it('is one problem at its "-", saying where the item above has its "-", not advice to add a ":"', () => {
    const item = (col: number, line: number, above: number) => `This list item's "-" is at column ${col}, but the item above it (line ${line}) has its "-" at column ${above}: line them up`;
    expect(problems('title: A\ntags:\n  - one\n - two\n')).toEqual([[4, 2, item(2, 3, 3)]]);
    expect(problems('tags:\n  - one\n\n- two\ndate: 2026-01-01\n')).toEqual([[4, 1, item(1, 2, 3)]]);
    // Lined up, at the key's column or under it: valid YAML, no problem.
    expect(problems('tags:\n- one\n- two\n')).toEqual([]);
    expect(problems('tags:\n  - one\n  - two\n')).toEqual([]);
    // An item back in the enclosing list, lined up with its items, after a nested one: its own mistake is said.
    expect(problems('tags:\n  - a\n  - b:\n      - c\n  - d: e: f\n')).toEqual([[5, 8, `${QUOTE} (  - d: "e: f")`]]);
  });
});
