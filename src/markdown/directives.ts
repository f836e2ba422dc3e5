// Directives: components in Markdown written in the generic-directives syntax, parsed as data. A block
// `:::Name{key="value" flag}` … `:::` (a longer fence `::::Tabs` encloses `:::Tab` blocks), a leaf line
// `::Name{…}` and an inline `:Name[label]{…}` become a token with the name, the attributes as strings
// (`true` for a bare flag) and the inner tokens (the block's Markdown, the label's inline Markdown). Nothing
// in them is evaluated: the site's config (src/markdown/components.ts) later checks the name and the
// attributes against its registered components, and the render stage (src/render/components.tsx) renders
// them. This module knows no component: it is on for a site that registers any (`directivesOn`).
//
// The compiled body carries each directive as an element `<sitegen-c data-c="{json}">inner</sitegen-c>`
// (name, kind, attributes, file, line, column, line text). While marked renders, a directive is two
// markers of private-use characters and a per-body nonce, so the content policy checks the inner HTML as
// text around them and no author can write one; `finishDirectives` turns the markers into the elements
// after the policy check (markdown/compile.ts). Every scan here is a loop over characters: linear time.
import type { MarkedExtension, Token, TokenizerExtension, RendererExtension } from 'marked';
import { DIRECTIVE_CLOSE_TAG, directiveOpenTag, type DirectiveData } from './directiveElements.ts';
import { textPlaces } from '../core/textPlace.ts';
import { MAX_DIRECTIVE_DEPTH, isNameChar, isSpace, nameEnd, labelEnd, parseAttributes, lineEnd, indentOf, colons, blankFrom, codeFence, errorToken, findHead, type DirectiveToken } from './directiveSyntax.ts';
import { pastCode } from './policy.ts';
import { passedOver } from './notes.ts';

/** A block directive at the start of src: a leaf line, a container with its content, or an error token. */
function blockDirective(this: { lexer: any }, src: string): DirectiveToken | undefined {
  const at = indentOf(src, 0);
  const k = colons(src, at);
  if (k < 2) return undefined;
  const first = lineEnd(src, 0);
  const head = src.slice(at, first);
  const ne = nameEnd(src, at + k);
  if (ne === at + k) {
    // A line of colons alone closes a block; here nothing is open.
    if (k >= 3 && blankFrom(src, at + k, first)) return errorToken(src.slice(0, Math.min(first + 1, src.length)), head, `"${':'.repeat(k)}" closes a directive block, but none is open here`);
    return undefined;
  }
  const name = src.slice(at + k, ne);
  const lineRaw = src.slice(0, Math.min(first + 1, src.length));
  // The line after the name: a label, attributes, nothing else. A malformed one is an error token that
  // still spans its block (when it is one), so its closing line is not reported again.
  let j = ne;
  let label: string | undefined;
  let attrs: Record<string, string | true> = {};
  let error: string | undefined;
  if (src.charCodeAt(j) === 91 /* [ */) {
    const e = labelEnd(src, j, true);
    if (e < 0) error = `the label of ${':'.repeat(k)}${name} is not closed with "]"`;
    else { label = src.slice(j + 1, e - 1); j = e; }
  }
  if (!error && src.charCodeAt(j) === 123 /* { */) {
    const p = parseAttributes(src, j, true);
    if (p.error) error = `${':'.repeat(k)}${name}: ${p.error}`;
    else { attrs = p.attrs; j = p.end; }
  }
  if (!error && !blankFrom(src, j, first)) error = `${':'.repeat(k)}${name}: unexpected text after the directive: "${src.slice(j, first).trim().slice(0, 40)}"`;
  if (k === 2) {
    if (error) return errorToken(lineRaw, head, error, 'leaf');
    const tokens = label !== undefined ? this.lexer.inlineTokens(label) : [];
    return { type: 'directive', raw: lineRaw, kind: 'leaf', name, attrs, tokens, head };
  }
  // A container: lines up to the line of at least k colons that closes it, counting the blocks opened
  // and closed inside (a closing line closes the innermost open one it is long enough for), and skipping
  // fenced code.
  const open: number[] = [];
  let fence: { ch: number; len: number } | null = null;
  let i = first + 1;
  while (i < src.length) {
    const end = lineEnd(src, i);
    if (fence) {
      const f = codeFence(src, i);
      if (f && f.ch === fence.ch && f.len >= fence.len) fence = null;
    } else if ((fence = codeFence(src, i))) {
      // inside a code block until its closing fence
    } else {
      const c0 = indentOf(src, i);
      const n = colons(src, c0);
      if (n >= 3) {
        if (blankFrom(src, c0 + n, end)) {
          if (open.length && n >= open[open.length - 1]) open.pop();
          else if (!open.length && n >= k) {
            const raw = src.slice(0, Math.min(end + 1, src.length));
            if (error) return errorToken(raw, head, error);
            const tokens = this.lexer.blockTokens(src.slice(first + 1, i), []);
            return { type: 'directive', raw, kind: 'block', name, attrs, tokens, head };
          }
        } else if (nameEnd(src, c0 + n) > c0 + n) {
          open.push(n);
          if (open.length + 1 > MAX_DIRECTIVE_DEPTH) return errorToken(src, head, error ?? `directive blocks are nested more than ${MAX_DIRECTIVE_DEPTH} levels deep`);
        }
      }
    }
    i = end + 1;
  }
  if (error) return errorToken(src, head, error);
  // Unclosed: the rest of the body is this directive's, reported once (scanning it again per line would
  // cost the square of its length).
  return errorToken(src, head, `${':'.repeat(k)}${name} is not closed: end it with a line of ${':'.repeat(k)}`);
}

