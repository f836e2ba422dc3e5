// Markdown bodies → HTML, with sitegen's content policy: content is data, never code. Raw HTML in Markdown
// and links or images to javascript:/vbscript:/data: URLs are refused (reported with their line), because
// marked passes both through verbatim and the page would run them. Use Markdown, or put markup in a template.
// Targets are checked as the browser decodes them (see urlScheme.ts); the checks over the tokens are in
// policy.ts (with the nesting limit, checked before marked sees the body).
// The body is lexed once: the policy walks the tokens, and the same tokens are rendered.
// Plugins' `markdown` hook adds marked extensions: one Marked instance per extension list, so a body parses
// the same way in build, dev and on workers; `markdownKey` names the list for the content cache. The
// engine's own features (src/markdown/, opted into with `markdown({...})`) ride in the same list as data;
// `prepareMarkdown` loads their libraries before the first body of a list is compiled.
import { createHash } from 'node:crypto';
import { Marked, type MarkedExtension, type Token, type Tokens } from 'marked';
import { htmlPolicyViolation } from '../content/htmlPolicy.ts';
import { locationAt } from '../core/errors.ts';
import { splitExtensions } from './options.ts';
import { gfmFixes } from './gfm.ts';
import { fastText } from './text.ts';
import { fastBlocks } from './blocks.ts';
import type { MarkdownSetup } from './setup.ts';
import { markdownText, takeMoreMarkers, type MarkdownText, type WrittenLink } from './entryText.ts';
import { packageVersions } from '../cache/index.ts';
import { PACKAGE_DIR } from '../site/paths.ts';
import { abandonDirectives, beginDirectives, directivesExtension, finishDirectives } from './directives.ts';
import { footnotesOff, notelessRefs } from './footnotes.ts';
import { attributeAt, parseAttributes } from './directiveSyntax.ts';
import type { ImageAttributes, ImageResolver } from '../images/markdown.ts';
import { outputCulprit } from './outputCulprit.ts';
import { passedOver } from './notes.ts';
import { mayHoldMdx } from './codeInText.ts';
import { extensionWriter, nestingProblems, outputProblem, overflowProblem, pastCode, tokenProblems, TOC_MARKER_IN_BODY, walkPlain, type MarkdownProblem, type Walk } from './policy.ts';

export { MAX_NESTING, walkPlain, type MarkdownProblem } from './policy.ts';

// The engine's own extensions, first in every setup: GFM output fixes, then scans that stand in for marked's
// costliest rules (text.ts, blocks.ts; each only where the lexer's rule is the one it was written for).
const ENGINE: readonly MarkedExtension[] = [gfmFixes, fastText, fastBlocks];
const markdown = new Marked({ gfm: true }, ...ENGINE);
const gfmWalk = gfmFixes.walkTokens as (t: Token) => void;

/** The marked extensions the site's plugins add, in order (see SitegenPlugin.markdown). */
export type MarkdownExtensions = readonly MarkedExtension[];

