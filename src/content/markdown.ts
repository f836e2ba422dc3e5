// Markdown bodies → HTML, with sitegen's content policy: content is data, never code. Raw HTML in Markdown
// and links or images to javascript:/vbscript:/data: URLs are refused (reported with their line), because
// marked passes both through verbatim and the page would run them. Use Markdown, or put markup in a template.
// Targets are checked as the browser decodes them (see urlScheme.ts). Blockquotes and lists nested deeper
// than MAX_NESTING are refused before marked sees them: marked recurses per level and a line of 2,000 ">"
// overflows the stack. The body is lexed once: the policy walks the tokens, and the same tokens are rendered.
// Plugins' `markdown` hook adds marked extensions: one Marked instance per extension list, so a body parses
// the same way in build, dev and on workers; `markdownKey` names the list for the content cache. The
// engine's own features (src/markdown/, opted into with `markdown({...})`) ride in the same list as data;
// `prepareMarkdown` loads their libraries before the first body of a list is compiled.
import { createHash } from 'node:crypto';
import { Marked, type MarkedExtension, type Token, type Tokens } from 'marked';
import { unsafeScheme } from './urlScheme.ts';
import { htmlPolicyViolation, type PolicyViolation } from './htmlPolicy.ts';
import { splitExtensions } from '../markdown/options.ts';
import { gfmFixes } from '../markdown/gfm.ts';
import { fastText } from '../markdown/text.ts';
import type { MarkdownSetup } from '../markdown/setup.ts';
import { markdownText, takeMoreMarkers, type MarkdownText } from '../markdown/entryText.ts';
import { packageVersions } from '../cache/index.ts';
import { PACKAGE_DIR } from '../siteModule/paths.ts';
import { abandonDirectives, beginDirectives, directivesExtension, finishDirectives, parseAttributes } from '../markdown/directives.ts';
import type { ImageAttributes, ImageResolver } from '../images/markdown.ts';

const markdown = new Marked({ gfm: true }, gfmFixes, fastText);
const gfmWalk = gfmFixes.walkTokens as (t: Token) => void;

/** The marked extensions the site's plugins add, in order (see SitegenPlugin.markdown). */
export type MarkdownExtensions = readonly MarkedExtension[];

const plain: MarkdownSetup = { md: markdown, rawHtml: false, finish: (html) => html };
const setups = new WeakMap<MarkdownExtensions, MarkdownSetup>();

/** Loads what an extension list's engine features need (once per list); a list without any needs nothing. */
export async function prepareMarkdown(extensions?: MarkdownExtensions): Promise<void> {
  if (!extensions?.length || setups.has(extensions)) return;
  const { features, marked } = splitExtensions(extensions);
  if (!features) { setups.set(extensions, { ...plain, md: new Marked({ gfm: true }, gfmFixes, fastText, ...marked) }); return; }
  const { markdownSetup } = await import('../markdown/setup.ts');
  if (!setups.has(extensions)) setups.set(extensions, markdownSetup(features, marked));
}

/** The Marked instance and after-steps for an extension list (the plain one for none). */
function setupFor(extensions?: MarkdownExtensions): MarkdownSetup {
  if (!extensions?.length) return plain;
  let s = setups.get(extensions);
  if (!s) {
    const { features, marked } = splitExtensions(extensions);
    if (features) throw new Error('sitegen bug: Markdown features used before prepareMarkdown()');
    s = { ...plain, md: new Marked({ gfm: true }, gfmFixes, fastText, ...marked) };
    setups.set(extensions, s);
  }
  return s;
}

/** The libraries whose output the features shape: a new version re-renders cached bodies. */
const FEATURE_PACKAGES = ['prismjs', 'sanitize-html', 'github-slugger', 'marked-footnote'];

/**
 * A fingerprint of an extension list, for the content cache: '' for none (the keys of a site without
 * Markdown plugins stay as they were), else a hash of the extensions with their functions' source text, so
 * editing a plugin's renderer re-parses every Markdown file.
 */
export function markdownKey(extensions?: MarkdownExtensions): string {
  if (!extensions?.length) return '';
  let text = JSON.stringify(extensions, (_k, v) => (typeof v === 'function' ? `fn:${v.toString()}` : v));
  if (splitExtensions(extensions).features) text += packageVersions(PACKAGE_DIR, FEATURE_PACKAGES).join('\n');
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}

/** Blockquotes and lists nested deeper than this are refused (prose never needs more than a few). */
export const MAX_NESTING = 32;

