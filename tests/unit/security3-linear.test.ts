// Every regular expression of ours reads its input in linear time: a content file, a request path or a
// browser's error report can be any size and shape, and one pattern that backtracks quadratically stalls
// a build or a server for minutes (a 200 KB line of spaces in Markdown once took 39 s, a YAML string of
// 400 KB of `[` 175 s). Each pattern (or the function that stands in for it) runs here on inputs of every
// shape it repeats (runs of each class, near misses, alternating prefixes) at 64 KB and 256 KB, against a
// budget a linear scan meets many times over and a quadratic one misses by far at 256 KB (tens of seconds:
// checked by putting a replaced pattern back). Where a pattern
// was replaced by code, a differential test holds the code to the pattern it replaced.
import { describe, expect, it } from 'vitest';
import { Marked } from 'marked';
import { fastText, gfmTextLength } from '../../src/markdown/text.ts';
import { DECLINE, fastYaml } from '../../src/content/yamlFast.ts';
import { parseYamlSource } from '../../src/content/yamlSource.ts';
import { EDGE_SLASHES, TRAILING_SLASHES, applySlash, normaliseBase } from '../../src/render/urls.ts';
import { normalisePath } from '../../src/pipeline/routeTable.ts';
import { htmlPieces, smartQuotes } from '../../src/markdown/smartQuotes.ts';
import { gtEscaped } from '../../src/markdown/highlight.ts';
import { stackFrame } from '../../src/core/errors.ts';
import { FRAME, stackFrames } from '../../src/dev/clientErrors.ts';
import { pathPattern } from '../../src/output/hostfiles.ts';
import { parseRedirectsFile } from '../../src/output/redirectRules.ts';
import { siteUrlFrom } from '../../src/site/configSchema.ts';
import type { SiteConfig } from '../../src/core/types.ts';
import { normalized } from '../../src/output/patch.ts';
import { setextMayStart, tableMayStart } from '../../src/markdown/blocks.ts';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { globMatcher } from '../../src/content/glob.ts';
import { locateKey } from '../../src/site/configLocate.ts';
import { prng } from '../helpers/prng.ts';
import { cpuMs } from '../helpers/cpuTime.ts';

const KB = 1024;

/** `unit` repeated to about `size` characters, with `head` before and `tail` after. */
const rep = (unit: string, head = '', tail = '') => (size: number) => head + unit.repeat(Math.max(1, Math.floor(size / unit.length))) + tail;

/**
 * Runs `fn` on `make(size)` for 64 KB and 256 KB, and fails at the first size that takes longer than
 * 1.5 s (the machine may be busy): a linear reading takes a few milliseconds, a quadratic one about a
 * second at 64 KB and tens of seconds at 256 KB (16 times as long), so a failure is never a near thing.
 * Larger inputs would only cost time: the linear readings pass at 1 MB as well.
 */
function linear(shapes: Record<string, (size: number) => string>, fn: (s: string) => unknown): void {
  for (const [name, make] of Object.entries(shapes)) {
    for (const size of [64 * KB, 256 * KB]) {
      const input = make(size);
      const ms = cpuMs(() => fn(input));
      expect(ms, `${name}, ${size / KB} KB: ${ms.toFixed(0)} ms`).toBeLessThan(1500);
    }
  }
}

/** The inputs among `count` random ones on which `ours` and `reference` disagree (none, for a test to pass). */
function differences<T>(make: () => string, count: number, ours: (s: string) => T, reference: (s: string) => T): string[] {
  const wrong: string[] = [];
  for (let i = 0; i < count && wrong.length < 5; i++) {
    const s = make();
    if (JSON.stringify(ours(s)) !== JSON.stringify(reference(s))) wrong.push(s);
  }
  return wrong;
}

/** Random strings of 1 to `max` pieces. */
function strings(seed: number, pieces: string[], max: number) {
  const next = prng(seed);
  return () => {
    let s = '';
    const n = 1 + Math.floor(next() * max);
    for (let i = 0; i < n; i++) s += pieces[Math.floor(next() * pieces.length)];
    return s;
  };
}

