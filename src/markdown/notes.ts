// Authors' notes in Markdown: raw HTML that is comments and nothing else (`<!-- TODO: a better intro -->`, or
// two on a line) runs nothing and is left out of the page, where any other raw HTML is refused (policy.ts).
// A note keeps its source (`raw`): every locator of the body's problems steps over it as over code
// (`passedOver`), so a problem after a note is found where it is written, never inside the note. A comment
// that reads as an excerpt marker in another case (`<!-- More -->`) is not a note: it is refused with a hint,
// rather than quietly not splitting the excerpt.
import type { Token, Tokens } from 'marked';

type Note = Tokens.HTML & { sitegenNote?: true };

const MORE_ANY_CASE = /^<!--\s*more\s*-->$/i;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

/** Whether `raw` is one or more comments and white space only: one pass, a search for each comment's end. */
export function onlyComments(raw: string): boolean {
  let i = 0;
  const n = raw.length;
  while (i < n && isSpace(raw.charCodeAt(i))) i++;
  if (i === n) return false;
  while (i < n) {
    if (!raw.startsWith('<!--', i)) return false;
    const end = raw.indexOf('-->', i + 4);
    if (end < 0) return false;
    i = end + 3;
    while (i < n && isSpace(raw.charCodeAt(i))) i++;
  }
  return true;
}

/** Makes a token of authors' notes render to nothing, its source kept for the locators. */
export function takeNote(t: Token): void {
  if (t.type !== 'html' || !onlyComments(t.raw) || MORE_ANY_CASE.test(t.raw.trim())) return;
  (t as Note).sitegenNote = true;
  (t as Note).text = '';
}

/** A token a locator steps over without looking inside: code (a span or a block) or an author's note. */
export const passedOver = (t: Token): boolean => t.type === 'code' || t.type === 'codespan' || (t as Note).sitegenNote === true;

/** The hint for raw HTML that starts with a comment but is not a note. */
export function commentHint(raw: string): string | null {
  if (!raw.startsWith('<!--')) return null;
  if (!raw.includes('-->', 2)) return 'This comment is never closed: end it with --> (unclosed, it takes in everything after it, to the end of the page or of its list item or quote).';
  if (MORE_ANY_CASE.test(raw)) return 'The excerpt marker is <!-- more --> in lower case, on a line of its own at the top level of the body (not in running text, a list or a quote); the text before it is the excerpt.';
  return 'A comment is left out of the page when it is alone. Here HTML or text follows it on its line, which Markdown then reads as a block of raw HTML: put the note on a line of its own, or after the text.';
}
