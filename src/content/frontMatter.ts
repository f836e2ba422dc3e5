// frontMatter: where a Markdown file's front matter is. The one reader of it: this finds the fences, and
// the YAML reader (parse.ts) parses the block between them; nothing else looks at the text, and no
// language named after the fence is ever run (parse.ts refuses any but YAML).
//
// The rules are the ones sites' files were written against (gray-matter's, which sitegen used before):
// - one byte-order mark at the start is skipped;
// - the file opens with `---` and a fourth character that is not `-` (`----` is a thematic break, so
//   such a file has no front matter: all of it is the body);
// - the rest of that first line, trimmed, names the block's language (`---yaml`, `--- yaml`);
// - the block ends at the first line that starts with `---` ("\n---", CRLF files too); the body starts
//   after those three dashes, less one "\r" and then one "\n";
// - a block that never closes runs to the end of the file, and the body is empty;
// - a file that opens with Hugo's TOML front matter (a "+++" line, closed by another) is said to (`toml`),
//   so that it is refused as what it is rather than read as a body.
// One scan, no regular expression: linear in the file's length.

export interface FrontMatter {
  /** Whether the file opens with a fence (else the whole text is the body). */
  fenced: boolean;
  /** The language named after the opening fence, trimmed ('' for none). */
  language: string;
  /** The 1-based column of `language` on the first line (for the error that refuses it). */
  languageColumn: number;
  /** The text between the fences ('' without a fence): its first line is the rest of the fence's line. */
  block: string;
  /** Where `block` starts in the text, and the number of line breaks before it. */
  blockStart: number;
  blockLine: number;
  /** Whether `block` holds nothing but blank lines and `#` comments (its data is then `{}`). */
  blank: boolean;
  /** Whether the file opens with TOML front matter between "+++" lines instead (never read). */
  toml: boolean;
  /** Whether the block has its closing fence (false: it runs to the end of the file). */
  closed: boolean;
  /** The Markdown after the closing fence (the whole text when not fenced; '' when the fence never closes). */
  body: string;
  /** Where `body` starts in the text, and the number of line breaks before it. */
  bodyStart: number;
  bodyLine: number;
}

/** Counts "\n" in text[from, to). */
function lineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Whether every line of `block` is blank or a `#` comment (a `#` with something after it on its line). */
function isBlank(block: string): boolean {
  for (let from = 0; from <= block.length;) {
    const eol = block.indexOf('\n', from);
    const line = block.slice(from, eol < 0 ? block.length : eol).trimStart();
    if (line !== '' && !(line[0] === '#' && line.length > 1)) return false;
    if (eol < 0) break;
    from = eol + 1;
  }
  return true;
}

/** Whether the text (from `start`) opens with a "+++" line that a later "+++" line closes. */
function opensWithToml(text: string, start: number): boolean {
  const eol = text.indexOf('\n', start);
  if (eol < 0 || text.slice(start, eol).trimEnd() !== '+++') return false;
  for (let at = eol + 1; at < text.length;) {
    const end = text.indexOf('\n', at);
    if (text.slice(at, end < 0 ? text.length : end).trimEnd() === '+++') return true;
    if (end < 0) break;
    at = end + 1;
  }
  return false;
}

/** Splits a Markdown file's text into its front matter block and body (see the rules above). */
export function splitFrontMatter(text: string): FrontMatter {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith('---', start) || text.charAt(start + 3) === '-') {
    return { fenced: false, toml: opensWithToml(text, start), language: '', languageColumn: 0, block: '', blockStart: start, blockLine: 0, blank: true, closed: true, body: text.slice(start), bodyStart: start, bodyLine: 0 };
  }
  const afterFence = start + 3;
  const eol = text.indexOf('\n', afterFence);
  const lineEnd = eol < 0 ? text.length : text[eol - 1] === '\r' ? eol - 1 : eol;
  const rest = text.slice(afterFence, lineEnd);
  const language = rest.trim();
  const lead = rest.length - rest.trimStart().length;
  const blockStart = language ? lineEnd : afterFence;
  const close = text.indexOf('\n---', blockStart);
  const blockEnd = close < 0 ? text.length : close;
  const block = text.slice(blockStart, blockEnd);
  let bodyStart = text.length;
  if (close >= 0) {
    bodyStart = close + 4;
    if (text[bodyStart] === '\r') bodyStart++;
    if (text[bodyStart] === '\n') bodyStart++;
  }
  const blockLine = lineBreaks(text, 0, blockStart);
  return {
    fenced: true, toml: false, language, languageColumn: language ? afterFence + lead + 1 : 0,
    block, blockStart, blockLine, blank: isBlank(block), closed: close >= 0,
    body: text.slice(bodyStart), bodyStart, bodyLine: blockLine + lineBreaks(text, blockStart, bodyStart),
  };
}
