// The content policy holds for the HTML a Markdown body becomes, whatever feature or extension wrote it.
// Every engine feature (footnotes, heading ids, smart quotes, highlighting, GFM tables and task lists,
// sanitize) is run on hostile bodies under `html: 'refuse'` and `'sanitize'`, and the output is parsed with
// an HTML parser (htmlparser2, the one sanitize-html uses): each body is either refused with a location or
// renders only elements, attributes and URLs the policy allows.
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MarkedExtension, Tokens } from 'marked';
import { compileMarkdown, prepareMarkdown } from '../../src/markdown/compile.ts';
import { ALLOWED_ATTRIBUTES, ALLOWED_TAGS, htmlPolicyViolation } from '../../src/content/htmlPolicy.ts';
import { markdown, type MarkdownOptions } from '../../src/markdown/options.ts';
import { REPO } from '../helpers/cli.ts';
import { prng } from '../helpers/prng.ts';

type Htmlparser2 = { Parser: new (cb: { onopentag?(name: string, attribs: Record<string, string>): void; oncomment?(): void }, o?: object) => { write(s: string): void; end(): void } };
const sanitizeEntry = createRequire(path.join(REPO, 'package.json')).resolve('sanitize-html');
const { Parser } = createRequire(sanitizeEntry)('htmlparser2') as Htmlparser2;

const FORBIDDEN_TAGS = ['script', 'style', 'iframe', 'object', 'embed', 'svg', 'math', 'form', 'link', 'meta', 'base', 'textarea', 'template', 'noscript', 'frame', 'button', 'select'];
const allowedAttr = (tag: string, name: string) =>
  [...(ALLOWED_ATTRIBUTES[tag] ?? []), ...ALLOWED_ATTRIBUTES['*']].some((a) => (a.endsWith('*') ? name.startsWith(a.slice(0, -1)) : a === name));
const runsScript = (url: string) => /^(?:javascript|vbscript|data):/i.test(url.replace(/[\u0000-\u0020]/g, ''));

