// The checks that stand in for marked's GFM `table` and `lheading` block rules (src/markdown/blocks.ts) may
// say "no match" only where marked's regular expression finds none: the HTML of every page depends on it.
// These tests run the checks and the rules on generated lines built from what the rules look at, compare
// whole generated documents, the bench's bodies and the repository's own Markdown token by token, and check
// that the checks are really in use with the installed marked and out of the way wherever the rule differs.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Lexer, Marked, type MarkedExtension } from 'marked';
import { GFM_LHEADING, GFM_TABLE, fastBlocks, setextMayStart, tableMayStart } from '../../src/markdown/blocks.ts';
import { fastText } from '../../src/markdown/text.ts';
import { gfmFixes } from '../../src/markdown/gfm.ts';
import { REPO } from '../helpers/cli.ts';
import { SCRATCH } from '../helpers/scratch.ts';
import { prng } from '../helpers/prng.ts';
import { differing } from '../helpers/markedDiff.ts';
// @ts-expect-error plain ES module of the bench, without types
import { GEN } from '../../bench/devsite.mjs';

const { table, lheading } = Lexer.rules.block.gfm;

// Line starts and lines that reach every branch: underlines, delimiter rows, each block that may interrupt a
// paragraph, indents, blank and whitespace-only lines, \s outside ASCII, the line breaks `.` stops at.
const LINES = ['text', 'a b c', 'Word *em*', '=', '==', '= =', '-', '--', '---', ' -', '   =', '    =', '-x', '=x', '|', '| a |',
  'a | b', '|---|', '---|---', ':-', ':--:|', ' | a', '# h', '#', '> q', '>', '* x', '*', '- x', '+ x', '1. x', '1) x', '2. x',
  '123456789. x', '1.', '```', '~~~', '``', '<div>', '<p>', '<!-- c -->', '<x>', '***', '___', '_ _ _', '\tx', ' ', '  ', '\t',
  '', '\u00a0x', '\u00a0', '\u2003', 'é', '😀 x', '[x]', '![i](a.png)', '\\=', '&amp;', 'x\ry', 'x\u2028y', 'x\u2029y'];

function generator(seed: number) {
  const next = prng(seed);
  return (maxLines: number) => {
    const n = 1 + Math.floor(next() * maxLines);
    let s = '';
    for (let i = 0; i < n; i++) s += (i ? (next() < 0.1 ? '\n\n' : '\n') : '') + LINES[Math.floor(next() * LINES.length)];
    return next() < 0.3 ? s + '\n' : s;
  };
}

const call = (name: 'table' | 'lheading', rules: { table: RegExp; lheading: RegExp }, src: string) =>
  (fastBlocks.tokenizer![name] as (this: unknown, s: string) => unknown).call({ rules: { block: rules } }, src);

describe('the GFM table and setext heading checks', () => {
  it('stand in for the rules of the installed marked (else every build takes the slow path)', () => {
    expect(table.source).toBe(GFM_TABLE);
    expect(lheading.source).toBe(GFM_LHEADING);
    expect([table.flags, lheading.flags]).toEqual(['', '']);
    // A paragraph of one line: both rules ruled out without their expressions.
    expect(call('table', { table, lheading }, 'Plain words.\n\nMore')).toBeUndefined();
    expect(call('lheading', { table, lheading }, 'Plain words.\n\nMore')).toBeUndefined();
    // One that may be a table or a heading goes to marked's rule.
    expect(call('table', { table, lheading }, 'a | b\n--|--')).toBe(false);
    expect(call('lheading', { table, lheading }, 'Title\n===')).toBe(false);
  });

  it('leave other rules to marked', () => {
    const pedantic = Lexer.rules.block.pedantic;
    expect(pedantic.lheading.source).not.toBe(GFM_LHEADING);
    expect(call('lheading', pedantic, 'Plain words.')).toBe(false);
    expect(call('table', Lexer.rules.block.normal, 'Plain words.')).toBe(false);
    const doc = 'Title\n=====\n\nA | B\n--|--\n1 | 2\n\ntext\n- - -\n';
    const html = (opts: object, extra: MarkedExtension[]) => new Marked(opts, ...extra).parse(doc, { async: false });
    for (const opts of [{ gfm: true }, { gfm: false }, { pedantic: true, gfm: false }]) expect(html(opts, [fastBlocks])).toBe(html(opts, []));
    // A site's own tokenizer comes after the engine's and still runs first.
    const own: MarkedExtension = { tokenizer: { lheading: (src) => (src.startsWith('!!') ? { type: 'heading', raw: '!!', depth: 3, text: 'own', tokens: [] } : false) } };
    expect(new Marked({ gfm: true }, fastBlocks, own).lexer('!!')[0]).toMatchObject({ type: 'heading', text: 'own' });
  });

  it('say "no match" only where the rules find none, on 100,000 generated texts and at every line of longer ones', () => {
    const text = generator(5);
    const wrong: string[] = [];
    let ruledOut = 0;
    const check = (s: string) => {
      if (!tableMayStart(s)) { ruledOut++; if (table.exec(s)) wrong.push(`table ${JSON.stringify(s)}`); }
      if (!setextMayStart(s)) { ruledOut++; if (lheading.exec(s)) wrong.push(`lheading ${JSON.stringify(s)}`); }
    };
    for (let i = 0; i < 100_000; i++) check(text(8));
    for (let i = 0; i < 2_000; i++) {
      const s = text(60);
      for (let k = 0; k < s.length; k = s.indexOf('\n', k) + 1 || s.length) check(s.slice(k));
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // The checks do rule texts out (the test would prove nothing if they always handed them to marked).
    expect(ruledOut).toBeGreaterThan(100_000);
  });

  it('give the same tokens and HTML as marked on 5,000 generated documents', () => {
    const text = generator(9);
    const plain = new Marked({ gfm: true }, fastText), fast = new Marked({ gfm: true }, fastText, fastBlocks);
    expect(differing(plain, fast, Array.from({ length: 5_000 }, () => text(30)))).toEqual([]);
  });

  it("give the same tokens and HTML as marked for the bench's bodies, the site's content and the repository's own Markdown", () => {
    const files = execFileSync('git', ['ls-files', '*.md'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => path.join(REPO, f));
    expect(files).toContain(path.join(REPO, 'content/pages/manifesto.md'));
    const bench = fs.mkdtempSync(path.join(SCRATCH, 'blocks-bench-'));
    try {
      execFileSync(process.execPath, [GEN, '200', bench], { stdio: 'ignore' });
      const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
      const pages = walk(bench).filter((f) => f.endsWith('.md'));
      expect(pages.length).toBe(200);
      const plain = new Marked({ gfm: true }, gfmFixes, fastText), fast = new Marked({ gfm: true }, gfmFixes, fastText, fastBlocks);
      const bodies = [...files, ...pages].map((f) => fs.readFileSync(f, 'utf8'));
      expect(differing(plain, fast, bodies)).toEqual([]);
    } finally {
      fs.rmSync(bench, { recursive: true, force: true });
    }
  });
});
