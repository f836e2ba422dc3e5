// What a Markdown body says, besides its HTML, read from the same tokens the HTML is rendered from (no
// pattern over HTML): its headings (with the ids the HTML has, when heading ids are on), an excerpt (the
// text before a `<!-- more -->` line, else the first paragraph with text) and its word count. Every loader (build,
// workers, dev) gets these from compileMarkdown and the content cache keeps them with the HTML.
import type { Token, Tokens } from 'marked';
import type { MarkdownHeading } from '../core/types.ts';

export type { MarkdownHeading };

export interface MarkdownText {
  headings: MarkdownHeading[];
  /** Plain text: what comes before a `<!-- more -->` line, else the first paragraph with text ('' when none). */
  excerpt: string;
  /** Runs of non-space characters in the body's text (code included; images, raw HTML left out). */
  words: number;
  /** The URL of every link written in the body (`[text](url)`, reference links, autolinks), in order, as
   *  written (numeric character references and `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;`
   *  decoded): before the site's base is added. Frozen: every entry that shares it reads the same list. */
  links: readonly string[];
}

/** Words a minute for `readingMinutes`. */
export const WORDS_PER_MINUTE = 200;

/** Reading minutes: words / 200, rounded up, at least 1. */
export const readingMinutes = (words: number): number => Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));

/** The excerpt marker: a line holding only `<!-- more -->` (spaces inside the comment allowed). */
const MORE = /^<!--[ \t]*more[ \t]*-->$/;

/** A top-level token that is the excerpt marker. */
export const isMoreMarker = (t: Token): boolean => t.type === 'html' && (t as Tokens.HTML).block && MORE.test(t.raw.trim());

/**
 * Removes every excerpt marker from the top-level tokens (it renders to nothing and is not raw HTML to the
 * content policy); returns where the first one was (-1 for none).
 */
export function takeMoreMarkers(tokens: Token[]): number {
  let first = -1;
  for (let i = 0; i < tokens.length; i++) {
    if (!isMoreMarker(tokens[i])) continue;
    if (first < 0) first = i;
    tokens.splice(i--, 1);
  }
  return first;
}

/** Character references the text may hold as written (the lexer leaves them): bounded, linear. */
const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos|nbsp);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
export function decode(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (m, e: string) => {
    if (e[0] !== '#') return NAMED[e] ?? m;
    const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
  });
}

/** Text of tokens (inline or block), piece by piece; blocks end with a space so their words stay apart. */
function textOf(tokens: readonly Token[] | undefined, out: (s: string) => void, visit?: (t: Token) => void): void {
  if (!tokens) return;
  for (const t of tokens) {
    visit?.(t);
    switch (t.type) {
      case 'html': case 'image': case 'space': case 'hr': case 'def': break;
      case 'br': out(' '); break;
      case 'code': out(' '); out((t as Tokens.Code).text); out(' '); break;
      case 'codespan': case 'escape': out((t as Tokens.Codespan).text); break;
      case 'list': for (const item of (t as Tokens.List).items) { textOf(item.tokens, out, visit); out(' '); } break;
      case 'table': {
        const table = t as Tokens.Table;
        for (const cell of table.header) { textOf(cell.tokens, out, visit); out(' '); }
        for (const row of table.rows) for (const cell of row) { textOf(cell.tokens, out, visit); out(' '); }
        break;
      }
      default:
        if ('tokens' in t && t.tokens) { textOf(t.tokens, out, visit); if (t.type === 'paragraph' || t.type === 'heading' || t.type === 'blockquote' || t.type === 'text') out(' '); }
        else if (typeof (t as { text?: unknown }).text === 'string') out((t as { text: string }).text);
    }
  }
}

/** Tokens' text as one line: white space runs as one space, entities decoded. */
function plainOf(tokens: readonly Token[]): string {
  const parts: string[] = [];
  textOf(tokens, (s) => { parts.push(s); });
  return decode(parts.join('')).split(/\s+/).filter(Boolean).join(' ');
}

/** White space as JavaScript's \s has it. */
const isSpace = (c: number): boolean => c <= 32 ? (c === 32 || (c >= 9 && c <= 13)) : c >= 160 && (c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff);

/** Counts runs of non-space characters across the pieces it is fed (a word may span two pieces). */
class WordCount {
  n = 0;
  inWord = false;
  feed = (s: string): void => {
    let n = this.n, inWord = this.inWord;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      // Most characters are letters: no call for them.
      const space = c > 32 && c < 160 ? false : isSpace(c);
      if (!space && !inWord) n++;
      inWord = !space;
    }
    this.n = n;
    this.inWord = inWord;
  };
}

/** Adds the tokens and all their descendants to `set`. */
function markInside(tokens: readonly Token[] | undefined, set: WeakSet<Token>): void {
  for (const t of tokens ?? []) { set.add(t); markInside((t as { tokens?: Token[] }).tokens, set); }
}

/** A link token whose URL the base step changed keeps the URL as written here (compile.ts). */
export type WrittenLink = Tokens.Link & { sitegenHref?: string };

/**
 * Headings, excerpt, words and links of a body from its top-level tokens (markers already taken out, `more`
 * where the first was). `walk`: marked's walk of an instance with extensions (their tokens' children
 * included), for the headings and links; none for the engine's plain instance. Heading ids are read from the
 * tokens after heading ids assigned them (`sitegenId`).
 */
export function markdownText(tokens: Token[], more: number, walk?: (tokens: Token[], fn: (t: Token) => void) => void): MarkdownText {
  const headings: MarkdownHeading[] = [];
  const links: string[] = [];
  // An image's alt text is plain text in the HTML: a link written in it is no link. marked's walk goes into
  // it (textOf does not): its tokens are marked when the walk meets the image, before its children.
  let inImage: WeakSet<Token> | null = null;
  const words = new WordCount();
  const visit = (t: Token) => {
    if (t.type === 'image') { if (walk && (t as Tokens.Image).tokens?.length) markInside((t as Tokens.Image).tokens, inImage ??= new WeakSet()); return; }
    if (t.type === 'link') {
      const l = t as WrittenLink;
      if (!inImage?.has(t)) links.push(decode(l.sitegenHref ?? l.href));
      return;
    }
    if (t.type !== 'heading') return;
    const h = t as Tokens.Heading & { sitegenId?: string };
    const heading: MarkdownHeading = { depth: h.depth, text: plainOf(h.tokens) };
    if (h.sitegenId) heading.id = h.sitegenId;
    headings.push(heading);
  };
  // One pass for the words and, when no extension has child tokens of its own (no `walk`), the headings and links.
  textOf(tokens, words.feed, walk ? undefined : visit);
  if (walk) walk(tokens, visit);
  const excerpt = more >= 0 ? plainOf(tokens.slice(0, more)) : firstText(tokens);
  return { headings, excerpt, words: words.n, links: Object.freeze(links) };
}

/** The text of the first paragraph that has any (a post that opens with a picture: the paragraph after it). */
function firstText(tokens: Token[]): string {
  for (const t of tokens) {
    if (t.type !== 'paragraph') continue;
    const text = plainOf([t]);
    if (text.trim()) return text;
  }
  return '';
}
