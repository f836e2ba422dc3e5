// The engine's Markdown features (markdown({...}) from "sitegen-islands"): heading ids with anchors, footnotes,
// smart quotes, Prism highlighting, raw HTML through a sanitizer; and marked's own GFM tables and task
// lists. Each is checked on the HTML a reader gets, and that the HTML is valid (html-validate, the site's rules).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { compileMarkdown, markdownKey, prepareMarkdown } from '../../src/markdown/compile.ts';
import { markdown, type MarkdownOptions } from '../../src/markdown/options.ts';
import { REPO } from '../helpers/cli.ts';
import { cpuMs } from '../helpers/cpuTime.ts';

async function render(body: string, options?: MarkdownOptions): Promise<string> {
  const ext = options ? markdown(options).markdown! : undefined;
  await prepareMarkdown(ext);
  const r = compileMarkdown(body, ext);
  expect(r.problems).toEqual([]);
  return r.html!;
}

const validator = new HtmlValidate(new FileSystemConfigLoader());
async function expectValid(html: string): Promise<void> {
  const doc = `<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main>${html}</main></body></html>`;
  const report = await validator.validateString(doc, path.join(REPO, 'x.html'));
  expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`))).toEqual([]);
}

describe('heading ids', () => {
  it('leaves an author\'s comment out of the page with the features on too', async () => {
    const html = await render('## Intro <!-- rename? -->\n\n<!-- note -->\n\nText.\n', { headingIds: true, footnotes: true, highlight: true });
    expect(html).not.toContain('<!--');
    expect(html).toContain('<h2 id="intro">');
    // A footnote reference after a note that mentions it is located at the reference.
    const ext = markdown({ footnotes: true }).markdown!;
    await prepareMarkdown(ext);
    const p = compileMarkdown('<!-- TODO cite [^2] -->\n\nClaim [^2].\n', ext).problems;
    expect(p.map((q) => [q.id, q.line, q.column])).toEqual([['FootnoteWithoutNote', 3, 7]]);
  });

  it('takes the id from the text of a heading with emphasis, strong text, a link, an image or struck text', async () => {
    const html = await render('## Why *this* matters\n\n## A **bold** [claim](/x/)\n\n### ~~Old~~ new ![logo](/l.png)\n', { headingIds: true });
    expect(html).toContain('<h2 id="why-this-matters">Why <em>this</em> matters <a class="heading-anchor" href="#why-this-matters"');
    expect(html).toContain('<h2 id="a-bold-claim">A <strong>bold</strong> <a href="/x/">claim</a> <a class="heading-anchor" href="#a-bold-claim"');
    expect(html).toContain('<h3 id="old-new-logo">');
  });

  it('gives GitHub-style ids, suffixes duplicates, and links each heading to itself', async () => {
    const html = await render('# Hello, World!\n\n## Use `npm` & go\n\n## Hello, World!\n\n### Ünïcode Straße\n', { headingIds: true });
    expect(html).toContain('<h1 id="hello-world">Hello, World! <a class="heading-anchor" href="#hello-world" aria-hidden="true" tabindex="-1">#</a></h1>');
    expect(html).toContain('<h2 id="use-npm--go">Use <code>npm</code> &amp; go <a class="heading-anchor" href="#use-npm--go"');
    expect(html).toContain('<h2 id="hello-world-1">');
    expect(html).toContain('<h3 id="ünïcode-straße">');
    await expectValid(html);
  });
  it('are stable: the same body gives the same ids every time, each document counts from scratch', async () => {
    const body = '## Intro\n\n## Intro\n';
    const a = await render(body, { headingIds: true });
    expect(await render(body, { headingIds: true })).toBe(a);
    expect(a).toContain('id="intro"');
    expect(a).toContain('id="intro-1"');
  });
  it('are off unless asked for', async () => {
    expect(await render('## Intro\n')).toBe('<h2>Intro</h2>\n');
    expect(await render('## Intro\n', { footnotes: true })).toBe('<h2>Intro</h2>\n');
  });
});

describe('footnotes', () => {
  it('links a reference to its note at the end of the body, and back', async () => {
    const html = await render('A claim.[^src] More.\n\n[^src]: The source.\n\n## After\n', { footnotes: true, headingIds: true });
    expect(html).toMatch(/<sup><a id="footnote-ref-src" href="#footnote-src" data-footnote-ref aria-describedby="footnote-label">1<\/a><\/sup>/);
    expect(html.indexOf('<section class="footnotes"')).toBeGreaterThan(html.indexOf('id="after"'));
    expect(html).toContain('<li id="footnote-src">');
    expect(html).toContain('href="#footnote-ref-src"');
    await expectValid(html);
  });
  it('refuses a reference with no note, at its line and column; code, an escaped bracket and footnotes off leave it text', async () => {
    const ext = markdown({ footnotes: true }).markdown!;
    await prepareMarkdown(ext);
    const r = compileMarkdown('Text[^missing] here and [^1] there.\n\n- item [^two]\n\nSee[^three]: a colon after it.\n\n[^1]: A note.\n', ext);
    expect(r.problems.map((p) => [p.line, p.column, p.id, p.text])).toEqual([
      [1, 5, 'FootnoteWithoutNote', 'The footnote reference [^missing] has no note, and would be published as text'],
      [3, 8, 'FootnoteWithoutNote', 'The footnote reference [^two] has no note, and would be published as text'],
      [5, 4, 'FootnoteWithoutNote', 'The footnote reference [^three] has no note, and would be published as text'],
    ]);
    expect(r.problems[0].hint).toContain('[^missing]: The note.');
    const text = await render('Shown: `[^code]`, \\[^escaped], and\n\n```\n[^fenced]\n```\n', { footnotes: true });
    expect(text).toContain('[^escaped]');
    expect(await render('Off: [^x] stays.\n')).toContain('[^x]');
  });
  it('a heading slug never takes the footnotes heading id', async () => {
    const html = await render('## Footnote label\n\nX[^1]\n\n[^1]: n\n', { footnotes: true, headingIds: true });
    expect(html).toContain('<h2 id="footnote-label-1">');
    expect(html.match(/id="footnote-label"/g)).toHaveLength(1);
  });
  it('without the option, [^1] stays text', async () => {
    expect(await render('X[^1]\n')).toBe('<p>X[^1]</p>\n');
  });
  it('without the option, a note is refused at its line with the way to turn footnotes on, not published as text or as a link to its text', () => {
    const r = compileMarkdown('A claim[^1] and[^q].\n\n> Quoted.\n>\n> [^q]: In a quote.\n\n[^1]: measured\n\n[site]: https://example.com\n');
    const text = (label: string) => `${label}: writes a footnote, but footnotes are off: it would be published as it is written, or read as a link to its text`;
    expect(r.problems.map((p) => [p.line, p.column, p.id, p.text])).toEqual([
      [5, 3, 'FootnotesOff', text('[^q]')],
      [7, 1, 'FootnotesOff', text('[^1]')],
    ]);
    expect(r.problems[0].hint).toContain('markdown({ footnotes: true })');
    // A note in a tight list's item, and one over two lines of a quote, located at their first line.
    expect(compileMarkdown('- one\n- [^a]: in a list\n\n> [^b]: in\n> a quote\n').problems.map((p) => [p.line, p.column])).toEqual([[2, 3], [4, 3]]);
    // An ordinary link definition, a note in code, and a note with footnotes on are no problem.
    expect(compileMarkdown('A [link][site].\n\n[site]: https://example.com\n\n```\n[^1]: in code\n```\n').problems).toEqual([]);
  });
});

describe("marked's GFM (always on)", () => {
  it('renders tables with header and body, alignment as a class (align= is deprecated HTML)', async () => {
    const html = await render('| Name | Qty | Note |\n|:-----|----:|------|\n| a | 1 | x |\n');
    expect(html).toContain('<thead>\n<tr>\n<th class="align-left">Name</th>\n<th class="align-right">Qty</th>\n<th>Note</th>');
    expect(html).toContain('<tbody><tr>\n<td class="align-left">a</td>\n<td class="align-right">1</td>\n<td>x</td>');
    await expectValid(html);
  });
  it('renders task lists as disabled checkboxes named by their item (axe: a form control needs a name)', async () => {
    const html = await render('- [x] done\n- [ ] to *do* `"x"` & y\n');
    expect(html).toBe('<ul>\n<li><input checked="" disabled="" type="checkbox" aria-label="done"> done</li>\n<li><input disabled="" type="checkbox" aria-label="to do &quot;x&quot; &amp; y"> to <em>do</em> <code>&quot;x&quot;</code> &amp; y</li>\n</ul>\n');
    const loose = await render('- [x] first\n\n  more\n- [ ] second\n', { footnotes: true });
    expect(loose).toContain('<li><p><input checked="" disabled="" type="checkbox" aria-label="first"> first</p>');
    await expectValid(html);
  });
  it('renders strikethrough and bare links', async () => {
    expect(await render('~~old~~ https://example.com\n')).toBe('<p><del>old</del> <a href="https://example.com">https://example.com</a></p>\n');
  });
});

describe('smart quotes', () => {
  it('curls quotes and makes dashes and ellipses in prose, never in code or attributes', async () => {
    const html = await render('"Hi," she said -- it\'s done... `"x" -- y` [l](/a "t \\"q\\"")\n\n```\n"raw" --\n```\n', { smartQuotes: true });
    expect(html).toContain('<p>“Hi,” she said – it’s done… <code>&quot;x&quot; -- y</code>');
    expect(html).toContain('title="t &quot;q&quot;"');
    expect(html).toContain('<pre><code>&quot;raw&quot; --\n</code></pre>');
  });
  it('know quotes around markup, apostrophes, the 90s and inches from opening quotes', async () => {
    expect(await render('"*word*" and ("paren") --- \'single\', dogs\' bones, the \'90s, 5\'10" tall, "\'nested\'"\n', { smartQuotes: true }))
      .toBe('<p>“<em>word</em>” and (“paren”) — ‘single’, dogs’ bones, the ’90s, 5’10” tall, “‘nested’”</p>\n');
  });
  it('are off by default', async () => {
    expect(await render('"Hi" -- it\'s\n')).toBe('<p>&quot;Hi&quot; -- it&#39;s</p>\n');
  });
});

describe('highlighting', () => {
  it("marks up fenced code with Prism's token classes, by language name or alias", async () => {
    const html = await render('```js\nconst a = "<b>"; // c\n```\n\n```py\ndef f(): pass\n```\n', { highlight: true });
    expect(html).toContain('<pre class="language-js"><code class="language-js"><span class="token keyword">const</span> a <span class="token operator">=</span> <span class="token string">"&lt;b&gt;"</span>');
    expect(html).toContain('<span class="token comment">// c</span>\n</code></pre>');
    expect(html).toContain('<pre class="language-py"><code class="language-py"><span class="token keyword">def</span>');
    expect(html).not.toMatch(/<script|style=/);
    await expectValid(html);
  });
  it('leaves unknown languages and unlabelled code as plain code', async () => {
    const html = await render('```nolang\n<x> & y\n```\n\n```\nplain\n```\n', { highlight: true });
    expect(html).toBe('<pre><code class="language-nolang">&lt;x&gt; &amp; y\n</code></pre>\n<pre><code>plain\n</code></pre>\n');
  });
});

