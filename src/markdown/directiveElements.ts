// The directive elements of compiled HTML: `<sitegen-c data-c="{json}">inner</sitegen-c>` carries one
// directive's data (name, kind, attributes, where it was written). directives.ts writes them after the
// content policy check; the components check (components.ts) and the render stage
// (src/render/components.tsx) read them back with placedDirectives. One pass over the tags: linear time.

/** What the render stage reads from a directive's element. */
export interface DirectiveData {
  /** Component name as written. */
  n: string;
  /** "block" (`:::`), "leaf" (`::`) or "inline" (`:Name[…]`). */
  k: DirectiveKind;
  /** Attributes: strings, `true` for a bare flag. */
  a: Record<string, string | true>;
  /** File (relative to the site root), 1-based line and column, and the line's text. */
  f: string;
  l: number;
  c: number;
  t: string;
}

export type DirectiveKind = 'block' | 'leaf' | 'inline';

/** The element's opening tag for a directive's data. */
export const directiveOpenTag = (data: DirectiveData) => `<sitegen-c data-c="${attrEscape(JSON.stringify(data))}">`;
export const DIRECTIVE_CLOSE_TAG = '</sitegen-c>';
const attrEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A directive's element in compiled HTML: its data, where its tags and content are, the ones inside it. */
export interface PlacedDirective {
  data: DirectiveData;
  /** Index of `<sitegen-c`, of its content, of `</sitegen-c>`, and after it. */
  open: number;
  innerStart: number;
  innerEnd: number;
  close: number;
  children: PlacedDirective[];
}

const OPEN_TAG = '<sitegen-c data-c="';
const CLOSE_TAG = DIRECTIVE_CLOSE_TAG;
const attrUnescape = (s: string) => s.replace(/&(amp|quot|lt|gt);/g, (_m, e: string) => ({ amp: '&', quot: '"', lt: '<', gt: '>' })[e]!);

/**
 * The directive elements in HTML (a body's, or a page's), as a tree in document order; one pass over the
 * tags. Only the engine writes these elements: everything a body's text holds is escaped, so `<sitegen-c`
 * occurs nowhere else.
 */
export function placedDirectives(html: string): PlacedDirective[] {
  const roots: PlacedDirective[] = [];
  const stack: PlacedDirective[] = [];
  let o = html.indexOf(OPEN_TAG), c = html.indexOf(CLOSE_TAG);
  while (o >= 0 || c >= 0) {
    if (o >= 0 && (c < 0 || o < c)) {
      const q = html.indexOf('">', o + OPEN_TAG.length);
      if (q < 0) break;
      const data = JSON.parse(attrUnescape(html.slice(o + OPEN_TAG.length, q))) as DirectiveData;
      const node: PlacedDirective = { data, open: o, innerStart: q + 2, innerEnd: -1, close: -1, children: [] };
      (stack.length ? stack[stack.length - 1].children : roots).push(node);
      stack.push(node);
      o = html.indexOf(OPEN_TAG, q + 2);
    } else {
      const node = stack.pop();
      if (node) { node.innerEnd = c; node.close = c + CLOSE_TAG.length; }
      c = html.indexOf(CLOSE_TAG, c + CLOSE_TAG.length);
    }
  }
  return roots;
}

/** Whether HTML holds any directive element. */
export const hasDirectives = (html: string | undefined) => !!html && html.includes(OPEN_TAG);
