// marked's GFM block rules `table` and `lheading` (a heading underlined with `=` or `-`), answered "no match"
// without running their regular expressions where the text cannot match them. The block lexer tries both
// at the start of every paragraph and of every line of a list item's text, before the paragraph rule; their
// expressions hold the lookaheads of every block that may interrupt a paragraph, tried at every line. The
// checks below read only what a match needs (a table's delimiter row starts its second line; an underline
// is a line that starts with `=` or `-` after spaces, within text that runs on without a blank line) and
// hand every other case to marked's own rule, which then decides as before. Measured on the bench's bodies
// (CPU profile of marked.lexer, sitegen's setup): the two rules 39 → 9 ms per 1,000 bodies, the whole lexer
// about 10 % less CPU (paired runs in one process, median ratio 0.87-0.92); a cold 1,000-page build spends
// about 2 % of its CPU on them, too little to see in whole-build timings on a shared machine.
//
// Like text.ts, each check answers only while the lexer's rule is exactly the one below (compared once per
// regular expression object): another marked version, `pedantic`, no GFM, or a site's own table or
// lheading tokenizer all take marked's path. tests/unit/markdown-blocks.test.ts compares both.
import type { MarkedExtension } from 'marked';
import { ruleGuard } from './text.ts';

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

// Where GFM_LHEADING's text may end: a line break `.` stops at (\r, U+2028, U+2029), or a \n not followed
// by a character that certainly continues the text. Any whitespace, a control character or one of
// `*+-0-9`~>#<|:_=` may start a line the text does not run on into (blank, indented code, a list item,
// fence, quote, heading, rule, HTML or table row), or an underline. One pass, no backtracking.
const TEXT_MAY_END = /[\r\u2028\u2029]|\n(?![^\s\x00-\x1f*+\-0-9`~>#<|:_=])/;

/**
 * Whether GFM_LHEADING may match at the start of `s`. Its text runs on over a \n only into a line that
 * starts with a character other than those above, and the underline is a line after it that starts with
 * `=` or `-`: where the first place the text may end is a blank line, or the end, nothing can underline it.
 * Anywhere else marked's rule decides. The scan stops where marked's expression may stop at the earliest,
 * so it never reads more than the rule itself would.
 */
export function setextMayStart(s: string): boolean {
  const q = s.search(TEXT_MAY_END);
  if (q < 0) return false;
  if (s.charCodeAt(q) !== 10) return true;
  return q + 1 < s.length && s.charCodeAt(q + 1) !== 10;
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
