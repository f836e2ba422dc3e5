// The directive syntax's pieces, each a loop over characters (linear time): names, `[label]`,
// `{attributes}`, fences and indentation, and the token a directive lexes to (directives.ts uses them).
import type { Token } from 'marked';
import type { DirectiveKind } from './directiveElements.ts';

export interface DirectiveToken {
  type: 'directive';
  raw: string;
  kind: DirectiveKind;
  name: string;
  attrs: Record<string, string | true>;
  tokens: Token[];
  /** The text the directive starts with, to locate it in the body (its first line). */
  head: string;
  /** Set for a malformed directive: what is wrong (the body is refused). */
  error?: string;
  line?: number;
  column?: number;
}

/** Directive blocks nested deeper than this are refused (each level is scanned once more). */
export const MAX_DIRECTIVE_DEPTH = 16;
export const MAX_NAME = 64;

export const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
export const isNameChar = (c: number) => isLetter(c) || (c >= 48 && c <= 57) || c === 45 || c === 95;
export const isSpace = (c: number) => c === 32 || c === 9;

/** The end of a name starting at i (i itself when there is none). */
export function nameEnd(s: string, i: number): number {
  if (!isLetter(s.charCodeAt(i))) return i;
  let j = i + 1;
  while (j < s.length && j - i < MAX_NAME && isNameChar(s.charCodeAt(j))) j++;
  return j;
}

/** `[label]` at i: brackets balance, `\` escapes one character. Returns the index after `]`, or -1. */
export function labelEnd(s: string, i: number, stopAtLine: boolean): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 92 /* \ */) { j++; continue; }
    if (c === 10 && stopAtLine) return -1;
    if (c === 91) depth++;
    else if (c === 93 && --depth === 0) return j + 1;
  }
  return -1;
}

/** Where attribute `name` is written in the list whose `{` is at `open` (a directive's, or an image's
 *  `{widths="…" priority}`): a name at the start of a token, text inside quotes being a value, never a name;
 *  else -1. One pass, to the list's `}`. */
export function attributeAt(s: string, open: number, name: string): number {
  let quote = '', start = true;
  for (let i = open + 1; i < s.length; i++) {
    const ch = s[i];
    if (quote) { if (ch === quote) { quote = ''; start = true; } continue; } // (a name may follow a value at once: {a="x"b="y"})
    if (ch === '}') break;
    if (ch === ' ' || ch === '\t') { start = true; continue; }
    if (ch === '"' || ch === "'") quote = ch;
    else if (start && s.startsWith(name, i) && '= \t}'.includes(s[i + name.length] ?? '}')) return i;
    start = false;
  }
  return -1;
}

/** `{…}` at i: the attributes, or what is wrong with them; `end` is the index after `}`. */
export function parseAttributes(s: string, i: number, stopAtLine: boolean): { attrs: Record<string, string | true>; end: number; error?: string } {
  const attrs: Record<string, string | true> = {};
  let j = i + 1;
  const fail = (error: string) => ({ attrs, end: j, error });
  for (;;) {
    while (j < s.length && (isSpace(s.charCodeAt(j)) || (!stopAtLine && (s.charCodeAt(j) === 10 || s.charCodeAt(j) === 13)))) j++;
    if (j >= s.length || s.charCodeAt(j) === 10) return fail('its attributes are not closed with "}"');
    if (s.charCodeAt(j) === 125 /* } */) return { attrs, end: j + 1 };
    const start = j;
    while (j < s.length && (isNameChar(s.charCodeAt(j)) || s.charCodeAt(j) === 58 || s.charCodeAt(j) === 46)) j++;
    if (j === start || !isLetter(s.charCodeAt(start))) {
      return fail(`"${s[start]}" cannot start an attribute: write key="value" pairs or bare flags`);
    }
    const key = s.slice(start, j);
    if (Object.hasOwn(attrs, key)) return fail(`attribute "${key}" is given twice`);
    if (key === 'children') return fail('"children" is not an attribute: it is what the directive encloses');
    if (s.charCodeAt(j) !== 61 /* = */) { attrs[key] = true; continue; }
    j++;
    const q = s.charCodeAt(j);
    if (q === 34 || q === 39) {
      const close = s.indexOf(q === 34 ? '"' : "'", j + 1);
      const nl = stopAtLine ? s.indexOf('\n', j + 1) : -1;
      if (close < 0 || (nl >= 0 && nl < close)) return fail(`the value of "${key}" has no closing quote`);
      attrs[key] = s.slice(j + 1, close);
      j = close + 1;
    } else {
      const v = j;
      while (j < s.length) {
        const c = s.charCodeAt(j);
        if (isSpace(c) || c === 10 || c === 13 || c === 125 || c === 34 || c === 39 || c === 61 || c === 60 || c === 62 || c === 96) break;
        j++;
      }
      if (j === v) return fail(`"${key}=" has no value`);
      attrs[key] = s.slice(v, j);
    }
  }
}

export const lineEnd = (s: string, i: number) => { const n = s.indexOf('\n', i); return n < 0 ? s.length : n; };
/** Up to three spaces of indentation. */
export function indentOf(s: string, i: number): number {
  let j = i;
  while (j - i < 3 && s.charCodeAt(j) === 32) j++;
  return j;
}
/** A run of colons at i: its length. */
export function colons(s: string, i: number): number {
  let j = i;
  while (s.charCodeAt(j) === 58) j++;
  return j - i;
}
export const blankFrom = (s: string, i: number, end: number) => { for (let j = i; j < end; j++) if (!isSpace(s.charCodeAt(j)) && s.charCodeAt(j) !== 13) return false; return true; };

/** A fenced code opening (``` or ~~~) at a line start: its character and length, or null. */
export function codeFence(s: string, i: number): { ch: number; len: number } | null {
  const j = indentOf(s, i);
  const ch = s.charCodeAt(j);
  if (ch !== 96 && ch !== 126) return null;
  let k = j;
  while (s.charCodeAt(k) === ch) k++;
  return k - j >= 3 ? { ch, len: k - j } : null;
}

export function errorToken(raw: string, head: string, error: string, kind: DirectiveKind = 'block'): DirectiveToken {
  return { type: 'directive', raw, kind, name: '', attrs: {}, tokens: [], head, error };
}

/** Whether only what opens a block line is before `i` on its line: indentation, quote markers, a list item's marker. */
export function atBlockStart(body: string, i: number): boolean {
  let k = body.lastIndexOf('\n', i - 1) + 1;
  const skip = () => { while (k < i && (body[k] === ' ' || body[k] === '\t' || body[k] === '>')) k++; };
  skip();
  if (k === i) return true;
  if (body[k] === '-' || body[k] === '*' || body[k] === '+') k++;
  else {
    const digits = k;
    while (k < i && body[k] >= '0' && body[k] <= '9') k++;
    if (k === digits || (body[k] !== '.' && body[k] !== ')')) return false;
    k++;
  }
  if (body[k] !== ' ' && body[k] !== '\t') return false;
  skip();
  return k === i;
}

/** Where a directive's first line `head` is in the body from `from`: for a block or leaf directive, the first
 *  place that starts a block line (so the ":::" of a paragraph's text is not a stray closer's place); -1 if none. */
export function findHead(body: string, head: string, from: number, block: boolean): number {
  let i = body.indexOf(head, from);
  if (!block) return i;
  const first = i;
  while (i >= 0 && !atBlockStart(body, i)) i = body.indexOf(head, i + 1);
  return i >= 0 ? i : first;
}
