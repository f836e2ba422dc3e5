// What a Markdown body says, besides its HTML, read from the same tokens the HTML is rendered from (no
// pattern over HTML): its headings (with the ids the HTML has, when heading ids are on), an excerpt (the
// text before a `<!-- more -->` line, else the first paragraph) and its word count. Every loader (build,
// workers, dev) gets these from compileMarkdown and the content cache keeps them with the HTML.
import type { Token, Tokens } from 'marked';

export interface MarkdownHeading {
  /** 1 for `#`, up to 6. */
  depth: number;
  /** The heading's text, without markup. */
  text: string;
  /** The heading's id in the HTML: only with `markdown({ headingIds: true })`, which writes it. */
  id?: string;
}

export interface MarkdownText {
  headings: MarkdownHeading[];
  /** Plain text: what comes before a `<!-- more -->` line, else the first paragraph ('' when none). */
  excerpt: string;
  /** Runs of non-space characters in the body's text (code included; images, raw HTML left out). */
  words: number;
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

const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos|nbsp);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
function decode(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (m, e: string) => {
    if (e[0] !== '#') return NAMED[e] ?? m;
    const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
  });
}

/** Text of tokens (inline or block) into `out`; blocks end with a space so their words stay apart. */
function textOf(tokens: readonly Token[] | undefined, out: string[]): void {
  if (!tokens) return;
  for (const t of tokens) {
    switch (t.type) {
      case 'html': case 'image': case 'space': case 'hr': case 'def': break;
      case 'br': out.push(' '); break;
      case 'code': out.push(' ', (t as Tokens.Code).text, ' '); break;
      case 'codespan': case 'escape': out.push((t as Tokens.Codespan).text); break;
      case 'list': for (const item of (t as Tokens.List).items) { textOf(item.tokens, out); out.push(' '); } break;
      case 'table': {
        const table = t as Tokens.Table;
        for (const cell of table.header) { textOf(cell.tokens, out); out.push(' '); }
        for (const row of table.rows) for (const cell of row) { textOf(cell.tokens, out); out.push(' '); }
        break;
      }
      default:
        if ('tokens' in t && t.tokens) { textOf(t.tokens, out); if (t.type === 'paragraph' || t.type === 'heading' || t.type === 'blockquote' || t.type === 'text') out.push(' '); }
        else if (typeof (t as { text?: unknown }).text === 'string') out.push((t as { text: string }).text);
    }
  }
}

/** The words of tokens' text, white space runs counted once. */
function wordsOf(tokens: readonly Token[]): string[] {
  const out: string[] = [];
  textOf(tokens, out);
  return decode(out.join('')).split(/\s+/).filter(Boolean);
}

/**
 * Headings, excerpt and words of a body from its top-level tokens (markers already taken out, `more` where
 * the first was). `walk` visits every token, nested ones too (the walk the policy uses). Heading ids are
 * read from the tokens after heading-ids assigned them (`sitegenId`).
 */
export function markdownText(tokens: Token[], more: number, walk: (tokens: Token[], fn: (t: Token) => void) => void): MarkdownText {
  const headings: MarkdownHeading[] = [];
  walk(tokens, (t) => {
    if (t.type !== 'heading') return;
    const h = t as Tokens.Heading & { sitegenId?: string };
    const heading: MarkdownHeading = { depth: h.depth, text: wordsOf(h.tokens).join(' ') };
    if (h.sitegenId) heading.id = h.sitegenId;
    headings.push(heading);
  });
  const first = more >= 0 ? null : tokens.find((t) => t.type === 'paragraph');
  const excerpt = (more >= 0 ? wordsOf(tokens.slice(0, more)) : first ? wordsOf([first]) : []).join(' ');
  return { headings, excerpt, words: wordsOf(tokens).length };
}
