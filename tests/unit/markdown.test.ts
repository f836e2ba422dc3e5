// The Markdown content policy: raw HTML and script URLs are refused with their line; the rest renders.
import { describe, expect, it } from 'vitest';
import { markdownProblems, renderMarkdown } from '../../src/content/markdown.ts';

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