/** What a browser would get that the policy does not allow, read by a real HTML parser. */
function disallowed(html: string): string[] {
  const out: string[] = [];
  const parser = new Parser({
    onopentag(name, attribs) {
      if (FORBIDDEN_TAGS.includes(name) || !ALLOWED_TAGS.includes(name)) out.push(`<${name}>`);
      for (const [a, v] of Object.entries(attribs)) {
        if (a.startsWith('on') || a === 'style' || a === 'srcdoc' || a === 'formaction' || !allowedAttr(name, a)) out.push(`<${name} ${a}>`);
        if (['href', 'src', 'cite', 'srcset', 'action', 'xlink:href'].includes(a) && v.split(',').some(runsScript)) out.push(`<${name} ${a}=${v}>`);
      }
      if (name === 'input' && attribs.type !== 'checkbox') out.push('<input> not a checkbox');
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  return out;
}

const XSS = '<img src=x onerror=alert(1)>';
const HOSTILE: string[] = [
  // footnote labels (marked-footnote wrote them raw into aria-label)
  `A[^x"><img src=x onerror=alert(1)>]\n\n[^x"><img src=x onerror=alert(1)>]: note\n`,
  `A[^a' onmouseover='alert(1)]\n\n[^a' onmouseover='alert(1)]: note\n`,
  `A[^$&${XSS}$']\n\n[^$&${XSS}$']: note [^n]\n\n[^n]: "quoted" -- note\n`,
  `A[^<script>alert(1)</script>] B[^<script>alert(1)</script>]\n\n[^<script>alert(1)</script>]: n\n`,
  // heading ids
  `# x"><img src=x onerror=alert(1)>\n\n## "onmouseover="alert(1)\n\n## 'a' &quot;b&quot; &#34;c\n`,
  `# [link](javascript:alert(1))\n`,
  // links and images: schemes, character references, titles
  `[a](javascript:alert(1)) [b](jav&#x61;script&#58;alert(1)) <javascript:alert(1)>\n`,
  `![i](data:text/html,<script>alert(1)</script>) [c](&#x20;javascript:alert(1))\n`,
  `[t](/x "t\\"onmouseover=alert(1)") [u](/y 'it's "q"')\n`,
  `[ref]\n\n[ref]: javascript:alert(1) "x"\n`,
  // raw HTML
  `${XSS}\n\n<script>alert(1)</script>\n`,
  `<a href="javascript:alert(1)">x</a> <svg><script>alert(1)</script></svg>\n`,
  `<!-- x --><img src=x onerror=alert(1)> <style>*{}</style> <iframe srcdoc="x"></iframe>\n`,
  `<details open ontoggle=alert(1)><summary>s</summary>**md** inside</details>\n`,
  `<input type="text" value="x"> <input type=checkbox onclick=alert(1)>\n`,
  // code, highlighting
  '```js\n</code></pre><img src=x onerror=alert(1)>\n```\n',
  '```js"onmouseover="alert(1)\nlet a = "<b>"\n```\n',
  '```html\n<script>alert("x")</script>\n```\n\n`</code><img src=x onerror=1>`\n',
  // GFM: tables, task lists, autolinks, strikethrough
  `| a"<b> | b |\n|:-|-:|\n| ${XSS} | [x](javascript:1) |\n`,
  `- [ ] x" onmouseover="alert(1)\n- [x] ${XSS}\n- [ ] \`"><img src=x onerror=1>\`\n`,
  `www.example.com/"onmouseover="alert(1) ~~${XSS}~~ https://x.test/<img>\n`,
  // smart quotes next to markup
  `"<img src=x onerror=alert(1)>" and '${XSS}' -- "a" --- 'b'...\n`,
  `[it's "x"](/p "it's \\"y\\"") ![a "b"](/i.png "c 'd'")\n`,
  // entities and escapes
  `&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x onerror=1&#62; \\<img src=x onerror=1>\n`,
  // tokens that look like object keys
  `{__proto__} __proto__ {constructor}\n`,
];

const FEATURES: Record<string, MarkdownOptions> = {
  footnotes: { footnotes: true },
  headingIds: { headingIds: true },
  smartQuotes: { smartQuotes: true },
  highlight: { highlight: true },
  all: { footnotes: true, headingIds: true, smartQuotes: true, highlight: true },
};

async function compile(body: string, options?: MarkdownOptions, own: MarkedExtension[] = []) {
  const ext = options || own.length ? [...(options ? markdown(options).markdown! : []), ...own] : undefined;
  await prepareMarkdown(ext);
  return compileMarkdown(body, ext);
}

describe('every Markdown feature, hostile input, both html modes', () => {
  const configs: [string, MarkdownOptions | undefined][] = [['none (GFM only)', undefined]];
  for (const [name, f] of Object.entries(FEATURES)) for (const html of ['refuse', 'sanitize'] as const) configs.push([`${name}, html: ${html}`, { ...f, html }]);
  for (const [name, options] of configs) {
    it(`${name}: each body is refused with a location or renders only what the policy allows`, async () => {
      const leaks: string[] = [];
      for (const body of HOSTILE) {
        const r = await compile(body, options);
        if (r.problems.length) {
          for (const p of r.problems) { expect(p.line).toBeGreaterThanOrEqual(1); expect(p.column).toBeGreaterThanOrEqual(1); }
          continue;
        }
        const bad = disallowed(r.html!);
        if (bad.length) leaks.push(`${JSON.stringify(body)} → ${bad.join(' ')}`);
      }
      expect(leaks).toEqual([]);
    });
  }
});

describe('footnote labels', () => {
  for (const html of ['refuse', 'sanitize'] as const) {
    it(`a label that breaks out of an attribute renders as text, its links still matched (html: ${html})`, async () => {
      const r = await compile(`A claim.[^x"><img src=x onerror=alert(1)>]\n\n[^x"><img src=x onerror=alert(1)>]: The note.\n`, { footnotes: true, html });
      expect(r.problems).toEqual([]);
      const out = r.html!;
      expect(disallowed(out)).toEqual([]);
      expect(out).toContain('aria-label="Back to reference x&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
      const ref = /<a id="footnote-ref-([^"]+)" href="#footnote-([^"]+)"/.exec(out)!;
      expect(ref[1]).toBe(ref[2]);
      expect(out).toContain(`<li id="footnote-${ref[1]}">`);
      expect(out).toContain(`href="#footnote-ref-${ref[1]}"`);
    });
  }
  it('a label with "$&" is not read as a replacement pattern', async () => {
    const r = await compile('A[^a$&b]\n\n[^a$&b]: n\n', { footnotes: true });
    expect(r.html).toContain('aria-label="Back to reference a&#36;&amp;b"');
  });
});

describe('the policy holds for any extension: a plugin renderer that writes the body\'s text as markup', () => {
  // A site's own marked extension that forgets to escape: codespans written raw.
  const raw: MarkedExtension = { renderer: { codespan(token) { return `<code>${token.raw.slice(1, -1)}</code>`; } } };
  const body = 'Intro line.\n\nSee `<img src=x onerror=alert(1)>` here.\n';
  it('is refused with the line and column of the text it came from (the attribute) (html: refuse, and with no features)', async () => {
    for (const options of [undefined, { headingIds: true }] as (MarkdownOptions | undefined)[]) {
      const r = await compile(body, options, [raw]);
      expect(r.html).toBeUndefined();
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0]).toMatchObject({ line: 3, column: 17, lineText: 'See `<img src=x onerror=alert(1)>` here.' });
      expect(r.problems[0].text).toContain('<img onerror>');
    }
  });
  it('is sanitized (html: sanitize): the element stays, the handler goes', async () => {
    const r = await compile(body, { html: 'sanitize' }, [raw]);
    expect(r.problems).toEqual([]);
    expect(r.html).toContain('<code><img src="x" /></code>');
    expect(disallowed(r.html!)).toEqual([]);
  });
  it('an extension writing a javascript: link or a script is refused', async () => {
    const link: MarkedExtension = { renderer: { link(token) { return `<a href="${token.href.replace(/^x-/, '')}">${token.text}</a>`; } } };
    const r = await compile('[go](x-javascript:alert(1))\n', undefined, [link]);
    expect(r.problems.map((p) => p.text)).toEqual([expect.stringContaining('<a href="javascript:…">')]);
    const script: MarkedExtension = { renderer: { paragraph() { return '<p><script>alert(1)</script></p>'; } } };
    expect((await compile('text\n', undefined, [script])).problems[0].text).toContain('<script>');
  });
  it('markup the policy allows from an extension still renders', async () => {
    const note: MarkedExtension = { renderer: { blockquote(token) { return `<aside class="note" aria-label="Note"><p>${this.parser.parseInline((token.tokens[0] as Tokens.Paragraph).tokens)}</p></aside>`; } } };
    const r = await compile('> Be *careful*.\n', { smartQuotes: true }, [note]);
    expect(r.problems).toEqual([]);
    expect(r.html).toBe('<aside class="note" aria-label="Note"><p>Be <em>careful</em>.</p></aside>');
  });
});