export interface MarkdownProblem {
  /** 1-based line and column within the body. */
  line: number;
  column: number;
  lineText: string;
  text: string;
  /** The catalogue id, when not ContentPolicyError (a malformed directive: DirectiveSyntaxError). */
  id?: 'DirectiveSyntaxError';
  /** An image the pipeline cannot publish (an ImageError), rather than a policy problem. */
  image?: true;
}

export interface CompiledMarkdown {
  /** The body's HTML; undefined when the policy refused something. */
  html?: string;
  /** Its headings, excerpt and words (with the HTML). */
  text?: MarkdownText;
  problems: MarkdownProblem[];
}

/**
 * Lexes the body once, checks the tokens against the policy and, when they pass, renders them. `base`: the
 * site's base ("/repo/"); root-relative link and image URLs get it (see `basedUrl`).
 */
export function compileMarkdown(body: string, extensions?: MarkdownExtensions, base = '/', origin = { file: '', line: 0 }, images?: ImageResolver): CompiledMarkdown {
  const deep = nestingProblems(body);
  if (deep.length) return { problems: deep };
  const setup = setupFor(extensions);
  const md = setup.md;
  try {
    // marked.parse's steps, with the policy between tokens and HTML: hooks, lexer, walkTokens, parser. The
    // lexer and parser come from the hooks as marked.parse takes them (provideLexer, provideParser), so a
    // plugin's hook is honoured as marked honours it; the policy checks the HTML whatever produced it.
    const opts = md.defaults;
    if (opts.async) return { problems: [{ line: 1, column: 1, lineText: body.split('\n', 1)[0].slice(0, 120), text: 'A Markdown extension from a plugin is async (async: true); sitegen renders Markdown synchronously, so it cannot run it' }] };
    if (opts.hooks) { opts.hooks.options = opts; opts.hooks.block = true; }
    let tokens = opts.hooks ? opts.hooks.provideLexer(true)(opts.hooks.preprocess(body), opts) as Token[] : md.lexer(body);
    if (opts.hooks) tokens = opts.hooks.processAllTokens(tokens) as typeof tokens;
    // The excerpt marker (a `<!-- more -->` line) is the one piece of raw HTML allowed: taken out here, it
    // renders to nothing and the policy never sees it.
    const more = takeMoreMarkers(tokens);
    // Without plugins the only walkTokens is the engine's (gfm.ts: task-list labels), which neither reads nor
    // changes what the policy reads: both go in one walk of the tokens instead of two.
    const merged = setup === plain;
    if (opts.walkTokens && !merged) md.walkTokens(tokens, opts.walkTokens);
    // Nothing that could be raw HTML or a URL scheme (typed, or as a character reference): no policy walk.
    const seen = { html: false };
    let problems: MarkdownProblem[] = [];
    const walk: Walk = merged ? walkPlain : (ts, fn) => md.walkTokens(ts, fn);
    if (/[<:&]/.test(body)) problems = tokenProblems(walk, body, tokens, setup.rawHtml, seen, merged ? gfmWalk : undefined);
    else if (merged) walkPlain(tokens, gfmWalk);
    // Components in Markdown (a site that registers any): each directive located (`origin`: the file and
    // the line its body starts after), a malformed one refused. Its data goes in the HTML below.
    if (extensions?.includes(directivesExtension)) problems.push(...beginDirectives(tokens, body, walk, origin).map((p) => ({ ...p, id: 'DirectiveSyntaxError' as const })));
    if (problems.length) return { problems };
    setup.prepare?.(tokens);
    // Local images become the image pipeline's <picture> (images/markdown.ts): an HTML token the policy
    // check below still reads. Before the base step: the pipeline's URLs have the base already.
    if (images) {
      problems = imageTokens(walk, body, tokens, images);
      if (problems.length) return { problems };
    }
    if (base !== '/') walk(tokens, (t) => { if (t.type === 'link' || t.type === 'image') t.href = basedUrl(t.href, base); });
    // Read before rendering: a plugin's renderer may change the tokens it renders.
    const text = markdownText(tokens, more, merged ? undefined : walk);
    let html = opts.hooks ? opts.hooks.provideParser(true)(tokens, opts) as string : md.parser(tokens);
    if (opts.hooks) html = opts.hooks.postprocess(html) as string;
    html = setup.finish(html, seen.html);
    // The policy holds for the output, whatever extension wrote it: refused with a location, or (html:
    // 'sanitize') sanitized and checked again.
    let bad = htmlPolicyViolation(html);
    if (bad && setup.sanitize) { html = setup.sanitize(html); bad = htmlPolicyViolation(html); }
    if (bad) return { problems: [outputProblem(body, bad)] };
    html = finishDirectives(html);
    // marked builds the HTML by concatenation: a rope of thousands of pieces, each holding on to a slice of
    // the source. Reading a character makes V8 flatten it into one string and drop the rest (a third of
    // the memory per page at 10,000 pages).
    html.charCodeAt(0);
    return { problems, html, text };
  } catch (e) {
    if (e instanceof RangeError) return { problems: [overflowProblem(body)] };
    // A plugin's extension that throws is the site's problem, located at the file, not a crash of sitegen.
    if (setup !== plain) return { problems: [{ line: 1, column: 1, lineText: body.split('\n', 1)[0].slice(0, 120), text: `A Markdown extension from a plugin threw: ${(e as Error)?.message ?? e}` }] };
    throw e;
  } finally {
    abandonDirectives();
  }
}

