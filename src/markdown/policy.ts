// The content policy over a Markdown body before marked renders it: blockquotes and lists nested deeper
// than MAX_NESTING are refused before marked sees them (marked recurses per level and a line of 2,000 ">"
// overflows its stack), raw HTML and links or images to javascript:/vbscript:/data: URLs are refused in
// the tokens, and HTML an extension emitted that the policy refuses is located in the body. Each problem
// is data (line, column, text) that the caller locates in its file.
import type { Token, Tokens } from 'marked';
import { unsafeScheme } from '../content/urlScheme.ts';
import { htmlPolicyViolation, isAllowedTag, type PolicyViolation } from '../content/htmlPolicy.ts';
import { commentHint, passedOver, takeNote } from './notes.ts';
import { MDX_HINT, mayHoldMdx, mdxLine, templateTags } from './codeInText.ts';

export const MAX_NESTING = 32;

export interface MarkdownProblem {
  /** 1-based line and column within the body. */
  line: number;
  column: number;
  lineText: string;
  text: string;
  /** The catalogue id, when not ContentPolicyError (a malformed directive; template code in the text, a
   *  shortcode, a tag or an expression; a footnote without its note, or with footnotes off; an extension that threw). */
  id?: 'DirectiveSyntaxError' | 'TemplateTagInMarkdown' | 'FootnoteWithoutNote' | 'FootnotesOff' | 'MarkdownExtensionError';
  /** An image the pipeline cannot publish (an ImageError), rather than a policy problem. */
  image?: true;
  /** A hint of its own, instead of the catalogue's for its id. */
  hint?: string;
}

/** The first line of a text (a block of raw HTML is named by its first line; the location gives the rest). */
const firstLine = (text: string) => { const nl = text.indexOf('\n'); return (nl < 0 ? text : text.slice(0, nl)).replace(/\r$/, ''); };

/** What a body's raw HTML can become instead. */
const RAW_HTML_HINT = "Write it in Markdown or put the markup in a template; to keep a body's safe HTML (tags and attributes that run nothing), add markdown({ html: 'sanitize' }) to the config's plugins.";
/** The first element of a body's raw HTML, lower case ('' for a closing tag, a comment or text). */
const firstTag = (raw: string): string => /^<([A-Za-z][A-Za-z0-9-]*)/.exec(raw)?.[1]?.toLowerCase() ?? '';

/** The hint for a body's raw HTML: one of its own when the sanitize option would remove that element too (an
 *  embed, a video, a script, a form), which only a template can write, or for a comment that is not a note. */
function rawHtmlHint(raw: string): string {
  const tag = firstTag(raw);
  if (raw.startsWith('<!--')) return commentHint(raw)!; // (a comment, but not a note: notes.ts)
  // (a capitalised tag is a component of MDX or Astro: a directive here, or a Markdown image for <Image>)
  const written = /^<([A-Z][a-z][A-Za-z0-9]*)/.exec(raw)?.[1];
  if (written === 'Image' || written === 'Picture') return 'Write an image in Markdown, ![what it shows](./photo.jpg): it is published as optimized versions (see Images).';
  if (written) return `<${written}> is a component: write it as a directive, :::${written}{…} … ::: (or ::${written}{…} without content), registered in the config's components (see Components in Markdown).`;
  if (tag === 'script') return "Content never runs scripts, and markdown({ html: 'sanitize' }) would remove it too: put the code in an island (see Islands) and name it from the body as a component.";
  return tag && !isAllowedTag(tag) ? `markdown({ html: 'sanitize' }) would remove <${tag}> too. Write it in a component the body names (::YouTube{id="…"}, see Components in Markdown), whose template renders it; a remote embed's origin also goes in the route's csp.` : RAW_HTML_HINT;
}

const DEEP_PREFIX = new RegExp(`^[ \\t>*+\\-0-9.)]{${Math.floor(MAX_NESTING / 2) + 1}}`, 'm');
const CONTAINER = /^ {0,3}(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]?/;