describe('the output check reads tags as a browser does', () => {
  // Generated markup from the pieces a tokenizer turns on: wherever the check passes a string, a real parser
  // must find nothing the policy refuses.
  const PIECES = [
    '<', '>', '/', '"', "'", '=', ' ', '\n', '\t', '\f', 'a', 'img', 'p', 'script', 'href', 'src', 'onerror', 'class', 'x', 'javascript:', '&#106;',
    '<!--', '-->', '--!>', '<!', '<?', '</', 'input', 'type', 'checkbox', 'IMG', 'ONCLICK', '\u212Abd', '\0',
    '<p ', '<a ', '<img ', ' title="', " title='", ' href=', ' onclick=x', '=x', '<p title="', '">', "'>",
  ];
  it('passes nothing a parser reads as refused (20,000 generated strings)', () => {
    const rand = prng(20261126);
    const missed: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      let s = '';
      const len = 1 + Math.floor(rand() * 14);
      for (let k = 0; k < len; k++) s += PIECES[Math.floor(rand() * PIECES.length)];
      if (htmlPolicyViolation(s) === null && disallowed(s).length) missed.push(JSON.stringify(s));
    }
    expect(missed.slice(0, 10)).toEqual([]);
  });
  it('allows what marked and the features write, refuses the rest', () => {
    expect(htmlPolicyViolation('<p>a &lt;b&gt; <a href="/x" title="a>b">c</a><br><input checked="" disabled="" type="checkbox" aria-label="x"></p><!-- c --><hr />')).toBeNull();
    expect(htmlPolicyViolation('<p title="x">a</p><img src=x onerror=alert(1)>')).toMatchObject({ tag: 'img', attribute: 'onerror' });
    expect(htmlPolicyViolation('<a href=" jav&#x41;script&colon;x">')).toMatchObject({ tag: 'a', attribute: 'href' });
    expect(htmlPolicyViolation('<img srcset="/a.png 1x, javascript:x 2x">')).toMatchObject({ attribute: 'srcset' });
    expect(htmlPolicyViolation('<input>')).toMatchObject({ tag: 'input' });
    expect(htmlPolicyViolation('<!-- <img onerror=x> --> <svg>')).toMatchObject({ tag: 'svg' });
    expect(htmlPolicyViolation('<p class="a"onclick=x>')).toMatchObject({ attribute: 'onclick' });
    expect(htmlPolicyViolation('<p/onclick=x>')).toMatchObject({ attribute: 'onclick' });
    expect(htmlPolicyViolation('<p =onclick>')).toMatchObject({ attribute: '=onclick' });
  });
});