/**
 * A line that certainly ends the paragraph before it (marked's paragraph stops there): blank, an ATX
 * heading, a block quote, a code fence, a thematic break, a list item that can interrupt a paragraph.
 */
function endsParagraph(s: string, ls: number): boolean {
  const j = indentOf(s, ls);
  const c = s.charCodeAt(j);
  if (j >= s.length || c === 10 || c === 13) return true;
  if (blankFrom(s, j, lineEnd(s, j))) return true;
  if (c === 62 /* > */) return true;
  if (c === 35 /* # */) { let k = j; while (s.charCodeAt(k) === 35) k++; const d = s.charCodeAt(k); return k - j <= 6 && (isSpace(d) || d === 10 || k >= s.length); }
  if (c === 96 || c === 126) return codeFence(s, ls) !== null;
  if (c === 45 || c === 42 || c === 43) {
    const d = s.charCodeAt(j + 1);
    if (isSpace(d) && !blankFrom(s, j + 1, lineEnd(s, j))) return true;
  }
  if (c === 45 || c === 42 || c === 95) {
    let n = 0, k = j;
    const e = lineEnd(s, j);
    for (; k < e; k++) { const d = s.charCodeAt(k); if (d === c) n++; else if (!isSpace(d) && d !== 13) break; }
    if (k === e && n >= 3) return true;
  }
  return c === 49 && (s.charCodeAt(j + 1) === 46 || s.charCodeAt(j + 1) === 41) && isSpace(s.charCodeAt(j + 2));
}

/**
 * Where the next directive line starts in the rest of a paragraph (marked cuts the paragraph there). The
 * scan stops at the first line that certainly ends the paragraph, so each line is read a bounded number
 * of times. `src` starts inside the paragraph's first line.
 */
function blockStart(src: string): number | undefined {
  let i = src.indexOf('\n');
  while (i >= 0 && i + 1 < src.length) {
    const ls = i + 1;
    const j = indentOf(src, ls);
    if (src.charCodeAt(j) === 58 && src.charCodeAt(j + 1) === 58) {
      const n = colons(src, j);
      if (nameEnd(src, j + n) > j + n || (n >= 3 && blankFrom(src, j + n, lineEnd(src, j)))) return ls;
    }
    if (endsParagraph(src, ls)) return undefined;
    i = src.indexOf('\n', ls);
  }
  return undefined;
}