describe('raw HTML', () => {
  it('stays a located error by default, with or without other features', async () => {
    for (const ext of [undefined, markdown({ headingIds: true }).markdown!]) {
      await prepareMarkdown(ext);
      const r = compileMarkdown('Text\n\n<div onclick="x()">hi</div>\n', ext);
      expect(r.html).toBeUndefined();
      expect(r.problems).toEqual([expect.objectContaining({ line: 3, column: 1, text: expect.stringContaining('Raw HTML is not allowed in Markdown') })]);
    }
  });
  it("html: 'sanitize' keeps prose markup and drops scripts, handlers, styles and javascript: URLs", async () => {
    const body = '<details><summary>More</summary>\n\n*inside* <kbd>Ctrl</kbd>\n\n</details>\n\n<script>alert(1)</script>\n\n<img src="/i.png" alt="i" onerror="alert(1)"> <a href="javascript:alert(1)">x</a> <span style="color:red">s</span> <iframe src="https://e.com"></iframe>\n';
    const html = await render(body, { html: 'sanitize' });
    expect(html).toContain('<details><summary>More</summary><p><em>inside</em> <kbd>Ctrl</kbd></p>\n</details>');
    expect(html).toContain('<img src="/i.png" alt="i" />');
    expect(html).not.toMatch(/script|alert|onerror|style=|iframe|javascript/);
    await expectValid(html);
  });
  it("html: 'sanitize' says what it removes, each at its place, and nothing of what it keeps", async () => {
    const ext = markdown({ html: 'sanitize' }).markdown!;
    await prepareMarkdown(ext);
    const body = 'Intro <kbd>Ctrl</kbd>.\n\n<details><summary>More</summary>\n\nText.\n\n</details>\n\n<iframe src="https://www.youtube.com/embed/x"></iframe>\n\n<img src="/i.png" alt="i" onerror="alert(1)">\n\n<span style="color:red">s</span>\n';
    const r = compileMarkdown(body, ext);
    expect(r.problems).toEqual([]);
    expect(r.html).not.toMatch(/iframe|onerror|style=/);
    expect(r.notices?.map((n) => [n.line, n.column, n.text])).toEqual([
      [9, 1, "html: 'sanitize' removes <iframe> from this body"],
      [11, 1, "html: 'sanitize' removes <img onerror> from this body"],
      [13, 1, "html: 'sanitize' removes <span style> from this body"],
    ]);
    expect(r.notices![0].hint).toMatch(/component the body names/);
    // Prose HTML it keeps as written, and a body without raw HTML: nothing to say.
    expect(compileMarkdown('<details><summary>M</summary>\n\nx\n\n</details>\n', ext).notices).toBeUndefined();
    expect(compileMarkdown('Plain *text*.\n', ext).notices).toBeUndefined();
    // The same removal is said once a body; many different ones are located in one pass over the body.
    expect(compileMarkdown('<span style="a">x</span>\n\n<span style="b">y</span>\n', ext).notices).toHaveLength(1);
    const many = (n: number) => Array.from({ length: n }, (_, i) => `<span data-k${i}="x">x</span>\n`).join('\n');
    const time = (n: number) => { const b = many(n); return Math.min(cpuMs(() => compileMarkdown(b, ext)), cpuMs(() => compileMarkdown(b, ext))); };
    const located = compileMarkdown(many(3), ext).notices!.map((n) => [n.line, n.column, n.text]);
    expect(located).toEqual([[1, 1, "html: 'sanitize' removes <span data-k0> from this body"], [3, 1, "html: 'sanitize' removes <span data-k1> from this body"], [5, 1, "html: 'sanitize' removes <span data-k2> from this body"]]);
    const small = Math.max(5, time(2_000));
    expect(time(16_000)).toBeLessThan(small * 8 * 3); // linear: about 8 times (a line count from the start for each: over 30)
  });
  it("html: 'sanitize' leaves a body without raw HTML exactly as marked renders it", async () => {
    const body = '# T\n\nA & B < C, [l](/a "t"), `<x>`, ![i](/i.png)\n\n```\n<b>\n```\n';
    expect(await render(body, { html: 'sanitize' })).toBe(await render(body));
  });
  it('javascript: links written in Markdown stay located errors when raw HTML is allowed', async () => {
    const ext = markdown({ html: 'sanitize' }).markdown!;
    await prepareMarkdown(ext);
    expect(compileMarkdown('[x](javascript:alert(1))\n', ext).problems[0].text).toContain('javascript: URL is not allowed');
  });
});

