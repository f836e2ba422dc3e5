// marked's GFM inline `text` rule, answered without running its regular expression. The rule (GFM_TEXT
// below, from marked 18's `Lexer.rules.inline.gfm.text`) finds where a run of plain text ends: before the
// next character that may start other inline syntax, a bare URL, an e-mail address or a hard line break.
// It tries eight alternatives at every character of every paragraph. Here one regular expression of plain
// alternatives finds the first place where any of them can hold, and `@` signs are looked at only where
// there are some. Measured on the bench's bodies: the rule alone 46 → 18 ms per 1,000 bodies; 5,000 bodies
// through marked.parse 1,058-1,082 → 913-963 ms.
//
// It answers only while the lexer's rule is exactly GFM_TEXT (compared once per regular expression object):
// another marked version, `breaks`, `pedantic`, no GFM, or a site's own inlineText tokenizer all take
// marked's path. A differential test compares the two on generated text (tests/unit/markdown-text.test.ts).
import type { MarkedExtension, Tokens } from 'marked';

/** The rule this file stands in for, as marked 18 builds it for `gfm: true`. */
export const GFM_TEXT = /^(?:[^a-zA-Z0-9](?=(?:mailto|xmpp):)|(`+|~+|[^`~])(?:(?=[`~])|(?= {2,}\n)|(?=[a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-]+@)|[\s\S]*?(?:(?=[\\<!\[`*~_]|\b_|[hH][tT][tT][pP][sS]?|[fF][tT][pP]:\/\/|(?<![^\s*_~(])www\.|$)|[^ ](?= {2,}\n)|[^a-zA-Z0-9](?=(?:mailto|xmpp):)|[^a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-](?=[a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-]+@))))/.source;

// Character classes over UTF-16 code units below 128 (every class in the rule is ASCII but `\s`).
const ALNUM = 1, EMAIL = 2, BEHIND_WWW = 4;
const table = new Uint8Array(128);
const mark = (chars: string, bit: number) => { for (const c of chars) table[c.charCodeAt(0)] |= bit; };
const alnum = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
mark(alnum, ALNUM);
mark(alnum + ".!#$%&'*+/=?_`{|}~-", EMAIL);
// (?<![^\s*_~(]) before `www.`: the character before is whitespace or one of `*_~(`.
mark('*_~( \t\n\v\f\r', BEHIND_WWW);

const is = (c: number, bit: number) => c < 128 && (table[c] & bit) !== 0;
/** JavaScript's `\s` outside ASCII. */
const wideSpace = (c: number) =>
  c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;

/** ` {2,}\n` at i. */
function breakAt(s: string, i: number): boolean {
  if (s.charCodeAt(i) !== 32 || s.charCodeAt(i + 1) !== 32) return false;
  i += 2;
  while (s.charCodeAt(i) === 32) i++;
  return s.charCodeAt(i) === 10;
}
/** `(?:mailto|xmpp):` at i. */
const protocolAt = (s: string, i: number) => s.startsWith('mailto:', i) || s.startsWith('xmpp:', i);
/** The first index from i that is not an e-mail character. */
function emailRunEnd(s: string, i: number): number {
  while (i < s.length && is(s.charCodeAt(i), EMAIL)) i++;
  return i;
}

/**
 * Where the rule's lazy scan can stop, and every `@` (an address ends there; see gfmTextLength). Every
 * alternative reads a bounded number of characters but the hard break, which starts only where a run of
 * spaces starts (the lookbehind), so a scan reads each character a bounded number of times: no input can
 * make it quadratic (a line of 200 KB of spaces once took 39 s through ` {2,}\n` tried at every space).
 */
export const STOPS = /[\\<!\[`*~_@]|[hH][tT][tT][pP]|[fF][tT][pP]:\/\/|www\.|(?:mailto|xmpp):|(?<! ) {2,}\n/g;

/**
 * The length of GFM_TEXT's match at the start of `s`, or 0 where it does not match. It reads `s` once up
 * to the end of the match, plus the run of e-mail characters the match ends in or before (the rule's own
 * lookahead reads as much), so a text of many short runs costs what marked's rule costs, not the square.
 */
export function gfmTextLength(s: string): number {
  const n = s.length;
  if (n === 0) return 0;
  const c0 = s.charCodeAt(0);
  if (!is(c0, ALNUM) && protocolAt(s, 1)) return 1;
  // The first character, or a run of backticks or tildes.
  let g = 1;
  if (c0 === 96 || c0 === 126) while (s.charCodeAt(g) === c0) g++;
  const cg = s.charCodeAt(g);
  if (cg === 96 || cg === 126 || breakAt(s, g)) return g;
  // An address right after: a run of e-mail characters ending at an `@`.
  const runEnd = emailRunEnd(s, g);
  if (runEnd > g && s.charCodeAt(runEnd) === 64) return g;
  // Then the shortest run to a point where one alternative holds: the match ends at the first of them.
  STOPS.lastIndex = g;
  for (let m; (m = STOPS.exec(s)) !== null; STOPS.lastIndex = m.index + 1) {
    const q = m.index, c = s.charCodeAt(q);
    if (c === 64 /* @ */) {
      // An address: the run of e-mail characters before this `@`, after a character (at g or later) that
      // is not one. No other stop comes before this `@`, so the match ends where that run starts.
      let r = q;
      while (r > g && is(s.charCodeAt(r - 1), EMAIL)) r--;
      if (r < q && r > g) return r;
      continue;
    }
    if (c === 119 /* www. */) {
      const b = s.charCodeAt(q - 1);
      if (!(b < 128 ? (table[b] & BEHIND_WWW) !== 0 : wideSpace(b))) continue;
    } else if (c === 109 || c === 120 /* mailto: xmpp: */) {
      if (q === g || is(s.charCodeAt(q - 1), ALNUM)) continue;
    }
    // A hard break at g was taken above, so one found later has a character other than a space before it.
    // A stop that is an e-mail character may sit inside an address whose `@` comes after it: the match
    // then ends where that address starts. (The run from g, read above, ends at no `@`.)
    if (!is(c, EMAIL) || runEnd > q) return q;
    const reach = emailRunEnd(s, q);
    if (s.charCodeAt(reach) !== 64) return q;
    let r = q;
    while (r > g && is(s.charCodeAt(r - 1), EMAIL)) r--;
    return r > g ? r : q;
  }
  return n;
}

/**
 * A check that a lexer's rule is exactly `source` (no flags), made again only when the rule is another
 * regular expression object (each Marked setup has its own rules; options such as `breaks` change them).
 */
export function ruleGuard(source: string): (rule: RegExp) => boolean {
  let seen: RegExp | undefined;
  let same = false;
  return (rule) => {
    if (rule !== seen) { seen = rule; same = rule.source === source && rule.flags === ''; }
    return same;
  };
}

const isGfmText = ruleGuard(GFM_TEXT);

/** A marked extension: the inline text tokenizer through gfmTextLength where the rule is GFM_TEXT. */
export const fastText: MarkedExtension = {
  tokenizer: {
    inlineText(src: string): Tokens.Text | false {
      if (!isGfmText(this.rules.inline.text)) return false;
      const len = gfmTextLength(src);
      if (len === 0) return false;
      const raw = src.length === len ? src : src.slice(0, len);
      const inRaw = this.lexer.state.inRawBlock;
      // marked decodes numeric character references in text; a run with `&` takes its path.
      if (!inRaw && raw.includes('&')) return false;
      return { type: 'text', raw, text: raw, escaped: inRaw };
    },
  },
};
