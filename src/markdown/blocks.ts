// marked's GFM block rules `table` and `lheading` (a heading underlined with `=` or `-`), answered "no match"
// without running their regular expressions where the text cannot match them. The block lexer tries both
// at the start of every paragraph and of every line of a list item's text, before the paragraph rule; their
// expressions hold the lookaheads of every block that may interrupt a paragraph, tried at every line. The
// checks below read only what a match needs (a table's delimiter row starts its second line; an underline
// is a line that starts with `=` or `-` after spaces, within text that runs on without a blank line) and
// hand every other case to marked's own rule, which then decides as before. Measured on the bench's bodies:
// see docs/content/performance.md.
//
// Like text.ts, each check answers only while the lexer's rule is exactly the one below (compared once per
// regular expression object): another marked version, `pedantic`, no GFM, or a site's own table or
// lheading tokenizer all take marked's path. tests/unit/markdown-blocks.test.ts compares both.
import type { MarkedExtension } from 'marked';
import { ruleGuard, wideSpace } from './text.ts';

/** The rules these checks stand in for, as marked 18 builds them for `gfm: true`. */
export const GFM_TABLE =
  "^ *([^\\n ].*)\\n {0,3}((?:\\| *)?:?-+:? *(?:\\| *:?-+:? *)*(?:\\| *)?)(?:\\n((?:(?! *\\n| {0,3}((?:-[\\t ]*){3,}|(?:_[ \\t]*){3,}|(?:\\*[ \\t]*){3,})(?:\\n+|$)| {0,3}#{1,6}(?:\\s|$)| {0,3}>|(?: {4}| {0,3}\t)[^\\n]| {0,3}(?:`{3,}(?=[^`\\n]*(?:\\n|$))|~~~)[^\\n]*(?:\\n|$)| {0,3}(?:[*+-]|1[.)])[ \\t]| {0,3}(?:<\\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \\t]+|\\n|\\/?>)|<(?:(?:script|pre|style|textarea)(?:[\\s>]|$)|!--)|<\\?|<![A-Za-z]|<!\\[CDATA\\[)).*(?:\\n|$))*)\\n*|$)";
export const GFM_LHEADING =
  "^(?! {0,3}(?:[*+-]|\\d{1,9}[.)]) |(?: {4}| {0,3}\\t)| {0,3}(?:`{3,}|~{3,})| {0,3}>| {0,3}#{1,6}(?:\\s|$)| {0,3}(?:<\\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \\t]+|\\n|\\/?>)|<(?:(?:script|pre|style|textarea)(?:[\\s>]|$)|!--)|<\\?|<![A-Za-z]|<!\\[CDATA\\[)| {0,3}\\|?(?:[:\\- ]*\\|)+[\\:\\- ]*\\n)((?:.|\\n(?!\\s*?\\n| {0,3}(?:[*+-]|\\d{1,9}[.)]) | {0,3}(?:`{3,}|~{3,})| {0,3}>| {0,3}#{1,6}(?:\\s|$)| {0,3}(?:(?:-[\\t ]*){3,}|(?:_[ \\t]*){3,}|(?:\\*[ \\t]*){3,})(?:\\n+|$)| {0,3}(?:<\\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \\t]+|\\n|\\/?>)|<(?:(?:script|pre|style|textarea)(?:[\\s>]|$)|!--)|<\\?|<![A-Za-z]|<!\\[CDATA\\[)| {0,3}\\|?(?:[:\\- ]*\\|)+[\\:\\- ]*\\n))+?)\\n {0,3}(=+|-+)[ \\t]*(?:\\n+|$)";

/**
 * Whether GFM_TABLE may match at the start of `s`: its first line (all of it, up to the first `\n`) is a
 * header row, and the next one a delimiter row, which starts with `|`, `:` or `-` after at most 3 spaces.
 */
export function tableMayStart(s: string): boolean {
  const nl = s.indexOf('\n');
  if (nl < 0) return false;
  let i = nl + 1;
  while (i < nl + 4 && s.charCodeAt(i) === 32) i++;
  const c = s.charCodeAt(i);
  return c === 124 /* | */ || c === 58 /* : */ || c === 45 /* - */;
}

// ASCII characters that may start a line GFM_LHEADING's text does not run on into (blank, indented code,
// a list item, fence, quote, heading, rule, HTML or table row) or an underline: at such a line marked decides.
const STOP = new Uint8Array(128);
for (let c = 0; c <= 32; c++) STOP[c] = 1;
for (const c of '*+-0123456789`~>#<|:_=') STOP[c.charCodeAt(0)] = 1;
const LINE_END = /[\n\r\u2028\u2029]/g;

/**
 * Whether GFM_LHEADING may match at the start of `s`. Its text runs on over a line break only into a line
 * that starts with none of the characters above, and ends at a blank line; the underline is a line after
 * it. So where every line after the first starts with another character, up to a blank line or the end,
 * nothing can underline it. The scan stops at the first line that could stop marked's text, which marked's
 * expression reads past (or to) too: it never reads more than the rule itself would.
 */
export function setextMayStart(s: string): boolean {
  for (let p = 0; ; ) {
    LINE_END.lastIndex = p;
    const m = LINE_END.exec(s);
    if (m === null) return false;
    const q = m.index;
    // `.` stops at \r, U+2028 and U+2029 but the text's line breaks are \n: marked decides.
    if (s.charCodeAt(q) !== 10) return true;
    if (q + 1 === s.length) return false;
    const c = s.charCodeAt(q + 1);
    if (c === 10) return false;
    if (c < 128 ? STOP[c] === 1 : wideSpace(c)) return true;
    p = q + 1;
  }
}

const isTable = ruleGuard(GFM_TABLE), isLheading = ruleGuard(GFM_LHEADING);

/** A marked extension: no table and no underlined heading where the checks above rule them out. */
export const fastBlocks: MarkedExtension = {
  tokenizer: {
    // undefined is marked's own "no match"; false hands the text to marked's rule.
    table(src: string) {
      return isTable(this.rules.block.table) && !tableMayStart(src) ? undefined : false;
    },
    lheading(src: string) {
      return isLheading(this.rules.block.lheading) && !setextMayStart(src) ? undefined : false;
    },
  },
};