describe("plugins' marked extensions", () => {
  it('run their walkTokens and hooks, as marked.parse would (footnotes and smart quotes rely on them)', () => {
    const ext = [
      { walkTokens: (t: any) => { if (t.type === 'text') t.text = t.text.toUpperCase(); } },
      { hooks: { postprocess: (html: string) => html.replace('<p>', '<p class="lead">') } },
    ];
    expect(compileMarkdown('hello\n', ext).html).toBe('<p class="lead">HELLO</p>\n');
  });
});

describe('markdown() options', () => {
  it('refuses unknown options and wrong values, naming them', () => {
    expect(() => markdown({ headingId: true } as MarkdownOptions)).toThrow('markdown(): unknown option "headingId"');
    expect(() => markdown({ html: 'allow' } as unknown as MarkdownOptions)).toThrow('option "html" cannot be "allow"');
  });
  it('the content cache key names the options, so changing one re-renders Markdown', () => {
    const a = markdownKey(markdown({ highlight: true }).markdown!);
    expect(markdownKey(markdown({ highlight: true }).markdown!)).toBe(a);
    expect(markdownKey(markdown({ highlight: false }).markdown!)).not.toBe(a);
    expect(markdownKey([])).toBe('');
  });
});

describe('raw HTML in a line of text', () => {
  it('is said once an element, at its start tag; a stray end tag on its own; a block of HTML once', () => {
    const texts = (body: string) => compileMarkdown(body).problems.map((p) => [p.line, p.column, p.text]);
    expect(texts('A <span>raw</span> text.\n')).toEqual([[1, 3, 'Raw HTML is not allowed in Markdown: <span>']]);
    expect(texts('A </em> stray, <b>x</b>, <br/> and <i>y</i> <i>z</i>.\n')).toEqual([
      [1, 3, 'Raw HTML is not allowed in Markdown: </em>'],
      [1, 16, 'Raw HTML is not allowed in Markdown: <b>'],
      [1, 26, 'Raw HTML is not allowed in Markdown: <br/>'],
      [1, 36, 'Raw HTML is not allowed in Markdown: <i>'],
      [1, 45, 'Raw HTML is not allowed in Markdown: <i>'],
    ]);
    expect(texts('<div>\nblock\n</div>\n')).toEqual([[1, 1, 'Raw HTML is not allowed in Markdown: <div>']]);
    // A block that starts with the end tag but holds more is said: what follows it is not hidden.
    expect(texts('<div class="note">\nHello\n\n</div>\n<script>alert(1)</script>\n').map((p) => p[2])).toEqual([
      'Raw HTML is not allowed in Markdown: <div class="note">',
      'Raw HTML is not allowed in Markdown: </div>',
    ]);
  });
});
