// The scan that stands in for marked's GFM inline text rule (src/markdown/text.ts) must end every text run
// exactly where marked's regular expression does: the HTML of every page depends on it. These tests run
// both on generated text built from the characters and words the rule looks at, on whole generated
// documents, and on the site's content and the repository's own Markdown; and they check that the scan is really in use with the
// installed marked, and out of the way wherever the rule is another one.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Lexer, Marked } from 'marked';
import { GFM_TEXT, fastText, gfmTextLength } from '../../src/markdown/text.ts';
import { gfmFixes } from '../../src/markdown/gfm.ts';
import { REPO } from '../helpers/cli.ts';
import { prng } from '../helpers/prng.ts';
import { differing } from '../helpers/markedDiff.ts';

const rule = Lexer.rules.inline.gfm.text;
const marked = (s: string) => rule.exec(s)?.[0].length ?? 0;

// Pieces that reach every alternative: stop characters, URL and mail starts in both cases, e-mail
// characters and `@`, hard breaks, backtick and tilde runs, \s outside ASCII, astral characters, entities.
const PIECES = ['a', 'b', 'h', 't', 'p', 'f', 'w', 'm', 'x', 'A', '1', '@', '@@', '.', '_', '*', '`', '``', '~', '~~',
  ' ', '  ', '\n', '\t', '\r', 'http', 'hTtP', 'HTTPS', 'ftp://', 'FtP:/', 'www.', 'ww.', ' www.', '(www.', 'mailto:',
  'mailto', 'xmpp:', '!', '[', ']', '<', '\\', '(', ')', '|', '{', ':', '/', '-', '&', '&#65;', '  \n', '   \n',
  'u@e.co', 'a.b@', 'é', '\u00a0', '\u2003', '\u3000', '💡', 'www.x.com', 'https://e.com', 'word'];

function generator(seed: number) {
  const next = prng(seed);
  return (maxPieces: number) => {
    let s = '';
    const n = 1 + Math.floor(next() * maxPieces);
    for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
    return s;
  };
}

const inRule = (text: RegExp, inRawBlock = false) => ({ rules: { inline: { text } }, lexer: { state: { inRawBlock } } });
const inlineText = fastText.tokenizer!.inlineText as (this: unknown, src: string) => unknown;

describe('the GFM text scan', () => {
  it('stands in for the rule of the installed marked (else every build takes the slow path)', () => {
    expect(rule.source).toBe(GFM_TEXT);
    expect(rule.flags).toBe('');
    expect(inlineText.call(inRule(rule), 'plain words *then')).toEqual({ type: 'text', raw: 'plain words ', text: 'plain words ', escaped: false });
    expect(inlineText.call(inRule(rule, true), 'a &amp; b')).toEqual({ type: 'text', raw: 'a &amp; b', text: 'a &amp; b', escaped: true });
  });

  it("leaves other rules, and text with a character reference, to marked", () => {
    expect(Lexer.rules.inline.breaks.text.source).not.toBe(GFM_TEXT);
    expect(inlineText.call(inRule(Lexer.rules.inline.breaks.text), 'a\nb')).toBe(false);
    expect(inlineText.call(inRule(Lexer.rules.inline.normal.text), 'a')).toBe(false);
    expect(inlineText.call(inRule(rule), 'fish &#38; chips')).toBe(false);
    const withBreaks = (extra: object[]) => new Marked({ gfm: true, breaks: true }, ...extra).parse('one\ntwo http://x.y', { async: false });
    expect(withBreaks([fastText])).toBe(withBreaks([]));
    expect(withBreaks([fastText])).toContain('<br>');
  });

  it('ends every run where the rule does, on 100,000 generated texts', () => {
    const text = generator(7);
    const wrong: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const s = text(14);
      if (gfmTextLength(s) !== marked(s)) wrong.push(JSON.stringify(s));
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('ends every run where the rule does from every position of longer texts', () => {
    const text = generator(11);
    const wrong: string[] = [];
    for (let i = 0; i < 300; i++) {
      const s = text(120);
      for (let k = 0; k < s.length; k++) {
        const tail = s.slice(k);
        if (gfmTextLength(tail) !== marked(tail)) wrong.push(JSON.stringify(tail));
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(gfmTextLength('')).toBe(0);
  });

  it('gives the same tokens and HTML as marked on 5,000 generated documents', () => {
    const text = generator(3);
    const plain = new Marked({ gfm: true }), fast = new Marked({ gfm: true }, fastText);
    expect(differing(plain, fast, Array.from({ length: 5_000 }, () => text(40)))).toEqual([]);
  });

  it("gives the same HTML as marked for the site's content and the repository's own Markdown", () => {
    const files = execFileSync('git', ['ls-files', '*.md'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files).toContain('content/pages/manifesto.md');
    const plain = new Marked({ gfm: true }, gfmFixes), fast = new Marked({ gfm: true }, gfmFixes, fastText);
    for (const f of files) {
      const body = fs.readFileSync(path.join(REPO, f), 'utf8');
      expect(fast.parse(body, { async: false }), f).toBe(plain.parse(body, { async: false }));
    }
  });
});