describe('Markdown text: the GFM text scan', () => {
  const BREAK = / {2,}\n/y;
  /** What marked's lexer does with the scan: ask at each place a run of text may start (a hard break is its own token). */
  const lexLike = (s: string) => {
    for (let i = 0; i < s.length;) {
      BREAK.lastIndex = i;
      i = BREAK.test(s) ? BREAK.lastIndex : i + Math.max(1, gfmTextLength(s.slice(i)));
    }
  };
  const shapes = {
    'a line of spaces': rep(' ', 'a', 'b'),
    'spaces, then a break': rep(' ', 'a', '\n'),
    'runs of spaces, none before a newline': rep('a' + ' '.repeat(999)),
    '.a@ repeated': rep('.a@'),
    'a@ repeated': rep('a@'),
    '@ repeated': rep('@'),
    'words': rep('word '),
    'www. without a space before': rep('awww.'),
    'mailto: after a letter': rep('amailto:'),
    'http near misses': rep('htt hTtP ftp:/ '),
  };

  it('reads every shape in linear time, called at each place as marked calls it', () => {
    linear(shapes, lexLike);
  });

  it('lexes a line of spaces (sitegen check once took 39 s on 200 KB) in linear time through marked', () => {
    const md = new Marked({ gfm: true }, fastText);
    linear({ 'a line of spaces': shapes['a line of spaces'] }, (s) => md.lexer(s));
  });
});