/**
 * Lines that open more than MAX_NESTING blockquotes or list items (markers on the line, plus list items
 * indented under others, counting two columns a level). Fenced code is skipped: it is text.
 */
export function nestingProblems(body: string): MarkdownProblem[] {
  // A line nested too deep starts with more than 16 characters of indentation and markers (a character
  // counts at most two levels: a tab is four columns); most bodies have none and need no line walk.
  if (body.length < MAX_NESTING || !DEEP_PREFIX.test(body)) return [];
  const problems: MarkdownProblem[] = [];
  let fence: string | null = null;
  const lines = body.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) { if (f && f[0] === fence[0] && f.length >= fence.length) fence = null; continue; }
    if (f) { fence = f; continue; }
    const indent = /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;
    let rest = line.slice(/^[ \t]*/.exec(line)![0].length);
    let depth = 0, m: RegExpExecArray | null;
    while ((m = CONTAINER.exec(rest)) && depth <= MAX_NESTING) { depth++; rest = rest.slice(m[0].length); }
    if (depth > 0 && depth + Math.floor(indent / 2) > MAX_NESTING) {
      problems.push({ line: n + 1, column: 1, lineText: line.slice(0, 120), text: `Blockquotes and lists are nested more than ${MAX_NESTING} levels deep` });
    }
  }
  return problems;
}