/** A body without any of these, and with no table-of-contents marker line, has nothing the policy walk could refuse. */
const POLICY_CHARS = /[<:&]|\{[{%#]/;
const mayBeRefused = (body: string): boolean => POLICY_CHARS.test(body) || TOC_MARKER_IN_BODY.test(body) || mayHoldMdx(body);

const plain: MarkdownSetup = { md: markdown, rawHtml: false, footnotes: false, finish: (html) => html };
const setups = new WeakMap<MarkdownExtensions, MarkdownSetup>();

/** Loads what an extension list's engine features need (once per list); a list without any needs nothing. */
export async function prepareMarkdown(extensions?: MarkdownExtensions): Promise<void> {
  if (!extensions?.length || setups.has(extensions)) return;
  const { features, marked } = splitExtensions(extensions);
  if (!features) { setups.set(extensions, { ...plain, md: new Marked({ gfm: true }, ...ENGINE, ...marked) }); return; }
  const { markdownSetup } = await import('./setup.ts');
  if (!setups.has(extensions)) setups.set(extensions, markdownSetup(features, ENGINE, marked));
}

/** The Marked instance and after-steps for an extension list (the plain one for none). */
function setupFor(extensions?: MarkdownExtensions): MarkdownSetup {
  if (!extensions?.length) return plain;
  let s = setups.get(extensions);
  if (!s) {
    const { features, marked } = splitExtensions(extensions);
    if (features) throw new Error('sitegen bug: Markdown features used before prepareMarkdown()');
    s = { ...plain, md: new Marked({ gfm: true }, ...ENGINE, ...marked) };
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
export interface CompiledMarkdown {
  /** The body's HTML; undefined when the policy refused something. */
  html?: string;
  /** Its headings, excerpt and words (with the HTML). */
  text?: MarkdownText;
  problems: MarkdownProblem[];
  /** What `html: 'sanitize'` removed from the body's raw HTML, located (warnings: the body is published). */
  notices?: MarkdownProblem[];
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
    // Nothing that could be raw HTML, a URL scheme (typed, or as a character reference) or template code
    // ({{, {% or {#): no policy walk.
    const seen = { html: false };
    let problems: MarkdownProblem[] = [];
    const walk: Walk = merged ? walkPlain : (ts, fn) => md.walkTokens(ts, fn);
    const notices: MarkdownProblem[] = [];
    if (mayBeRefused(body)) problems = tokenProblems(walk, body, tokens, setup.rawHtml, seen, merged ? gfmWalk : undefined, notices);
    else if (merged) walkPlain(tokens, gfmWalk);
    // Components in Markdown (a site that registers any): each directive located (`origin`: the file and
    // the line its body starts after), a malformed one refused. Its data goes in the HTML below.
    if (extensions?.includes(directivesExtension)) problems.push(...beginDirectives(tokens, body, walk, origin).map((p) => ({ ...p, id: 'DirectiveSyntaxError' as const })));
    if (body.includes('[^')) problems.push(...(setup.footnotes ? notelessRefs : footnotesOff)(walk, body, tokens));
    if (problems.length) return { problems };
    setup.prepare?.(tokens);
    // Local images become the image pipeline's <picture> (images/markdown.ts): an HTML token the policy
    // check below still reads. Before the base step: the pipeline's URLs have the base already.
    if (images) {
      problems = imageTokens(walk, body, tokens, images);
      if (problems.length) return { problems };
    }
    if (base !== '/') walk(tokens, (t) => {
      if (t.type !== 'link' && t.type !== 'image') return;
      if (t.type === 'link') (t as WrittenLink).sitegenHref = t.href; // entry.links has it as written
      t.href = basedUrl(t.href, base);
    });
    // Read before rendering: a plugin's renderer may change the tokens it renders.
    const text = markdownText(tokens, more, merged ? undefined : walk);
    let html = opts.hooks ? opts.hooks.provideParser(true)(tokens, opts) as string : md.parser(tokens);
    if (opts.hooks) html = opts.hooks.postprocess(html) as string;
    html = setup.finish(html, seen.html);
    // The policy holds for the output, whatever extension wrote it: refused with a location, or (html:
    // 'sanitize') sanitized and checked again.
    let bad = htmlPolicyViolation(html);
    const culprit = () => (extensions?.length ? outputCulprit(md, tokens, body, extensions) : null);
    if (bad && setup.sanitize) {
      // What the author typed is warned of at its own HTML (tokenProblems); what an extension wrote, here
      // (the first thing the policy finds, when it is not one of those).
      if (!notices.some((n) => n.text === `html: 'sanitize' removes ${bad!.text} from this body`)) {
        const c = culprit();
        notices.push({ ...outputProblem(body, bad, c), text: `html: 'sanitize' removes ${bad.text} from this body, which ${extensionWriter(c)} wrote`, hint: "Make the extension render only what the content policy allows, or show such a thing from a component or template: the page is published without it." });
      }
      html = setup.sanitize(html);
      bad = htmlPolicyViolation(html);
    }
    if (bad) return { problems: [outputProblem(body, bad, culprit())] };
    html = finishDirectives(html);
    // marked builds the HTML by concatenation: a rope of thousands of pieces, each holding on to a slice of
    // the source. Reading a character makes V8 flatten it into one string and drop the rest (a third of
    // the memory per page at 10,000 pages).
    html.charCodeAt(0);
    return { problems, html, text, ...(notices.length ? { notices } : {}) };
  } catch (e) {
    if (e instanceof RangeError) return { problems: [overflowProblem(body)] };
    // A plugin's extension that throws is the site's problem, located at the file, not a crash of sitegen.
    if (setup !== plain) return { problems: [{ line: 1, column: 1, lineText: body.split('\n', 1)[0].slice(0, 120), text: `A Markdown extension from a plugin threw: ${(e as Error)?.message ?? e}`, id: 'MarkdownExtensionError' }] };
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
  if (!mayBeRefused(body)) return [];
  try {
    const tokens = markdown.lexer(body);
    takeMoreMarkers(tokens);
    return tokenProblems(walkPlain, body, tokens);
  } catch (e) {
    if (e instanceof RangeError) return [overflowProblem(body)];
    throw e;
  }
}

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
  const misses = { n: 0 };
  walk(tokens, (t) => {
    if (passedOver(t)) { from = pastCode(body, t.raw, from, misses); return; } // (an example of the same image in code, or in a note)
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
    // (a problem of one attribute is said at it, in the list written right after the image)
    const k = 'attr' in r && r.attr && i >= 0 ? attributeAt(attributes?.get(t)?.written ?? '', 0, r.attr) : -1;
    const l = k >= 0 ? locationAt('', body, i + t.raw.length + k) : at; // (the list's own line: an image may run over lines)
    if ('problem' in r) { problems.push({ line: l.line, column: l.column, lineText: l.lineText ?? at.lineText, text: r.problem, image: true }); return; }
    const html = t as unknown as Tokens.HTML;
    Object.assign(html, { type: 'html', text: r.html, block: false, pre: false });
    delete (html as { tokens?: unknown }).tokens;
  });
  return problems;
}
