// Template code from other generators in a Markdown body (a site moved from Hugo, Jekyll or Eleventy): a
// shortcode, a Liquid/Nunjucks tag or a template expression in the text is never run, and is refused at its line and column instead
// of being published as text; in code, escaped, or a lone "{%" in prose it stays text.
import { describe, expect, it } from 'vitest';
import { compileMarkdown, prepareMarkdown } from '../../src/markdown/compile.ts';
import { markdown } from '../../src/markdown/options.ts';
import { TOC_MARKER_IN_BODY, TOC_MARKER_LINE } from '../../src/markdown/policy.ts';
import { templateTag } from '../../src/markdown/codeInText.ts';
import { copyOf } from '../helpers/scratch.ts';
import { cpuMs } from '../helpers/cpuTime.ts';

const problems = (body: string) => compileMarkdown(body).problems.map((p) => [p.line, p.column, p.id, p.text]);

describe('template tags in Markdown', () => {
  it('refuses Hugo shortcodes and Liquid/Nunjucks tags in text, located where they start', () => {
    expect(problems('Intro.\n\n{{< youtube dQw4w9WgXcQ >}}\n')).toEqual([[3, 1, 'TemplateTagInMarkdown', 'A Hugo shortcode is not run, and would be published as text: {{< youtube dQw4w9WgXcQ >}}']]);
    expect(problems('See {{% notice tip %}}Hi{{% /notice %}}.\n')).toEqual([[1, 5, 'TemplateTagInMarkdown', 'A Hugo shortcode is not run, and would be published as text: {{% notice tip %}}']]);
    expect(problems('- one\n- two {% image "cat.jpg", "A cat" %}\n')).toEqual([[2, 7, 'TemplateTagInMarkdown', 'A Liquid/Nunjucks tag is not run, and would be published as text: {% image "cat.jpg", "A cat" %}']]);
    expect(problems('| a |\n| - |\n| {%- if x -%} |\n')).toEqual([[3, 3, 'TemplateTagInMarkdown', 'A Liquid/Nunjucks tag is not run, and would be published as text: {%- if x -%}']]);
    // Every tag of a paragraph, not its first only (each fixed at once, not one a build).
    expect(problems('Year: {{ "now" | date: "%Y" }}, by {{ site.author }}.\n')).toEqual([[1, 7, 'TemplateTagInMarkdown', 'A template expression is not run, and would be published as text: {{ "now" | date: "%Y" }}'], [1, 36, 'TemplateTagInMarkdown', 'A template expression is not run, and would be published as text: {{ site.author }}']]);
    // (a construct's closing tag is not said again: its opening one is)
    expect(problems('{%- if draft -%}\nDraft {% set x = 1 %}.\n{%- endif -%}\n').map((p) => p[3])).toEqual(['A Liquid/Nunjucks tag is not run, and would be published as text: {%- if draft -%}', 'A Liquid/Nunjucks tag is not run, and would be published as text: {% set x = 1 %}']);
    expect(problems('# {{- page.title -}}\n')).toEqual([[1, 3, 'TemplateTagInMarkdown', 'A template expression is not run, and would be published as text: {{- page.title -}}']]);
    expect(problems('Intro.\n\n> A quote {{< figure\n> src="a.jpg" >}} here.\n')).toEqual([[3, 11, 'TemplateTagInMarkdown', 'A Hugo shortcode is not run, and would be published as text: {{< figure src="a.jpg" >}}']]);
    expect(problems('{{#each posts}}x{{/each}}\n')).toEqual([[1, 1, 'TemplateTagInMarkdown', 'A template expression is not run, and would be published as text: {{#each posts}}']]);
    // An opener that never closes does not hide a later tag of another kind.
    expect(problems('A {% lonely and {{ site.title }}.\n')).toEqual([[1, 17, 'TemplateTagInMarkdown', 'A template expression is not run, and would be published as text: {{ site.title }}']]);
    // A shortcode whose name touches its "<" reads as HTML to Markdown: named as a shortcode, not as raw HTML.
    expect(problems('{{<figure src="a.jpg">}}\n')).toEqual([[1, 1, 'TemplateTagInMarkdown', 'A Hugo shortcode is not run, and would be published as text: {{<figure src="a.jpg">}}']]);
  });

  it('refuses a Nunjucks/Jinja comment, which would publish an author\'s note, and leaves a heading id {#id} alone', () => {
    expect(problems('Intro.\n\n{# a note that should never be published #}\n\nAlso {#- inline -#} here.\n')).toEqual([
      [3, 1, 'TemplateTagInMarkdown', 'A Nunjucks/Jinja comment is not run, and would be published as text: {# a note that should never be published #}'],
      [5, 6, 'TemplateTagInMarkdown', 'A Nunjucks/Jinja comment is not run, and would be published as text: {#- inline -#}'],
    ]);
    expect(compileMarkdown('{# note #}\n').problems[0]!.hint).toMatch(/as an HTML comment, <!-- like this -->, which is left out of the page/);
    // Written close, and one that goes on over a blank line (its paragraphs are two texts): each said, at its start.
    expect(problems('Intro {#note#} here.\n')).toEqual([[1, 7, 'TemplateTagInMarkdown', 'A Nunjucks/Jinja comment is not run, and would be published as text: {#note#}']]);
    expect(problems('{# TODO: rewrite this\n\nbefore launch #}\n').map((p) => p.slice(0, 2))).toEqual([[1, 1]]);
    expect(problems('## Setup {#setup}\n\nA set {#a, #b} and C# code {#}.\n')).toEqual([]);
  });

  it('refuses an MDX import or export line (a post moved from Astro), and leaves prose that says import as text', () => {
    expect(problems("---\n\nimport Callout from '../components/Callout.astro';\n\nText.\n")).toEqual([[3, 1, 'TemplateTagInMarkdown', "An MDX import is not run, and would be published as text: import Callout from '../components/Callout.astro';"]]);
    expect(problems('Intro.\n\nexport const meta = { title: "x" };\n')).toEqual([[3, 1, 'TemplateTagInMarkdown', 'An MDX export is not run, and would be published as text: export const meta = { title: "x" };']]);
    expect(compileMarkdown("Intro.\n\nimport X from 'y';\n").problems[0].hint).toMatch(/^sitegen runs no code in content: take the line out\. A component is written as a directive/);
    expect(problems('We import coffee from Brazil, and export tea.\n\n```js\nimport x from "y";\n```\n')).toEqual([]);
    // (a sentence wrapped so that a later line starts with either word)
    expect(problems("In an ES module you can\nexport function declarations, or\nimport names from 'other files' by path.\n")).toEqual([]);
    // Old HTML in capitals is HTML, not a component.
    expect(compileMarkdown('<CENTER>Hi</CENTER>\n').problems[0]!.hint).not.toMatch(/is a component/);
  });

  it('an MDX or Astro component written as a tag is told to be a directive, and <Image> a Markdown image', () => {
    const hint = (body: string) => compileMarkdown(body).problems.map((p) => [p.text, p.hint]);
    expect(hint('Intro.\n\n<Callout type="tip">Hi</Callout>\n')[0]).toEqual(['Raw HTML is not allowed in Markdown: <Callout type="tip">', '<Callout> is a component: write it as a directive, :::Callout{…} … ::: (or ::Callout{…} without content), registered in the config\'s components (see Components in Markdown).']);
    expect(hint('<Image src={hero} alt="x" />\n')[0]![1]).toBe('Write an image in Markdown, ![what it shows](./photo.jpg): it is published as optimized versions (see Images).');
  });

  it('leaves code, escaped braces, unclosed and non-tag braces as text', () => {
    for (const body of [
      'Write `{{< youtube id >}}` in Hugo.\n',
      '```\n{% include "a.html" %}\n{{< x >}}\n```\n',
      '    {% indented code %}\n',
      'Shown as text: \\{% raw %} and \\{{< x >}}.\n',
      'A set {%} or 50{%}, a {% tag that never closes.\n',
      'JSON {"a": {"b": 1}}, {{}} and {{ 1 + 1 }} stay, as does {{ an unclosed one.\n',
      'LaTeX $\\frac{{a}}{{b}}$, a set {{a, b}, {c}} and JSX in prose: style={{color: "red"}}.\n',
    ]) {
      const r = compileMarkdown(body);
      expect(r.problems, body).toEqual([]);
    }
    expect(compileMarkdown('Shown: \\{% raw %}\n').html).toContain('{% raw %}');
  });

  it('reads a text in one pass (a body of 200,000 braces takes about as long per brace as one of 20,000)', () => {
    for (const unit of ['{', '{%', '{{', '{{<', '{% a ', '{{< a ', '{{ a ', '{{ a {% b ']) {
      const small = unit.repeat(20_000 / unit.length), big = unit.repeat(200_000 / unit.length);
      const base = Math.max(2, Math.min(cpuMs(() => templateTag(small)), cpuMs(() => templateTag(small))));
      let ms = cpuMs(() => templateTag(big));
      for (let again = 0; again < 3 && ms > 30 * base; again++) ms = Math.min(ms, cpuMs(() => templateTag(big)));
      expect(ms, unit).toBeLessThan(30 * base);
    }
  });

  it('refuses a table-of-contents marker on a line of its own ([[toc]], [TOC], ${toc}, {:toc}), pointing at entry.headings', () => {
    const toc = (body: string) => compileMarkdown(body).problems.map((p) => [p.line, p.column, p.id, p.text]);
    expect(toc('# Guide\n\n[[toc]]\n\n## One\n')).toEqual([[3, 1, 'TemplateTagInMarkdown', 'A table-of-contents marker is not expanded, and would be published as text: [[toc]]']]);
    expect(toc('Intro.\n\n[TOC]\n')).toEqual([[3, 1, 'TemplateTagInMarkdown', 'A table-of-contents marker is not expanded, and would be published as text: [TOC]']]);
    expect(toc('${toc}\n')).toEqual([[1, 1, 'TemplateTagInMarkdown', 'A table-of-contents marker is not expanded, and would be published as text: ${toc}']]);
    expect(toc('[[_TOC_]]\n')[0]?.[3]).toContain('[[_TOC_]]');
    // An ordered list's item that is the marker, in a body with nothing else the policy looks at.
    expect(toc('1. [[toc]]\n2. Intro\n')).toEqual([[1, 4, 'TemplateTagInMarkdown', 'A table-of-contents marker is not expanded, and would be published as text: [[toc]]']]);
    // kramdown's: a list item whose second line is the marker.
    expect(toc('Intro.\n\n* TOC\n{:toc}\n')).toEqual([[4, 1, 'TemplateTagInMarkdown', 'A table-of-contents marker is not expanded, and would be published as text: {:toc}']]);
    expect(compileMarkdown('[[toc]]\n').problems[0]!.hint).toMatch(/entry\.headings/);
    // Located at the marker's own line, not at the same text earlier in a sentence; in a quote, after its "> ".
    expect(toc('The [[toc]] marker of markdown-it.\n\n[[toc]]\n').map((p) => [p[0], p[1]])).toEqual([[3, 1]]);
    expect(toc('Intro.\n\n> [TOC]\n').map((p) => [p[0], p[1]])).toEqual([[3, 3]]);
    // Not at the same line earlier in a code block, which is shown as written.
    expect(toc('```\n[[toc]]\n```\n\n[[toc]]\n').map((p) => [p[0], p[1]])).toEqual([[5, 1]]);
    expect(toc('Intro.\n\n    [TOC]\n\nMore.\n\n[TOC]\n').map((p) => [p[0], p[1]])).toEqual([[7, 1]]);
    // Code inside a list item or a quote, whose markers its raw text has lost.
    expect(toc('- item\n\n  ```\n  [[toc]]\n  ```\n\n[[toc]]\n').map((p) => [p[0], p[1]])).toEqual([[7, 1]]);
    expect(toc('> ```\n> [TOC]\n> ```\n\n[TOC]\n').map((p) => [p[0], p[1]])).toEqual([[5, 1]]);
    // Many code blocks in list items (tabs in one, which the lexer expands) are passed in one read of the body.
    const listed = (n: number) => Array.from({ length: n }, (_, i) => `- item ${i}\n\n  \`\`\`\n  code\t${i}\n  \`\`\`\n`).join('\n') + '\n[[toc]]\n';
    const listedMs = (n: number) => { const b = listed(n); return Math.min(cpuMs(() => compileMarkdown(b)), cpuMs(() => compileMarkdown(b))); };
    expect(toc(listed(3)).map((p) => p[0])).toEqual([listed(3).split('\n').length - 1]);
    const base = Math.max(5, listedMs(1_000));
    expect(listedMs(8_000)).toBeLessThan(base * 8 * 3);
    // In a sentence, in code, escaped, or a link with a definition of that name: text (or a link), as written.
    for (const body of ['The [[toc]] marker of markdown-it.\n', '`[[toc]]`\n', '```\n[TOC]\n```\n', '\\[TOC]\n', '[toc]\n\n[toc]: /contents/\n', 'A word: toc.\n']) {
      expect(compileMarkdown(body).problems, body).toEqual([]);
    }
    // The line pattern reads a body in linear time: lines of the characters it repeats, and one long line.
    for (const unit of [' ', '>', '- ', '1.', '[[toc]] ', '{: toc', '\n[[', '\n{:', '\n> [TOC] x', '\n1. [TOC] x']) {
      const small = unit.repeat(20_000 / unit.length) + 'x\n', big = unit.repeat(200_000 / unit.length) + 'x\n';
      for (const re of [TOC_MARKER_LINE, TOC_MARKER_IN_BODY]) {
        const base = Math.max(2, Math.min(cpuMs(() => re.test(small)), cpuMs(() => re.test(small))));
        let ms = cpuMs(() => re.test(big));
        for (let again = 0; again < 3 && ms > 30 * base; again++) ms = Math.min(ms, cpuMs(() => re.test(big)));
        expect(ms, JSON.stringify(unit)).toBeLessThan(30 * base);
      }
    }
  });

  it('says when raw HTML is an element the sanitize option would remove too (an embed, a script), and what writes it instead', () => {
    const hint = (body: string) => compileMarkdown(body).problems.map((p) => p.hint);
    expect(hint('<iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>\n')).toEqual([expect.stringMatching(/^markdown\(\{ html: 'sanitize' \}\) would remove <iframe> too\. Write it in a component the body names \(::YouTube/)]);
    expect(hint('<video src="a.mp4" controls></video>\n')[0]).toContain('would remove <video> too');
    expect(hint('<script>track()</script>\n')).toEqual([expect.stringMatching(/^Content never runs scripts.*put the code in an island/)]);
    // An element the option keeps: the general hint, which names the option.
    expect(hint('<details><summary>More</summary>\n\nText\n\n</details>\n')[0]).toMatch(/^Write it in Markdown or put the markup in a template; to keep a body's safe HTML/);
  });

  it('with raw HTML allowed (sanitize), reads the HTML tokens in one pass, and finds a shortcode after the same tag as plain HTML', async () => {
    const ext = markdown({ html: 'sanitize' }).markdown!;
    await prepareMarkdown(ext);
    const body = (n: number) => Array.from({ length: n }, (_, i) => `<span data-k="${i}">x</span>\n`).join('\n');
    const time = (n: number) => { const b = body(n); return Math.min(cpuMs(() => compileMarkdown(b, ext)), cpuMs(() => compileMarkdown(b, ext))); };
    const small = Math.max(5, time(2_000));
    expect(time(16_000)).toBeLessThan(small * 8 * 3); // linear: about 8 times; the quadratic scan was over 50 times
    const r = compileMarkdown('<figure>x</figure>\n\nText {{<figure>}} more.\n', ext);
    expect(r.problems.map((p) => [p.line, p.id])).toEqual([[3, 'TemplateTagInMarkdown']]);
  });

  it('fails a build with the file, line and column, and check in the same words', async () => {
    const site = await copyOf('basic', { 'content/pages/about.md': '---\ntitle: About\n---\n# About\n\n{{< youtube dQw4w9WgXcQ >}}\n' });
    try {
      const build = await site.build();
      expect(build.code).toBe(1);
      const text = build.stderr;
      expect(text).toContain('content/pages/about.md:6:1 A Hugo shortcode is not run, and would be published as text: {{< youtube dQw4w9WgXcQ >}}');
      expect(text).toContain('to show the tag as text, put it in backticks');
      const check = await site.check();
      expect(check.code).toBe(1);
      expect(check.errors.map((e) => e.id)).toEqual(build.errors.map((e) => e.id));
      expect(check.errors[0].id).toBe('TemplateTagInMarkdown');
    } finally {
      site.remove();
    }
  });

  it('refuses a route path holding a permalink placeholder or template code (a front matter permalink), at its source', async () => {
    const site = await copyOf('basic', {
      'content/pages/about.md': '---\ntitle: About\npermalink: /:year/:title/\n---\nText.\n',
      'content/pages/more.md': '---\ntitle: More\npermalink: /blog/{{ page.fileSlug }}/\n---\nText.\n',
    });
    try {
      site.edit('sitegen.config.ts', (t) => t
        .replace("const Page$ = z.strictObject({ title: z.string().min(1), description: z.string().optional() });", "const Page$ = z.strictObject({ title: z.string().min(1), description: z.string().optional(), permalink: z.string().optional() });")
        .replace('{ path: `/${p.slug}`, component: Doc', '{ path: p.data.permalink ?? `/${p.slug}`, component: Doc'));
      const build = await site.build();
      expect(build.code).toBe(1);
      const texts = build.errors.map((e) => [e.location?.file, e.text]);
      expect(texts).toContainEqual(['content/pages/about.md', expect.stringContaining('/:year/:title/" holds the placeholder ":year", which Hugo and Jekyll fill in; sitegen runs no code in content')]);
      expect(texts).toContainEqual(['content/pages/more.md', expect.stringContaining('holds template code, which Eleventy runs')]);
    } finally {
      site.remove();
    }
  });

  it('warns of template code in a front matter value, at the value, from the cache and in dev too, and builds', async () => {
    const site = await copyOf('basic', { 'content/pages/about.md': '---\ntitle: "Notes on {{ site.title }}"\ndescription: Plain.\n---\nText.\n' });
    try {
      const text = 'title holds a template expression, which is not run, so the page would show it as it is: {{ site.title }}';
      const want = [['content/pages/about.md', 2, 8, 'TemplateTagInMarkdown', text]];
      const where = (r: { warnings: { id: string; text: string; location: { file: string; line: number; column: number } | null }[] }) => r.warnings.map((w) => [w.location?.file, w.location?.line, w.location?.column, w.id, w.text]);
      // Dev first, on a fresh clone (its lazy start reads front matter first), then builds from the cache it wrote.
      const dev = await site.dev();
      try {
        await expect.poll(() => dev.output(), { timeout: 10_000 }).toContain(`content/pages/about.md:2:8 ${text}`);
      } finally { await dev.close(); }
      const build = await site.build();
      expect(build.code).toBe(0);
      expect(where(build)).toEqual(want);
      site.edit('templates/pages.tsx', (t) => t.replace('Fixture home', 'Fixture home page'));
      expect(where(await site.build())).toEqual(want); // (the content cache answers the file)
    } finally {
      site.remove();
    }
  });

  it("names the front matter's schema errors with the body's, in build, check and dev (a file's problems at once)", async () => {
    const about = '---\ntitle: About\nsummary: Moved from Hugo.\n---\n# About\n\n{{< youtube dQw4w9WgXcQ >}}\n';
    const site = await copyOf('basic', { 'content/pages/about.md': about });
    try {
      const want = [['content/pages/about.md', 3, 'ContentSchemaError'], ['content/pages/about.md', 7, 'TemplateTagInMarkdown']];
      const where = (r: { errors: { id: string; location: { file: string; line: number } | null }[] }) => r.errors.map((e) => [e.location?.file, e.location?.line, e.id]);
      const build = await site.build();
      expect(build.code).toBe(1);
      expect(where(build)).toEqual(want);
      expect(where(await site.check())).toEqual(want);
      // Parsed on worker threads: the same two.
      expect(where(await site.build({ env: { SITEGEN_PARALLEL_MIN: '1', SITEGEN_WORKERS: '2', SITEGEN_POOL_MAIN: '0', SITEGEN_NO_CACHE: '1' } }))).toEqual(want);
      const dev = await site.dev();
      try {
        await expect.poll(() => dev.output(), { timeout: 10_000 }).toContain('content/pages/about.md:7:1 A Hugo shortcode');
        expect(dev.output()).toContain('content/pages/about.md:3:1 summary:');
      } finally { await dev.close(); }
    } finally {
      site.remove();
    }
  });
});