/** marked ran out of stack on something else deeply nested: point at the line with the longest run of markup. */
export function overflowProblem(body: string): MarkdownProblem {
  const lines = body.split('\n');
  let best = 0, bestRun = 0;
  lines.forEach((l, i) => {
    const run = (l.match(/([*_[\]>`~-])\1*/g) ?? []).reduce((a, r) => Math.max(a, r.length), 0);
    if (run > bestRun) { bestRun = run; best = i; }
  });
  return { line: best + 1, column: 1, lineText: (lines[best] ?? '').slice(0, 120), text: 'Markdown is nested too deeply to render (a run of markup characters); simplify this line' };
}

/** Who wrote markup the content policy refuses, in words: a plugin's extension, named when known. */
export const extensionWriter = (culprit?: { plugin?: string } | null) => (culprit?.plugin ? `the ${culprit.plugin} plugin's Markdown extension` : 'a Markdown extension');

/** Where the body's text that became the refused markup most likely is: the element's or attribute's name,
 *  within the block that renders it when that is known (`culprit`), else that block's start; the plugin
 *  whose extension wrote it named when known. */
export function outputProblem(body: string, bad: PolicyViolation, culprit?: { start: number; end: number; plugin?: string } | null): MarkdownProblem {
  const lower = body.toLowerCase();
  const from = culprit?.start ?? 0, to = culprit ? culprit.end : body.length;
  const within = (k: number) => (k >= from && k < to ? k : -1);
  let i = bad.attribute ? within(lower.indexOf(bad.attribute, from)) : -1;
  if (i < 0) i = within(lower.indexOf(`<${bad.tag}`, from));
  if (i < 0) i = from;
  const before = body.slice(0, i);
  const line = before.split('\n').length;
  const who = extensionWriter(culprit);
  return {
    line, column: i - before.lastIndexOf('\n'), lineText: body.split('\n')[line - 1]?.slice(0, 120) ?? '',
    text: `The HTML this body renders to has ${bad.text}, which the content policy does not allow (${who} wrote it${culprit ? ' from this block' : ''}: content cannot add markup)`,
    // (the fix is in the plugin, not in the content)
    hint: `${culprit?.plugin ? `The ${culprit.plugin} plugin's` : "A plugin's"} Markdown extension (its markdown hook) renders it: make the extension render only what the content policy allows (no script, event handler, inline style or embed), or show such a thing from a component or template.`,
  };
}

/** What a site moved from Hugo, Jekyll or Eleventy writes for these, with the words of the message. */
const COMMENT_HINT = 'sitegen runs no template code in content, so this comment would be on the page for every reader. Write a note to yourself as an HTML comment, <!-- like this -->, which is left out of the page; to show the text, write \\{ for its first brace.';
const TAG_HINT = 'sitegen runs no template code in content. Use Markdown, or a component written as a directive (::Name{…}, see Components in Markdown); to show the tag as text, put it in backticks or write \\{ for its first brace.';

/** A line that is only a table-of-contents marker another generator expands (markdown-it's `[[toc]]` and
 *  `${toc}`, Python-Markdown's `[TOC]`, GitLab's `[[_TOC_]]`, kramdown's `{:toc}`), after a list or quote
 *  marker. Anchored at both ends of one line, no nested repetition: linear. */
export const TOC_MARKER_LINE = /^[ \t>*+-]*(\[\[_?toc_?\]\]|\[toc\]|\$\{toc\}|\{:\s*toc\s*\})[ \t]*$/im;
const TOC_MARKER_LINES = new RegExp(TOC_MARKER_LINE.source, 'gim');
/** Whether a body may hold a marker line of a paragraph or list item: as TOC_MARKER_LINE, and after an
 *  ordered list's number too ("1. [TOC]", whose item's text is the marker alone). */
export const TOC_MARKER_IN_BODY = new RegExp(TOC_MARKER_LINE.source.replace('[ \\t>*+-]*', '[ \\t>*+\\-\\d.)]*'), 'im');
if (TOC_MARKER_IN_BODY.source === TOC_MARKER_LINE.source) throw new Error('TOC_MARKER_IN_BODY: the line pattern\'s prefix changed; widen it here too');
const TOC_HINT = 'A template builds a table of contents from entry.headings (see Markdown: Headings, excerpt, reading time and links); take the marker out of the body.';


export type Walk = (tokens: Token[], fn: (t: Token) => void) => void;

/** Where a code block's text ends in the body, from `from`: past each of its lines in turn, found in order
 *  (inside a list item or a quote its raw text has lost their markers). Each search that finds its line moves
 *  forward, so together they read the body once; one that does not (a tab the lexer expanded) reads to the end,
 *  so after a few of those (`misses`) code blocks are no longer looked for. */
export function pastCode(body: string, raw: string, from: number, misses: { n: number }): number {
  if (misses.n >= 4) return from;
  let at = from;
  for (const line of raw.split('\n')) {
    const l = line.trim();
    if (!l) continue;
    const k = body.indexOf(l, at);
    if (k < 0) { misses.n++; return at; }
    at = k + l.length;
  }
  return at;
}

/**
 * marked's walkTokens for an instance without childTokens extensions (the engine's own, no plugins): each
 * token, then its children (a table's header and row cells, a list's items, else `tokens`), in the same
 * order. marked's collects every callback's return value into an array at each level and copies it up;
 * on the bench's bodies that was 58-93 ms of a thread's content stage at 10,000 pages.
 */
export function walkPlain(tokens: Token[], fn: (t: Token) => void): void {
  for (const t of tokens) {
    fn(t);
    if (t.type === 'table') {
      for (const cell of (t as Tokens.Table).header) walkPlain(cell.tokens, fn);
      for (const row of (t as Tokens.Table).rows) for (const cell of row) walkPlain(cell.tokens, fn);
    } else if (t.type === 'list') walkPlain((t as Tokens.List).items, fn);
    else if ('tokens' in t && t.tokens) walkPlain(t.tokens, fn);
  }
}

/** The body's text from the "{{" right before `raw` (found at or after `cursor.at`, which moves past it) to the
 *  end of its line, or '' when no "{{" is right before it. */
function shortcodeAround(body: string, raw: string, cursor: { at: number }): string {
  const i = body.indexOf(raw, cursor.at);
  if (i < 0) return '';
  cursor.at = i + raw.length;
  if (i < 2 || body[i - 1] !== '{' || body[i - 2] !== '{') return '';
  const nl = body.indexOf('\n', i);
  return body.slice(i - 2, nl < 0 ? body.length : nl);
}

/** Removals said at their place in one body; past them, one more warning says there are others. */
const NOTICES_MAX = 5;

/** The hint of a warning that `html: 'sanitize'` removes part of the raw HTML a body wrote. */
const SANITIZED_HINT = "The page is published without it. To show it, write it as a component the body names (::YouTube{id=\"…\"}, see Components in Markdown), whose template renders it; to keep the page as it is, take it out of the body.";

/**
 * The problems of a body's tokens. `rawHtml` (html: 'sanitize'): raw HTML is allowed, and each HTML token
 * holding something the sanitizer removes (an element, an attribute or a URL the policy does not allow) is
 * pushed to `notices` instead, located: a warning, as the build goes on without it.
 */
export function tokenProblems(walk: Walk, body: string, tokens: Token[], rawHtml = false, seen = { html: false }, also?: (t: Token) => void, notices?: MarkdownProblem[]): MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  let lines: string[] | null = null;
  let from = 0;
  const htmlAt = { at: 0 }; // where the next HTML token is looked for (tokens come in the body's order)
  const removed = new Set<string>(); // what the sanitizer removes, said once per body
  let openTags: Map<string, number> | undefined; // raw start tags said and not yet closed, by name
  let counted = { at: 0, line: 1 }; // the line of body[at]
  const misses = { n: 0 }; // code blocks not found in the body (pastCode)
  // (most bodies have no marker line: their paragraphs are not read again for one)
  const tocLines = TOC_MARKER_IN_BODY.test(body);
  const mdxBody = mayHoldMdx(body); // (likewise for an MDX import or export line)
  const at = (raw: string, text: string, hint?: string, id?: MarkdownProblem['id'], index?: number, into = problems) => {
    let i = index ?? body.indexOf(raw, from);
    // (HTML over lines of a quote or list item has lost their markers: found by its first line)
    if (i < 0 && raw.includes('\n')) i = body.indexOf(raw.split('\n', 1)[0]!.trim(), from);
    if (i < 0) i = body.indexOf(raw);
    if (i >= 0) from = i;
    const end = Math.max(i, 0);
    // Lines counted on from the last place (problems come in the body's order): many problems, one pass.
    if (end < counted.at) counted = { at: 0, line: 1 };
    for (let k = body.indexOf('\n', counted.at); k >= 0 && k < end; k = body.indexOf('\n', k + 1)) counted.line++;
    counted.at = end;
    const line = counted.line;
    lines ??= body.split('\n');
    const lineText = lines[line - 1] ?? '';
    // (a warning's line is shown only when it is short: a long line of HTML, copied into each, would weigh)
    into.push({ line, column: i > 0 ? i - body.lastIndexOf('\n', i - 1) : 1, lineText: into !== problems && lineText.length > 500 ? '' : lineText, text, ...(hint ? { hint } : {}), ...(id ? { id } : {}) });
  };
  const tagIn = (raw: string) => {
    const found = raw.includes('{') ? templateTags(raw) : [];
    // Each located by its first line (a tag over lines of a blockquote has "> " in the body), shown on one line.
    for (const f of found) at(f.tag.replace(/…$/, '').split('\n', 1)[0]!, `A ${f.kind} is not run, and would be published as text: ${f.tag.replace(/\s*\n\s*/g, ' ')}`, f.kind === 'Nunjucks/Jinja comment' ? COMMENT_HINT : TAG_HINT, 'TemplateTagInMarkdown');
    return found.length > 0;
  };
  walk(tokens, (t: Token) => {
    also?.(t); takeNote(t); // (an author's note is known here, where raw HTML is judged, before any other walk)
    // Past code or an author's note: a line in it is no problem, and must not be taken for one that comes after it.
    if (passedOver(t)) { from = pastCode(body, t.raw, from, misses); return; }
    // A text's own source (a block text of a list item is walked as its inline texts).
    if (t.type === 'text' && !('tokens' in t && t.tokens)) { tagIn(t.raw); return; }
    // A paragraph, or a list item's text, with a line that is only a table-of-contents marker.
    if (tocLines && (t.type === 'paragraph' || t.type === 'text')) {
      const toc = TOC_MARKER_LINE.exec(t.raw);
      // (`[toc]` with a link definition of that name is a link)
      if (toc && !('tokens' in t && t.tokens?.some((x) => x.type === 'link'))) {
        // Located at the next line of the body that is a marker (not the same text earlier in a sentence).
        TOC_MARKER_LINES.lastIndex = from;
        const line = TOC_MARKER_LINES.exec(body);
        at(toc[1]!, `A table-of-contents marker is not expanded, and would be published as text: ${toc[1]}`, TOC_HINT, 'TemplateTagInMarkdown', line ? line.index + line[0].lastIndexOf(line[1]!) : undefined);
      }
    }
    // An MDX import or export line (a post moved from Astro): code, which would be published as a paragraph.
    const mdx = mdxBody && t.type === 'paragraph' ? mdxLine(t.raw) : null;
    if (mdx) at(mdx, `An MDX ${mdx.startsWith('import') ? 'import' : 'export'} is not run, and would be published as text: ${mdx.length > 60 ? `${mdx.slice(0, 57)}…` : mdx}`, MDX_HINT, 'TemplateTagInMarkdown');
    const html = t.type === 'html' ? t.raw.trim() : '';
    if (html) {
      openTags ??= new Map();
      seen.html = true;
      // A shortcode whose name touches its '<' ({{<figure src="a.jpg">}}) reads as an HTML tag: named as what it is.
      if (tagIn(shortcodeAround(body, html, htmlAt))) return;
      if (!rawHtml) {
        // An end tag of an element whose start tag was said (`<span>…</span>` in a line of text) is that mistake
        // again: said once, at the start tag. A stray end tag is said on its own.
        const tag = /^<(\/?)([a-zA-Z][\w-]{0,40})/.exec(html), name = tag?.[2]!.toLowerCase();
        if (tag?.[1] && name && (openTags.get(name) ?? 0) > 0 && /^<\/[a-zA-Z][\w-]{0,40}\s*>$/.test(html)) {
          openTags.set(name, openTags.get(name)! - 1);
          const k = body.indexOf(html, from); if (k >= 0) from = k + html.length; // (the next problem is looked for after it)
          return;
        }
        if (tag && !tag[1] && name && !html.endsWith('/>') && !html.includes(`</${name}`)) openTags.set(name, (openTags.get(name) ?? 0) + 1);
        at(html, `Raw HTML is not allowed in Markdown: ${firstLine(html).slice(0, 60)}`, rawHtmlHint(html));
      }
      else if (notices && !html.startsWith('</')) {
        // (an end tag is the start tag's: said at the start tag; the same removal again in a body, once)
        const bad = htmlPolicyViolation(html);
        if (bad && !removed.has(bad.text)) {
          removed.add(bad.text);
          // A few said each at its place, the rest counted in one more: the warnings of a file stay short.
          if (notices.length < NOTICES_MAX) at(html, `html: 'sanitize' removes ${bad.text} from this body`, SANITIZED_HINT, undefined, undefined, notices);
          else if (notices.length === NOTICES_MAX) notices.push({ ...notices[NOTICES_MAX - 1]!, text: "html: 'sanitize' removes more from this body than is listed here", hint: 'Build with the raw HTML taken out, or written as components, to see the rest.' });
        }
      }
    }
    if (t.type === 'link' || t.type === 'image') {
      const scheme = unsafeScheme(t.href);
      if (scheme) at(t.raw, `${t.type === 'link' ? 'Link' : 'Image'} to a ${scheme}: URL is not allowed`);
    }
  });
  return problems;
}
