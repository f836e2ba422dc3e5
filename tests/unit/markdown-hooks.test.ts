// A plugin's marked hooks run as marked.parse runs them: provideLexer and provideParser included (sitegen
// renders each body in marked's own steps, with the content policy between tokens and HTML), and the policy
// still holds for whatever the hooks produce. An async extension, which sitegen cannot run, is a problem of
// the file rather than a silent skip.
import { describe, expect, it } from 'vitest';
import { Marked, type MarkedExtension, type MarkedOptions, type Token } from 'marked';
import { compileMarkdown } from '../../src/markdown/compile.ts';

describe('marked hooks from plugins', () => {
  it('honours provideLexer and provideParser, as marked.parse does', () => {
    const ext: MarkedExtension = {
      hooks: {
        provideLexer() { return (src: string, options?: object) => new Marked().lexer(src.replace('TODAY', 'the 26th'), options as MarkedOptions); },
        provideParser() { return (tokens: Token[], options?: MarkedOptions) => `${new Marked().parser(tokens, options)}<p>parsed by the plugin</p>\n`; },
      },
    };
    const body = 'Written TODAY.\n';
    const r = compileMarkdown(body, [ext]);
    expect(r.problems).toEqual([]);
    expect(r.html).toBe(new Marked(ext).parse(body));
    expect(r.html).toContain('the 26th');
    expect(r.html).toContain('<p>parsed by the plugin</p>');
  });

  it('holds the policy for what a provided parser writes', () => {
    const ext: MarkedExtension = { hooks: { provideParser() { return () => '<p><img src="x" onerror="alert(1)"></p>'; } } };
    const r = compileMarkdown('hello\n', [ext]);
    expect(r.html).toBeUndefined();
    expect(r.problems).toHaveLength(1);
  });

  it('refuses an async extension with a problem at the file', () => {
    const r = compileMarkdown('hello\n', [{ async: true, walkTokens() {} }]);
    expect(r.html).toBeUndefined();
    expect(r.problems.map((p) => p.text)).toEqual([expect.stringContaining('async')]);
  });
});