/**
 * A Markdown link or image URL under the site's base: a root-relative one ("/docs/x/", "/img/a.png") gets it
 * ("/repo/docs/x/"), unless it already starts with the base ("/repo/…", "/repo", "/repo?…", "/repo#…"). Other
 * URLs (relative, "#fragment", "//host", "https:") are kept. Under base "/docs/", a route "/docs/x/" is
 * written "/docs/docs/x/" (or "x/" relative): a link that starts with the base is taken as based already.
 */
export function basedUrl(url: string, base: string): string {
  if (base === '/' || url[0] !== '/' || url[1] === '/' || url[1] === '\\') return url;
  const bare = base.slice(0, -1);
  if (url.startsWith(base) || (url.startsWith(bare) && (url.length === bare.length || url[bare.length] === '?' || url[bare.length] === '#'))) return url;
  return base + url.slice(1);
}

/** The body's HTML, without the policy check (callers that already checked it). */
export function renderMarkdown(body: string): string {
  return markdown.parse(body, { async: false }) as string;
}

/** What the policy refuses in the body, with positions. */
export function markdownProblems(body: string): MarkdownProblem[] {
  const deep = nestingProblems(body);
  if (deep.length) return deep;
  if (!/[<:&]/.test(body)) return [];
  try {
    const tokens = markdown.lexer(body);
    takeMoreMarkers(tokens);
    return tokenProblems(walkPlain, body, tokens);
  } catch (e) {
    if (e instanceof RangeError) return [overflowProblem(body)];
    throw e;
  }
}

const DEEP_PREFIX = new RegExp(`^[ \\t>*+\\-0-9.)]{${Math.floor(MAX_NESTING / 2) + 1}}`, 'm');
const CONTAINER = /^ {0,3}(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]?/;

/**
 * Lines that open more than MAX_NESTING blockquotes or list items (markers on the line, plus list items
 * indented under others, counting two columns a level). Fenced code is skipped: it is text.
 */
