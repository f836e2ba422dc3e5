// The Markdown content policy: raw HTML and script URLs are refused with their line; the rest renders.
import { describe, expect, it } from 'vitest';
import { Marked, type Token } from 'marked';
import { compileMarkdown, markdownProblems, renderMarkdown, walkPlain } from '../../src/markdown/compile.ts';
import { gfmFixes } from '../../src/markdown/gfm.ts';
import { prng } from '../helpers/prng.ts';

const check = (body: string) => ({ problems: markdownProblems(body), html: renderMarkdown(body) });

describe('Markdown policy', () => {
  it('renders ordinary Markdown and escapes text that looks like markup', () => {
    const r = check('# Title\n\nSome **bold** text with `<script>` in code and a [link](/a/).\n');
    expect(r.problems).toEqual([]);
    expect(r.html).toContain('<h1>Title</h1>');
    expect(r.html).toContain('<code>&lt;script&gt;</code>');
  });

  it('refuses block and inline raw HTML, naming the line', () => {
    const r = check('Intro\n\n<script>alert(1)</script>\n\nText with <img src=x onerror=alert(1)> inline.\n');
    expect(r.problems.map((p) => [p.line, p.text])).toEqual([
      [3, 'Raw HTML is not allowed in Markdown: <script>alert(1)</script>'],
      [5, 'Raw HTML is not allowed in Markdown: <img src=x onerror=alert(1)>'],
    ]);
    expect(r.problems[1].column).toBe(11);
    // A block of raw HTML is named by its first line (the message is one line; the location says where).
    expect(check('<details>\n<summary>More</summary>\n\nText\n</details>\n').problems[0]!.text).toBe('Raw HTML is not allowed in Markdown: <details>');
    // The hint says what to do instead, the sanitizing option among it.
    for (const p of r.problems) expect(p.hint).toMatch(/markdown\(\{ html: 'sanitize' \}\)/);
  });

  it('refuses javascript:, vbscript: and data: links and images', () => {
    const r = check('[a](javascript:alert(1)) and [b](JavaScript:void(0))\n\n![c](data:text/html;base64,xx)\n\n[ok](https://example.com)\n');
    expect(r.problems.map((p) => p.text)).toEqual([
      'Link to a javascript: URL is not allowed',
      'Link to a javascript: URL is not allowed',
      'Image to a data: URL is not allowed',
    ]);
    expect(r.problems.map((p) => p.line)).toEqual([1, 1, 3]);
  });
});

describe('Markdown policy: targets as the browser decodes them', () => {
  it.each([
    ['[a](javascript&#58;alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](javascript&#x3a;alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](javascript&#X3A;alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](javascript&colon;alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](javascript&#0000058alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](java&#x09;script:alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](java&Tab;script:alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](java&NewLine;script:alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](&#x6A;avascript:alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](&#1;javascript:alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](JaVaScRiPt:alert(1))', 'Link to a javascript: URL is not allowed'],
    ['[a](<java\tscript:alert(1)>)', 'Link to a javascript: URL is not allowed'],
    ['[a](vbscript&#58;msgbox(1))', 'Link to a vbscript: URL is not allowed'],
    ['![i](data&colon;text/html;base64,xx)', 'Image to a data: URL is not allowed'],
    ['![i](DaTa&#x3A;image/svg+xml,x)', 'Image to a data: URL is not allowed'],
    ['[a][r]\n\n[r]: javascript&#x3a;alert(1)', 'Link to a javascript: URL is not allowed'],
    ['![i][r]\n\n[r]: JAVASCRIPT&colon;alert(1)', 'Image to a javascript: URL is not allowed'],
    ['<javascript:alert(1)>', 'Link to a javascript: URL is not allowed'],
    ['<JaVaScRiPt:alert(1)>', 'Link to a javascript: URL is not allowed'],
  ])('refuses %j', (body, text) => {
    expect(markdownProblems(`Intro\n\n${body}\n`).map((p) => [p.line, p.text])).toEqual([[3, text]]);
  });

  it('keeps ordinary links, and references that do not form a scheme', () => {
    const body = '[a](/a/?x=1&amp;y=2) [b](https://example.com/a&#58;b) [c](mailto:x@example.com) [d](java&shy;script:x) [e](#top)\n';
    expect(markdownProblems(body)).toEqual([]);
  });
});

