// sitegen's content policy for Markdown bodies: content is data, never code. Raw HTML in Markdown
// and links or images to javascript:/vbscript:/data: URLs are refused (reported with their line), because
// marked passes both through verbatim and the page would run them. Use Markdown, or put markup in a template.
import { Marked, type Token } from 'marked';

const markdown = new Marked({ gfm: true });
const UNSAFE_URL = /^\s*(javascript|vbscript|data):/i;

export interface MarkdownProblem {
  /** 1-based line and column within the body. */
  line: number;
  column: number;
  lineText: string;
  text: string;
}

/** Lexes the body (HTML is rendered elsewhere) and lists what the policy refuses, with positions. */
export function markdownProblems(body: string): MarkdownProblem[] {
  if (!/[<:]/.test(body)) return []; // nothing that could be raw HTML or a URL scheme

  const tokens = markdown.lexer(body);
  const problems: MarkdownProblem[] = [];
  const lines = body.split('\n');
  let from = 0;
  const at = (raw: string, text: string) => {
    let i = body.indexOf(raw, from);
    if (i < 0) i = body.indexOf(raw);
    if (i >= 0) from = i;
    const before = body.slice(0, Math.max(i, 0));
    const line = before.split('\n').length;
    problems.push({ line, column: i >= 0 ? i - before.lastIndexOf('\n') : 1, lineText: lines[line - 1] ?? '', text });
  };
  markdown.walkTokens(tokens, (t: Token) => {
    if (t.type === 'html' && t.raw.trim()) at(t.raw.trim(), `Raw HTML is not allowed in Markdown: ${t.raw.trim().slice(0, 60)}`);
    if ((t.type === 'link' || t.type === 'image') && UNSAFE_URL.test(t.href)) at(t.raw, `${t.type === 'link' ? 'Link' : 'Image'} to a ${t.href.split(':')[0].trim().toLowerCase()}: URL is not allowed`);
  });
  return problems;
}
