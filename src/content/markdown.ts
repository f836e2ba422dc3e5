// Markdown bodies → HTML, with sitegen's content policy: content is data, never code. Raw HTML in Markdown
// and links or images to javascript:/vbscript:/data: URLs are refused (reported with their line), because
// marked passes both through verbatim and the page would run them. Use Markdown, or put markup in a template.
// The body is lexed once: the policy walks the tokens, and the same tokens are rendered to HTML.
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

export interface CompiledMarkdown {
  /** The body's HTML; undefined when the policy refused something. */
  html?: string;
  problems: MarkdownProblem[];
}

/** Lexes the body once, checks the tokens against the policy and, when they pass, renders them. */
export function compileMarkdown(body: string): CompiledMarkdown {
  const tokens = markdown.lexer(body);
  // Nothing that could be raw HTML or a URL scheme: no walk needed.
  const problems = /[<:]/.test(body) ? tokenProblems(body, tokens) : [];
  if (problems.length) return { problems };
  const html = markdown.parser(tokens);
  // marked builds the HTML by concatenation: a rope of thousands of pieces, each holding on to a slice of
  // the source. Reading a character makes V8 flatten it into one string and drop the rest (a third of
  // the memory per page at 10,000 pages).
  html.charCodeAt(0);
  return { problems, html };
}

/** The body's HTML, without the policy check (callers that already checked it). */
export function renderMarkdown(body: string): string {
  return markdown.parse(body, { async: false }) as string;
}

/** What the policy refuses in the body, with positions. */
export function markdownProblems(body: string): MarkdownProblem[] {
  if (!/[<:]/.test(body)) return [];
  return tokenProblems(body, markdown.lexer(body));
}

function tokenProblems(body: string, tokens: Token[]): MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  let lines: string[] | null = null;
  let from = 0;
  const at = (raw: string, text: string) => {
    let i = body.indexOf(raw, from);
    if (i < 0) i = body.indexOf(raw);
    if (i >= 0) from = i;
    const before = body.slice(0, Math.max(i, 0));
    const line = before.split('\n').length;
    lines ??= body.split('\n');
    problems.push({ line, column: i >= 0 ? i - before.lastIndexOf('\n') : 1, lineText: lines[line - 1] ?? '', text });
  };
  markdown.walkTokens(tokens, (t: Token) => {
    if (t.type === 'html' && t.raw.trim()) at(t.raw.trim(), `Raw HTML is not allowed in Markdown: ${t.raw.trim().slice(0, 60)}`);
    if ((t.type === 'link' || t.type === 'image') && UNSAFE_URL.test(t.href)) at(t.raw, `${t.type === 'link' ? 'Link' : 'Image'} to a ${t.href.split(':')[0].trim().toLowerCase()}: URL is not allowed`);
  });
  return problems;
}