function nestingProblems(body: string): MarkdownProblem[] {
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
function overflowProblem(body: string): MarkdownProblem {
  const lines = body.split('\n');
  let best = 0, bestRun = 0;
  lines.forEach((l, i) => {
    const run = (l.match(/([*_[\]>`~-])\1*/g) ?? []).reduce((a, r) => Math.max(a, r.length), 0);
    if (run > bestRun) { bestRun = run; best = i; }
  });
  return { line: best + 1, column: 1, lineText: (lines[best] ?? '').slice(0, 120), text: 'Markdown is nested too deeply to render (a run of markup characters); simplify this line' };
}

/** Where the body's text that became the refused markup most likely is: the element's or attribute's name. */
function outputProblem(body: string, bad: PolicyViolation): MarkdownProblem {
  const lower = body.toLowerCase();
  let i = bad.attribute ? lower.indexOf(bad.attribute) : -1;
  if (i < 0) i = lower.indexOf(`<${bad.tag}`);
  if (i < 0) i = 0;
  const before = body.slice(0, i);
  const line = before.split('\n').length;
  return {
    line, column: i - before.lastIndexOf('\n'), lineText: body.split('\n')[line - 1]?.slice(0, 120) ?? '',
    text: `The HTML this body renders to has ${bad.text}, which the content policy does not allow (a Markdown extension wrote it: content cannot add markup)`,
  };
}

type Walk = (tokens: Token[], fn: (t: Token) => void) => void;

/**
 * The attribute lists written right after images, `![A photo](./a.jpg){widths="480 960"}`, taken out of the
 * text that follows each image (so they never show) and returned by image token. Found in every list of
 * sibling tokens (a paragraph's, a heading's, a table cell's, a list item's); `\{` after an image is text.
 */
function imageAttributes(tokens: Token[]): Map<Token, ImageAttributes> {
  const found = new Map<Token, ImageAttributes>();
  const visit = (list: Token[] | undefined) => {
    if (!Array.isArray(list)) return;
    list.forEach((t, k) => {
      const next = list[k + 1] as Tokens.Text | undefined;
      if (t.type === 'image' && next?.type === 'text' && next.raw.startsWith('{')) {
        const nl = next.raw.indexOf('\n');
        const line = nl < 0 ? next.raw : next.raw.slice(0, nl);
        const r = parseAttributes(line, 0, true);
        const written = r.error ? line.slice(0, line.indexOf('}') + 1 || 80) : line.slice(0, r.end);
        found.set(t, r.error ? { error: r.error, written } : { attrs: r.attrs, written });
        if (!r.error) {
          next.raw = next.raw.slice(r.end);
          // The text may have been retouched (smart quotes): up to its first "}" is the same list.
          next.text = next.text.startsWith(written) ? next.text.slice(r.end) : next.text.slice(next.text.indexOf('}') + 1);
        }
      }
      const o = t as Token & { tokens?: Token[]; items?: Token[]; header?: { tokens: Token[] }[]; rows?: { tokens: Token[] }[][] };
      visit(o.tokens);
      if (t.type === 'list') visit(o.items);
      if (t.type === 'table') { for (const c of o.header ?? []) visit(c.tokens); for (const r of o.rows ?? []) for (const c of r) visit(c.tokens); }
    });
  };
  visit(tokens);
  return found;
}

/** Each image token through the resolver: replaced by its HTML, left as it is, or a located problem. */
function imageTokens(walk: Walk, body: string, tokens: Token[], resolve: ImageResolver): MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  let from = 0;
  let lines: string[] | null = null;
  const attributes = body.includes('){') ? imageAttributes(tokens) : null;
  walk(tokens, (t) => {
    if (t.type !== 'image') return;
    let i = body.indexOf(t.raw, from);
    if (i < 0) i = body.indexOf(t.raw);
    if (i >= 0) from = i + t.raw.length;
    const before = body.slice(0, Math.max(i, 0));
    const line = before.split('\n').length;
    lines ??= body.split('\n');
    const at = { line, column: i >= 0 ? i - before.lastIndexOf('\n') : 1, lineText: lines[line - 1] ?? '' };
    const r = resolve(t as Tokens.Image, at, attributes?.get(t));
    if (!r) return;
    if ('problem' in r) { problems.push({ ...at, text: r.problem, image: true }); return; }
    const html = t as unknown as Tokens.HTML;
    Object.assign(html, { type: 'html', text: r.html, block: false, pre: false });
    delete (html as { tokens?: unknown }).tokens;
  });
  return problems;
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

function tokenProblems(walk: Walk, body: string, tokens: Token[], rawHtml = false, seen = { html: false }, also?: (t: Token) => void): MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  let lines: string[] | null = null;
  let from = 0;
  const at = (raw: string, text: string) => {
    let i = body.indexOf(raw, from);
    if (i < 0) i = body.indexOf(raw);
    if (i >= 0) from = i;
    const before = body.slice(0, Math.max(i, 0));
    const line = before.split('\n').length;
    lines ??= body.split('\n');
    problems.push({ line, column: i >= 0 ? i - before.lastIndexOf('\n') : 1, lineText: lines[line - 1] ?? '', text });
  };
  walk(tokens, (t: Token) => {
    also?.(t);
    if (t.type === 'html' && t.raw.trim()) seen.html = true;
    if (t.type === 'html' && !rawHtml && t.raw.trim()) at(t.raw.trim(), `Raw HTML is not allowed in Markdown: ${t.raw.trim().slice(0, 60)}`);
    if (t.type === 'link' || t.type === 'image') {
      const scheme = unsafeScheme(t.href);
      if (scheme) at(t.raw, `${t.type === 'link' ? 'Link' : 'Image'} to a ${scheme}: URL is not allowed`);
    }
  });
  return problems;
}