// Inline directives. marked's text rule does not stop at ":", so `inlineStart` tells it where the next
// `:Name[` is: the `:` must not follow a letter, a digit or another `:` ("10:30[…]", "std::vector[…]"
// stay text). marked asks at every text token with the rest of the text; the answer found is kept per
// lexing pass (the tokens list marked hands the tokenizer identifies it, and within it the text only
// shrinks from the front), so each text is scanned once.
let current: { src: string; tokens: Token[] } | null = null;
const found = new WeakMap<Token[], { len: number; at: number }>();

/** The first `:Name[` in s at or after `from` whose `:` may start a directive (-1: none). */
function inlineCandidate(s: string, from: number): number {
  for (let i = s.indexOf(':', from); i >= 0; i = s.indexOf(':', i + 1)) {
    const ne = nameEnd(s, i + 1);
    if (ne === i + 1 || s.charCodeAt(ne) !== 91) continue;
    const before = i > 0 ? s.charCodeAt(i - 1) : -1;
    if (before === 58 || isNameChar(before)) continue;
    return i;
  }
  return -1;
}

function inlineStart(tempSrc: string): number | undefined {
  const cur = current;
  // Always the text this pass is at (the tokenizer below sees it first); else scan what is given.
  if (!cur || cur.src.length !== tempSrc.length + 1) { const at = inlineCandidate(tempSrc, 0); return at < 0 ? undefined : at; }
  const src = cur.src;
  const m = found.get(cur.tokens);
  if (m && src.length <= m.len) {
    if (m.at < 0) return undefined;
    const p = m.at - (m.len - src.length);
    if (p >= 1) return p - 1;
  }
  const at = inlineCandidate(src, 1);
  found.set(cur.tokens, { len: src.length, at });
  return at < 0 ? undefined : at - 1;
}

/** An inline directive at the start of src: `:Name[label]` and optional `{attributes}`. */
function inlineDirective(this: { lexer: any }, src: string, tokens: Token[]): DirectiveToken | undefined {
  current = { src, tokens };
  if (src.charCodeAt(0) !== 58) return undefined;
  const ne = nameEnd(src, 1);
  if (ne === 1 || src.charCodeAt(ne) !== 91) return undefined;
  const name = src.slice(1, ne);
  // What locates it: up to 80 characters of its line (never a search for the end of a long line).
  const head = src.slice(0, 80).split('\n', 1)[0];
  const le = labelEnd(src, ne, false);
  if (le < 0) return errorToken(src, head, `the label of :${name} is not closed with "]"`, 'inline');
  const label = src.slice(ne + 1, le - 1);
  let end = le;
  let attrs: Record<string, string | true> = {};
  if (src.charCodeAt(le) === 123) {
    const p = parseAttributes(src, le, false);
    if (p.error) return errorToken(src.slice(0, Math.max(p.end, le)), head, `:${name}: ${p.error}`, 'inline');
    attrs = p.attrs;
    end = p.end;
  }
  return { type: 'directive', raw: src.slice(0, end), kind: 'inline', name, attrs, tokens: this.lexer.inlineTokens(label), head };
}

// The body being compiled: its directives' data (filled as they render), its nonce, where it is.
interface Session { nonce: string; data: DirectiveData[]; file: string; lineOffset: number; lines: string[] | null; body: string }
let session: Session | null = null;

const OPEN = '\uE000', CLOSE = '\uE001';

function renderDirective(this: { parser: any }, token: DirectiveToken): string {
  if (!session || token.error) return '';
  const i = session.data.length;
  session.lines ??= session.body.split('\n');
  const line = token.line ?? 1;
  session.data.push({ n: token.name, k: token.kind, a: token.attrs, f: session.file, l: line + session.lineOffset, c: token.column ?? 1, t: (session.lines[line - 1] ?? '').replace(/\r$/, '').slice(0, 200) });
  const inner = token.kind === 'block' ? this.parser.parse(token.tokens) : this.parser.parseInline(token.tokens);
  const html = `${OPEN}${session.nonce}o${i}${CLOSE}${inner}${OPEN}${session.nonce}c${i}${CLOSE}`;
  return token.kind === 'inline' ? html : `${html}\n`;
}