describe('YAML: what the fast reader declines', () => {
  // The old pattern, the reference for the differential test below.
  const OLD = /(?:^|[\s[{,])[&*]\S|!!|^[ \t]*-[ \t]+-(?:[ \t]|$)|(?:^|[\s,[{])\?(?:\s|$)|[[{][^\]}\n]*[\]}]\s*:|(?:^|[\s,[{])(?:~|[Nn]ull|NULL)?\s*:(?:\s|$)/m;

  it('decides every shape of every alternative in linear time', () => {
    linear({
      '[ repeated': rep('['), '{ repeated': rep('{'), '[a repeated': rep('[a'), 'opened, closed far away': rep('a', '[', ']  x'),
      'a closer and spaces': rep(' ', ']', 'x'), 'spaces': rep(' ', '', 'x'), 'tabs': rep('\t', '', 'x'), 'newlines': rep('\n', '', 'x'),
      'null and spaces': rep(' ', 'a null', 'x'), 'null repeated': rep('null '), 'a dash and spaces': rep(' ', '-', 'x'),
      'dash lines': rep('- \n'), 'indented dashes': rep(' ', '', '- x'), '& and * without a name': rep('& * '), '? repeated': rep('?'),
      'commas and brackets': rep(',[{'), '! repeated': rep('!x'),
    }, (s) => DECLINE.test(s));
  });

  it('reads a quoted string of `[` (it once took minutes) in linear time', () => {
    linear({ 'a quoted string of [': (size) => `title: "${'['.repeat(size)}"\n` }, (s) => {
      expect(fastYaml(s)?.value).toEqual({ title: s.slice(8, -2) });
    });
  });

  it('locates each of many unclosed quotes at its opening in linear time (the document walked once, not per quote)', () => {
    // The parser's own work on these texts grows about linearly; a walk of the document per missing quote
    // made 4,000 of them cost 16 times what 1,000 did (1,000 → 4,000 lines: 0.25 → 4.1 s).
    const text = (n: number) => `title: Beta\n${Array.from({ length: n }, (_, i) => `k${i}: 'v\n`).join('')}`;
    const small = text(1000), big = text(4000);
    const time = (t: string) => cpuMs(() => expect(parseYamlSource(t, 'x.yaml').problems[0]).toMatchObject({ line: 2, column: 5 }));
    const base = Math.max(20, Math.min(time(small), time(small), time(small)));
    let ms = time(big);
    // (the least of up to five runs: a busy machine, the whole suite beside it, once took one over by 1 %)
    for (let again = 0; again < 4 && ms >= 9 * base; again++) ms = Math.min(ms, time(big));
    expect(ms, `1,000 lines ${base.toFixed(0)} ms, 4,000 lines ${ms.toFixed(0)} ms`).toBeLessThan(9 * base);
  });

  it('declines exactly what the pattern it replaced declined', () => {
    const text = strings(3, ['[', ']', '{', '}', ':', ' ', '\t', '\n', ',', 'a', '~', 'null', 'Null', 'NULL', 'nul', '&', '*', '!', '!!', '?', '-', '- ', '"', '#', 'x: 1'], 12);
    expect(differences(text, 20_000, (s) => DECLINE.test(s), (s) => OLD.test(s))).toEqual([]);
  });
});

describe('Markdown blocks: where a table or an underlined heading may start', () => {
  it('looks at a paragraph in linear time, whatever its lines', () => {
    const shapes = {
      'one long line': rep('a'), 'short lines': rep('a\n'), 'lines of spaces': rep(' \n'), 'almost underlines': rep('x\n=x'),
      'list-like lines': rep('- a\n'), 'carriage returns': rep('a\r'), 'pipes and dashes': rep('|-:'),
    };
    linear(shapes, (s) => { setextMayStart(s); tableMayStart(s); });
    expect(setextMayStart('Title\n=====\n')).toBe(true);
    expect(setextMayStart('Just text.\n\nMore.')).toBe(false);
    expect(tableMayStart('| a | b |\n| - | - |\n')).toBe(true);
    expect(tableMayStart('a line\nanother')).toBe(false);
  });
});

describe('paths and URLs', () => {
  const slashes = { 'slashes, then a letter': rep('/', '', 'x'), 'a letter, then slashes': rep('/', 'x'), 'slash and letter': rep('/a') };

  it('trims the slashes of a path and a base in linear time, as before', () => {
    linear(slashes, (s) => { s.replace(EDGE_SLASHES, ''); s.replace(TRAILING_SLASHES, ''); normaliseBase(s); applySlash(s, 'never'); normalisePath(s, 'never'); });
    expect(normaliseBase('//repo//')).toBe('/repo/');
    expect(normaliseBase('////')).toBe('/');
    expect(normalisePath('/a///', 'never')).toBe('/a');
    expect('//a//b//'.replace(EDGE_SLASHES, '')).toBe('a//b');
  });

  it('takes a planned output path as path.normalize does, in linear time (output/patch.ts normalized)', () => {
    linear({ ...slashes, 'dots and slashes': rep('./'), 'dot segments': rep('a/..') }, (s) => normalized(s));
    // Every string of up to six pieces of these, and random longer ones: the same answer as path.normalize.
    const pieces = ['a', '.', '..', '/', '//', '\\', 'b.html', '-'];
    const all: string[] = [''];
    for (let n = 0, level = ['']; n < 5; n++) { level = level.flatMap((x) => pieces.map((p) => x + p)); all.push(...level); }
    expect(all.filter((x) => normalized(x) !== path.normalize(x))).toEqual([]);
    expect(differences(strings(21, pieces, 20), 20_000, normalized, (x) => path.normalize(x))).toEqual([]);
    expect(normalized('docs/page-5/index.html')).toBe('docs/page-5/index.html');
    expect(normalized('docs/./page-5//index.html')).toBe('docs/page-5/index.html');
  });

  it('reads a site URL of any path, and a _redirects rule against any request path, in linear time', () => {
    linear(slashes, (s) => siteUrlFrom('/nonexistent', { site: { url: `https://x.example/a${s}b` } } as unknown as SiteConfig, {}));
    const rules = parseRedirectsFile('/blog/* /news/:splat 301\n/n/:a/:b /x/:a-:b/ 301\n');
    linear({ ...slashes, 'colons': rep(':a'), 'segments': rep('a/', '/blog/') }, (s) => { rules.get(s); rules.get(`/blog/${s}`); });
  });

  it('matches a _headers rule against a request path in linear time, as the regular expression did', () => {
    const rule = pathPattern('/*a*b'); // two stars: as a regular expression, the square of the path
    linear({ 'a near miss': rep('a', '/'), 'abc repeated': rep('abc', '/', 'x'), 'slashes': rep('/') }, (s) => rule.test(s));
    const old = (line: string) => new RegExp('^' + line.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*') + '$');
    const pattern = strings(11, ['/', 'a', 'b', '*', '**', '.', 'ab', '(', '$'], 6), path = strings(12, ['/', 'a', 'b', '.', 'ab', '(', '$'], 8);
    const pair = () => `${pattern()} ${path()}`;
    const split = (f: (p: string, s: string) => boolean) => (ps: string) => { const [p, s] = ps.split(' '); return f(p!, s!); };
    expect(differences(pair, 10_000, split((p, s) => pathPattern(p).test(s)), split((p, s) => old(p).test(s)))).toEqual([]);
  });
});

describe("a collection's glob", () => {
  /** The glob as a regular expression, as it was read before: the reference. */
  function globRegExp(pattern: string): RegExp {
    let re = '';
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i]!;
      if (c === '*' && pattern[i + 1] === '*') {
        re += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
        i += pattern[i + 2] === '/' ? 2 : 1;
      } else if (c === '*') re += '[^/]*';
      else if (c === '?') re += '[^/]';
      else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp(`^${re}$`);
  }

  it('matches a path in linear time however many stars the glob has, as the regular expression did', () => {
    const stars = globMatcher('*a*b'), deep = globMatcher('**/x/**/*.md');
    linear({ 'a near miss': rep('a'), 'ab repeated': rep('ab', '', 'c'), 'folders': rep('x/'), 'a.md near misses': rep('.m/x/') }, (s) => { stars(s); deep(s); });
    const pattern = strings(13, ['*', '**', '**/', '?', 'a', 'b', '/', '.', 'a.md', '\n'], 7), path = strings(14, ['a', 'b', '/', '.', 'md', '\n', 'ab/'], 9);
    const pair = () => `${pattern()} ${path()}`;
    const split = (f: (p: string, s: string) => boolean) => (ps: string) => { const [p, s] = ps.split(' '); return f(p!, s!); };
    expect(differences(pair, 10_000, split((p, s) => globMatcher(p)(s)), split((p, s) => globRegExp(p).test(s)))).toEqual([]);
  });
});

describe('HTML after Markdown', () => {
  const shapes = { '< repeated': rep('<'), '<a repeated': rep('<a'), 'a tag, then <': rep('<', '<p>'), 'tags': rep('<b>x</b>') };

  it('splits tags from text and escapes `>` in linear time, as the regular expressions did', () => {
    linear(shapes, (s) => { for (const _ of htmlPieces(s)); gtEscaped(s); });
    linear({ '< repeated': shapes['< repeated'], 'a tag, then <': shapes['a tag, then <'] }, smartQuotes);
    const html = strings(5, ['<', '>', 'a', '<b>', '</b>', '"', "'", ' ', '<code>', '</code>', '<p>'], 12);
    expect(differences(html, 10_000, (s) => [...htmlPieces(s)], (s) => [...s.matchAll(/<[^>]*>|[^<]+/g)].map((m) => m[0]))).toEqual([]);
    expect(differences(html, 10_000, gtEscaped, (s) => s.replace(/(<[^>]*>)|>/g, (_m, tag?: string) => tag ?? '&gt;'))).toEqual([]);
  });
});

describe('stack traces', () => {
  it("finds the frame at the end of a stack line in linear time, as the regular expression did", () => {
    linear({ 'slashes': rep('/', '', 'x'), 'slashes, a line, no column': rep('/', '', ':1'), ':1 repeated': rep(':1', '/a'), 'file:// repeated': rep('file://') }, stackFrame);
    const OLD = /\(?(?:file:\/\/)?(\/[^():]+):(\d+):(\d+)\)?$/;
    const line = strings(5, ['/', '//', '///', 'file:', 'file://', 'file:///', '(', ')', ':', '1', '12', 'a', ' ', 'at ', '.js', ':1:2', ':3'], 10);
    expect(differences(line, 10_000, stackFrame, (s) => { const m = OLD.exec(s); return m ? [m[1], Number(m[2]), Number(m[3])] : null; })).toEqual([]);
  });

  it("finds the frames of a browser's stack in linear time, as FRAME did", () => {
    linear({
      'URLs without a frame': rep('http://a/'), '.js? repeated': rep('.js?', 'http://a/x'), 'a long host': rep('a', 'http://'),
      'a long line number': rep('1', 'http://a/x.js:'), 'queries and a long number': rep('.js?', 'http://a/x', ':' + '1'.repeat(1000)), 'https:// repeated': rep('https://'),
    }, stackFrames);
    const stack = strings(9, ['http://', 'https://', 'http:/', 'a', '/', '.js', '.mjs', '.j', 'js', '?', '?v=1', ':', '1', ':1:2', ' ', '\n', '(', ')', '.', 'm', '\u00a0', 'x.js:1:1'], 14);
    expect(differences(stack, 10_000, stackFrames, (s) => [...s.matchAll(FRAME)].map((m) => [m[1], Number(m[2]), Number(m[3])]))).toEqual([]);
  });
});

describe('config key locations (src/site/configLocate.ts)', () => {
  it('read the config in linear time whatever its shape: declarations named again and again, quotes, regular expressions, template literals, spreads', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-locate-linear-'));
    try {
      const tail = 'export default defineConfig({ collections: { posts } });\n';
      linear({
        declarations: rep('// const posts: Post\n', '', tail), braces: rep('{', 'export default defineConfig('), quotes: rep("'", 'export default defineConfig({ a: '),
        slashes: rep('( / ', 'export default defineConfig({ a: '), templates: rep('`${', 'export default defineConfig({ a: '), spreads: rep('...posts, ', 'const posts = { ', '};\n' + tail),
      }, (s) => { fs.writeFileSync(path.join(root, 'sitegen.config.ts'), s); return locateKey(root, ['collections', 'posts', 'draft']); });
    } finally { fs.rmSync(root, { recursive: true, force: true }); }
  });
});
