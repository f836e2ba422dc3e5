// The directive syntax (src/markdown/directives.ts) reads a body in linear time: a Markdown file can be
// any size and shape, and a scan that goes back over the rest of the body per line or per bracket
// stalls a build. Each shape below repeats one construct (or near miss) to 64 KB and 256 KB and compares
// the two times: four times the input takes about four times as long when the reading is linear, sixteen
// when it is quadratic.
import { describe, expect, it } from 'vitest';
import { compileMarkdown } from '../../src/markdown/compile.ts';
import { directivesOn } from '../../src/markdown/directives.ts';
import { cpuMs } from '../helpers/cpuTime.ts';

const KB = 1024;
const rep = (unit: string, head = '', tail = '') => (size: number) => head + unit.repeat(Math.max(1, Math.floor(size / unit.length))) + tail;

/**
 * Runs `fn` on `make(size)` at 64 KB (best of three) and at 256 KB (once, up to four times when slow), and fails when 256 KB takes more
 * than 10 times as long (a linear reading takes about 4 times, a quadratic one 16) or more than 7.5 s. A
 * ratio, not a fixed budget: this compiles whole bodies through marked, whose own time on a busy machine
 * varies more than the patterns security3-linear.test.ts times. A rule that goes back over the rest of the
 * body per line or per bracket already costs its 16 times at these sizes (checked by putting such rules
 * into src/markdown/directives.ts: the shapes they touch then fail here).
 */
function linear(shapes: Record<string, (size: number) => string>, fn: (s: string) => unknown): void {
  const time = (s: string) => cpuMs(() => fn(s));
  for (const [name, make] of Object.entries(shapes)) {
    const small = make(64 * KB);
    const base = Math.max(25, Math.min(time(small), time(small), time(small)));
    const big = make(256 * KB);
    const limit = Math.min(7_500, 10 * base);
    // Timed again (up to three times) when over the limit: a pause of the machine's or a collection of the
    // whole worker's heap can hit a run or two, a quadratic reading hits every run.
    let ms = time(big);
    for (let again = 0; again < 3 && ms >= limit; again++) ms = Math.min(ms, time(big));
    expect(ms, `${name}: 64 KB ${base.toFixed(0)} ms, 256 KB ${ms.toFixed(0)} ms`).toBeLessThan(limit);
  }
}

const extensions = directivesOn([], true);

describe('directives in linear time', () => {
  it('block, leaf and inline directives, closed, unclosed and near misses, at 64 and 256 KB', { timeout: 600_000 }, () => {
    linear({
      'closed blocks': rep(':::Callout{type="tip"}\ntext\n:::\n\n'),
      'unclosed blocks': rep(':::Callout\n'),
      'nested fences': rep('::::Tabs\n:::Tab{label="a"}\nx\n:::\n::::\n'),
      'opening lines only, deep': rep('::::::::a\n'),
      'closing lines only': rep(':::\n'),
      'leaves': rep('::Badge{tone="info"}\n'),
      'leaf near misses': rep('::a{b="\n'),
      'colon runs': rep(':'),
      'inline directives': rep('a :Badge[new]{tone="info"} b '),
      'inline near misses': rep(':a[', 'x '),
      'open labels': rep('['),
      'open attributes': rep(':a[x]{k="v" '),
      'names before brackets': rep('abcdefgh['),
      'paragraph lines': rep('some words\n'),
      'paragraphs ended by headings': rep('text\n# h\n'),
      'paragraphs ended by tables': rep('text\n| a | b |\n| - | - |\n'),
      'paragraphs then a directive': rep('para\n\n', '', ':::Callout\nx\n:::\n'),
      'code fences': rep('```\n:::a\n```\n'),
      'colon words': rep('a :b c http://x '),
    }, (s) => compileMarkdown(s, extensions));
  });
});
