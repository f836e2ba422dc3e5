// Footnote labels as text. marked-footnote writes a note's label into its back-link's `aria-label` as typed,
// so `[^x"><img …>]` would close the attribute and add markup. The label of every note and reference is
// escaped for an attribute before the notes render; ids (encodeURIComponent of the label) stay matched
// because a reference and its note are escaped alike. `$` is escaped too: the library puts the label into
// its back-link text with String.replace, where `$&` or `$'` would be read as a pattern.
import type { MarkedExtension, Token, Tokens } from 'marked';
import { pastCode, type MarkdownProblem } from './policy.ts';
import { passedOver } from './notes.ts';
import { locationAt } from '../core/errors.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', $: '&#36;' };

type Labelled = Token & { label?: unknown };

export const footnoteLabels: MarkedExtension = {
  walkTokens(token) {
    if (token.type !== 'footnote' && token.type !== 'footnoteRef') return;
    const t = token as Labelled;
    if (typeof t.label === 'string') t.label = t.label.replace(/[&<>"'$]/g, (c) => ESCAPES[c]);
  },
};

/** A footnote reference in a text: a label of up to 100 characters, no space or "]" (a note's own `[^x]:` is one
 *  only at the start of a line). */
const REF = /\[\^([^\]\s]{1,100})\]/g;

/**
 * The footnote references with no note, located: marked-footnote leaves such a `[^label]` in the text, which
 * would be published as it is (a note's label mistyped, or a note left behind in another file). Code and an
 * escaped bracket (`\[^x]`) are text, not references.
 */
export function notelessRefs(walk: (ts: Token[], fn: (t: Token) => void) => void, body: string, tokens: Token[]): MarkdownProblem[] {
  const out: MarkdownProblem[] = [];
  let from = 0;
  const misses = { n: 0 };
  walk(tokens, (t) => {
    if (passedOver(t)) { from = pastCode(body, t.raw, from, misses); return; }
    if (t.type !== 'text' || ('tokens' in t && t.tokens)) return;
    for (const m of t.raw.matchAll(REF)) {
      if (t.raw[m.index + m[0].length] === ':' && (m.index === 0 || t.raw[m.index - 1] === '\n')) continue; // (a note, not a reference)
      const i = body.indexOf(m[0], from);
      if (i >= 0) from = i + m[0].length;
      const { line, column, lineText } = locationAt('', body, Math.max(i, 0));
      out.push({
        line, column, lineText: lineText.slice(0, 200),
        text: `The footnote reference ${m[0]} has no note, and would be published as text`, id: 'FootnoteWithoutNote',
        hint: `Write its note on a line of its own in this body: ${m[0]}: The note. (To show the brackets as text, write \\${m[0]}.)`,
      });
    }
  });
  return out;
}

/** A footnote's note at the start of a line of a paragraph: `[^label]:` (bounded, anchored: linear). */
const NOTE_LINE = /^ {0,3}\[\^[^\]\s]{1,100}\]:/gm;

/**
 * With footnotes off, a note written as `[^label]: text` is published as it is written, or, when its text is
 * one word, read as a link definition whose URL is that word (and each `[^label]` as a link to it: the link
 * check then reported a link that does not exist, with nothing about footnotes). Each note is located here,
 * with the way to turn footnotes on.
 */
export function footnotesOff(walk: (ts: Token[], fn: (t: Token) => void) => void, body: string, tokens: Token[]): MarkdownProblem[] {
  const out: MarkdownProblem[] = [];
  let from = 0;
  const note = (written: string) => {
    // (by its first line: a note over lines of a quote has lost their markers)
    const i = body.indexOf(written.split('\n', 1)[0]!, from);
    if (i >= 0) from = i + written.length;
    const { line, column, lineText } = locationAt('', body, Math.max(i, 0));
    const label = written.slice(0, written.indexOf(']:') + 1);
    out.push({
      line, column, lineText: lineText.slice(0, 200), id: 'FootnotesOff',
      text: `${label}: writes a footnote, but footnotes are off: it would be published as it is written, or read as a link to its text`,
      hint: 'Turn footnotes on in sitegen.config.ts: plugins: [markdown({ footnotes: true })]. (A link definition of your own takes a label that does not start with ^.)',
    });
  };
  walk(tokens, (t) => {
    if (t.type === 'def' && (t as Tokens.Def).tag.startsWith('^')) note(t.raw.trim());
    // (a paragraph, or the text of a tight list's item: a block's own text, not a text inside a paragraph)
    else if (t.type === 'paragraph' || (t.type === 'text' && Array.isArray((t as Tokens.Text).tokens))) for (const m of t.raw.matchAll(NOTE_LINE)) note(m[0].trimStart());
  });
  return out;
}