describe('Markdown without plugins: the engine walk and the policy walk in one', () => {
  it('labels task-list checkboxes whether or not the body has anything for the policy to check', () => {
    expect(compileMarkdown('- [x] done\n- [ ] to do\n').html).toBe('<ul>\n<li><input checked="" disabled="" type="checkbox" aria-label="done"> done</li>\n<li><input disabled="" type="checkbox" aria-label="to do"> to do</li>\n</ul>\n');
    const r = compileMarkdown('- [x] read https://example.com & <b>x</b>\n');
    expect(r.html).toBeUndefined(); // the raw HTML is refused ...
    expect(r.problems.map((p) => p.text)).toEqual(['Raw HTML is not allowed in Markdown: <b>']); // (its end tag is the same mistake)
    expect(compileMarkdown('- [x] read https://example.com & more\n').html).toContain('aria-label="read https://example.com &amp; more"'); // ... and a link is checked, with the label
  });
});

describe('Markdown policy: nesting', () => {
  it.each([
    ['a line of 2,000 ">"', '>'.repeat(2000) + ' deep'],
    ['2,000 "> "', '> '.repeat(2000) + 'deep'],
    ['2,000 list markers', '- '.repeat(2000) + 'deep'],
    ['2,000 numbered markers', '1. '.repeat(2000) + 'deep'],
    ['quotes and lists mixed', '> - '.repeat(1000) + 'deep'],
    // The shortest prefix that is too deep (17 characters): a tab counts four columns, two levels.
    ['a quote under 16 tabs', '\t'.repeat(16) + '>deep, past the length below which nothing is checked'],
    ['33 ">"', '>'.repeat(33) + ' deep'],
  ])('refuses %s with its line instead of overflowing the stack', (_name, line) => {
    const problems = markdownProblems(`Intro\n\n${line}\n`);
    expect(problems.map((p) => [p.line, p.text])).toEqual([[3, 'Blockquotes and lists are nested more than 32 levels deep']]);
  });

  it('a run of emphasis markers that overflows marked is a located problem too', () => {
    // 2,000 markers a side overflow the stack already; 8,000 leave room for a marked that needs less of it
    // (20,000 took over a second to overflow, most of it before the overflow).
    const r = compileMarkdown(`Intro\n\n${'*'.repeat(8000)}x${'*'.repeat(8000)}\n`);
    expect(r.html).toBeUndefined();
    expect(r.problems.map((p) => p.line)).toEqual([3]);
  });

  it('nesting up to the limit renders', () => {
    const r = check('> '.repeat(32) + 'deep\n');
    expect(r.problems).toEqual([]);
    expect(r.html.match(/<blockquote>/g)).toHaveLength(32);
  });
});

describe('the token walk without plugins', () => {
  it("visits the same tokens in the same order as marked's walkTokens", () => {
    const md = new Marked({ gfm: true }, gfmFixes);
    const blocks = ['# Title *em*', '| a | **b** |\n|---|:-:|\n| [c](/c/) | `d` |\n| e | ~~f~~ |', '- one\n  - two [x](/x/)\n    1. three\n- [ ] task *a*\n- [x] done',
      '> quote with **bold _and em_**\n>\n> - in a list', 'Text <span>raw</span> and <https://a.example> and www.b.example.', '```js\ncode\n```', '***', 'Term\n===', '![img](/i.png "t")', '1. a\n\n   para\n\n2. b'];
    const next = prng(9);
    for (let i = 0; i < 500; i++) {
      const doc = Array.from({ length: 1 + Math.floor(next() * 6) }, () => blocks[Math.floor(next() * blocks.length)]).join('\n\n');
      const tokens = md.lexer(doc);
      const theirs: Token[] = [], ours: Token[] = [];
      md.walkTokens(tokens, (t) => { theirs.push(t); });
      walkPlain(tokens, (t) => { ours.push(t); });
      expect(ours.length, doc).toBe(theirs.length);
      ours.forEach((t, k) => expect(t, doc).toBe(theirs[k]));
    }
  });
});