const block: TokenizerExtension & RendererExtension = { name: 'directive', level: 'block', start: blockStart, tokenizer: blockDirective as any, renderer: renderDirective as any };
const inline: TokenizerExtension = { name: 'directiveInline', level: 'inline', start: inlineStart, tokenizer: inlineDirective as any };

/** The marked extension for directives (one object: the content cache key names it by its source). */
export const directivesExtension: MarkedExtension = { extensions: [block, inline] };

const withDirectives = new WeakMap<readonly MarkedExtension[], MarkedExtension[]>();
const EMPTY: MarkedExtension[] = [];
/** The site's Markdown extension list, with the directives when it registers components (one list per input list). */
export function directivesOn(list: readonly MarkedExtension[], on: boolean): readonly MarkedExtension[] {
  if (!on) return list;
  const key = list.length ? list : EMPTY;
  let l = withDirectives.get(key);
  if (!l) { l = [...list, directivesExtension]; withDirectives.set(key, l); }
  return l;
}

export interface DirectiveProblem { line: number; column: number; lineText: string; text: string }

/**
 * Before rendering a body: each directive token gets its line and column in the body (found by its first
 * line, searched forward in document order), and malformed ones become problems. Starts the body's
 * session; `finishDirectives` ends it.
 */
export function beginDirectives(tokens: Token[], body: string, walk: (ts: Token[], fn: (t: Token) => void) => void, origin: { file: string; line: number }): DirectiveProblem[] {
  session = { nonce: Math.random().toString(36).slice(2, 10), data: [], file: origin.file, lineOffset: origin.line, lines: null, body };
  const problems: DirectiveProblem[] = [];
  let from = 0;
  const placeOf = textPlaces(body);
  // The blocks being walked, each with the tokens inside it: once the walk leaves one, the search goes on past
  // its closing line (a stray ":::" after it is not that line).
  const open: { end: number; inside: Set<Token> }[] = [];
  const misses = { n: 0 };
  walk(tokens, (t) => {
    while (open.length && !open[open.length - 1].inside.has(t)) from = Math.max(from, open.pop()!.end);
    // Past code (a block, also in a list or a quote, or a span), which may show the same directive as an example.
    if (passedOver(t)) { from = pastCode(body, t.raw, from, misses); return; }
    if (t.type !== 'directive') return;
    const d = t as unknown as DirectiveToken;
    let i = findHead(body, d.head, from, d.kind !== 'inline');
    if (i < 0) i = findHead(body, d.head, 0, d.kind !== 'inline');
    // Past a block's first line (a nested `:::Tab` is not the `:::Tab` in `::::Tabs`); an inline one's label may hold another.
    if (i >= 0) from = i + (d.kind === 'inline' ? 1 : d.head.length);
    if (i >= 0 && d.kind === 'block') { const inside = new Set<Token>(); walk(d.tokens ?? [], (c) => inside.add(c)); open.push({ end: i + d.raw.length, inside }); }
    const place = placeOf(Math.max(i, 0));
    d.line = place.line;
    d.column = place.column;
    if (d.error) problems.push({ line: d.line, column: d.column, lineText: place.lineText.slice(0, 120), text: `Directive ${d.error}` });
  });
  return problems;
}


/** After the policy check: the markers become `<sitegen-c>` elements carrying each directive's data. */
export function finishDirectives(html: string): string {
  const s = session;
  session = null;
  if (!s || !s.data.length) return html;
  const prefix = OPEN + s.nonce;
  let out = '';
  let last = 0;
  for (let i = html.indexOf(prefix); i >= 0; i = html.indexOf(prefix, last)) {
    const end = html.indexOf(CLOSE, i);
    if (end < 0) break;
    const kind = html[i + prefix.length];
    const n = Number(html.slice(i + prefix.length + 1, end));
    out += html.slice(last, i) + (kind === 'o' ? directiveOpenTag(s.data[n]) : DIRECTIVE_CLOSE_TAG);
    last = end + 1;
  }
  return out + html.slice(last);
}

/** Ends a body's session without output (the body was refused). */
export function abandonDirectives(): void { session = null; }
