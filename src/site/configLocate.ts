// configLocate: where a key path of the site's config (`collections.posts.draft`) is written in
// sitegen.config.ts, for a config error's file, line and column. The text is read as far as object literals go:
// each key is looked for among the entries of its parent's object (not deeper: a schema's own `draft:` field is
// not the collection's `draft`), through a variable the entry names (`{ posts }`, `posts: posts`, with
// `const posts = defineCollection({ … })`), a spread (`...base`), a call's object argument
// (`defineCollection<Post>({ … })`) and a list's n-th element. Strings, template literals, regular expressions
// and comments are stepped over. A path this reading cannot follow (the config made by a function, say) is
// looked for as text instead, each key after the one before. Each object is read once: linear.
import fs from 'node:fs';
import path from 'node:path';
import type { Location } from '../core/types.ts';
import { fileLocation, locationAt } from '../core/errors.ts';

const FILE = 'sitegen.config.ts';
const IDENT = /[A-Za-z0-9_$]/;
const SPACE = /\s/;

/** Where a key path is written in the config's text, else the deepest key of it found, else the file. */
export function locateKey(root: string, keys: PropertyKey[]): Location {
  let text = '';
  try { text = fs.readFileSync(path.join(root, FILE), 'utf8'); } catch { return fileLocation(FILE); }
  const read = structured(text, keys), searched = read.depth === keys.length ? read : bySearch(text, keys);
  const best = searched.depth > read.depth ? searched : read;
  return best.at < 0 ? fileLocation(FILE) : locationAt(FILE, text, best.at);
}

type Found = { at: number; depth: number };

function structured(text: string, keys: PropertyKey[]): Found {
  const call = /\bexport\s+default\s+defineConfig\s*\(/.exec(text) ?? /\bexport\s+default\b/.exec(text);
  let value: number | null = call ? call.index + call[0].length : null;
  let found: Found = { at: -1, depth: 0 };
  for (const [n, key] of keys.entries()) {
    if (value === null) break;
    const at = skipSpace(text, value);
    if (typeof key === 'number') { value = text[at] === '[' ? elementAt(text, at, key) : null; found = { ...found, depth: n + 1 }; continue; }
    const entry = entryIn(text, objectOf(text, at), String(key), 0);
    if (!entry) break;
    found = { at: entry.key, depth: n + 1 };
    value = entry.value;
  }
  return found;
}

/** The path as text: each key (`key:`) after the one before, from the default export on (else the file's start). */
function bySearch(text: string, keys: PropertyKey[]): Found {
  let from = Math.max(0, text.search(/\bexport\s+default\b/)), found: Found = { at: -1, depth: 0 };
  for (const [n, key] of keys.entries()) {
    if (typeof key !== 'string') continue;
    const name = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`(^|[\\s{,])['"]?${name}['"]?\\s*:`, 'mg');
    re.lastIndex = from;
    const m = re.exec(text);
    if (!m) break;
    from = m.index + m[1]!.length;
    found = { at: from, depth: n + 1 };
  }
  return found;
}

const skipSpace = (text: string, i: number): number => {
  for (;;) {
    while (i < text.length && SPACE.test(text[i]!)) i++;
    if (text.startsWith('//', i)) { const e = text.indexOf('\n', i); i = e < 0 ? text.length : e + 1; continue; }
    if (text.startsWith('/*', i)) { const e = text.indexOf('*/', i + 2); i = e < 0 ? text.length : e + 2; continue; }
    return i;
  }
};

/** The last character before `i` that is not white space. */
const before = (text: string, i: number): string => { let k = i - 1; while (k >= 0 && SPACE.test(text[k]!)) k--; return k < 0 ? '' : text[k]!; };

/** Past a string, template literal (its `${…}` parts read as code), regular expression or comment that starts
 *  at `i`; else `i` itself. */
function pastQuoted(text: string, i: number, nest = 0): number {
  const c = text[i];
  if (c === '"' || c === "'") { let k = i + 1; for (; k < text.length && text[k] !== c && text[k] !== '\n'; k++) if (text[k] === '\\') k++; return k + 1; }
  if (c === '`') {
    let k = i + 1;
    while (k < text.length && text[k] !== '`') {
      if (text[k] === '\\') k += 2;
      else if (text.startsWith('${', k)) k = nest > 16 ? text.length : pastCode(text, k + 2, '}', nest + 1); // (nesting bounded: no deep recursion)
      else k++;
    }
    return k + 1;
  }
  if (c !== '/') return i;
  if (text[i + 1] === '/' || text[i + 1] === '*') return skipSpace(text, i);
  // A regular expression where a value starts (after an operator or an opening), not a division.
  if (!/^$|[(,=:[!&|?{};+\-*%<>~^]/.test(before(text, i))) return i;
  let k = i + 1, inClass = false;
  for (; k < text.length && text[k] !== '\n'; k++) {
    if (text[k] === '\\') { k++; continue; }
    if (text[k] === '[') inClass = true; else if (text[k] === ']') inClass = false; else if (text[k] === '/' && !inClass) return k + 1;
  }
  return i + 1;
}

/** Past code from `i` to the `close` that ends it at its own depth. */
function pastCode(text: string, i: number, close: string, nest: number): number {
  let depth = 0;
  while (i < text.length) {
    const past = pastQuoted(text, i, nest);
    if (past !== i) { i = past; continue; }
    const c = text[i]!;
    if (depth === 0 && c === close) return i + 1;
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
    i++;
  }
  return i;
}

/** Past a call's type arguments (`<Post>`) at `i`, else `i`. */
function pastTypeArgs(text: string, i: number): number {
  if (text[i] !== '<') return i;
  let depth = 0;
  for (let k = i; k < text.length && k < i + 2000; k++) { if (text[k] === '<') depth++; else if (text[k] === '>' && --depth === 0) return k + 1; }
  return i;
}

/** The `{` of the object a value at `i` is: an object literal, the object argument of a call, or the object a
 *  variable named there is declared as (`as …` and `satisfies …` after it aside); null when it is none of them. */
function objectOf(text: string, i: number, hops = 0): number | null {
  if (text[i] === '{') return i;
  if (text[i] === '(') { const inner = skipSpace(text, i + 1); return text[inner] === '{' ? inner : null; }
  const ident = /^[A-Za-z_$][\w$.]*/.exec(text.slice(i, i + 200))?.[0];
  if (!ident) return null;
  const after = skipSpace(text, pastTypeArgs(text, skipSpace(text, i + ident.length)));
  if (text[after] === '(') { const arg = skipSpace(text, after + 1); return text[arg] === '{' ? arg : null; }
  if (hops > 4 || ident.includes('.')) return null;
  const value = declared(text, ident);
  return value === null ? null : objectOf(text, value, hops + 1);
}

/** Where the value a `const`, `let` or `var` declaration of `ident` gives it starts: past its type, at the first
 *  "=" of the declaration's own depth (not an arrow's). One scan from the declaration. */
function declared(text: string, ident: string): number | null {
  const decl = new RegExp(`\\b(?:const|let|var)\\s+${ident.replace(/\$/g, '\\$')}\\b`).exec(text);
  if (!decl) return null;
  let depth = 0;
  for (let i = decl.index + decl[0].length; i < text.length;) {
    const past = pastQuoted(text, i);
    if (past !== i) { i = past; continue; }
    const c = text[i]!;
    if (c === '{' || c === '[' || c === '(' || c === '<') depth++;
    else if (c === '}' || c === ']' || c === ')' || (c === '>' && text[i - 1] !== '=')) depth--;
    else if (depth <= 0 && (c === ';' || c === ',')) return null;
    else if (depth === 0 && c === '=' && text[i + 1] !== '>' && text[i + 1] !== '=') return skipSpace(text, i + 1);
    i++;
  }
  return null;
}

/** The entry `name` among the top-level entries of the object whose `{` is at `open`, or of an object one of
 *  its spreads (`...base`) names: where its key is written and where its value starts (a shorthand's value is
 *  the variable of that name). */
function entryIn(text: string, open: number | null, name: string, hops: number, seen = new Set<number>()): { key: number; value: number } | null {
  if (open === null || seen.has(open)) return null;
  seen.add(open); // (each object read once, whatever spreads lead to it)
  const spreads: number[] = [];
  let depth = 0, start = true;
  for (let i = open + 1; i < text.length;) {
    const past = pastQuoted(text, i);
    if (depth === 0 && start && past !== i && (text[i] === '"' || text[i] === "'")) {
      const colon = skipSpace(text, past);
      if (text[colon] === ':' && text.slice(i + 1, past - 1) === name) return { key: i, value: skipSpace(text, colon + 1) };
    }
    if (past !== i) { if (text[i] !== '/' || !(text[i + 1] === '/' || text[i + 1] === '*')) start = false; i = past; continue; } // (a comment leaves an entry's start as it was)
    const c = text[i]!;
    if (depth === 0 && start && text.startsWith('...', i)) { spreads.push(skipSpace(text, i + 3)); start = false; i += 3; continue; }
    if (depth === 0 && start && IDENT.test(c)) {
      let e = i; while (e < text.length && IDENT.test(text[e]!)) e++;
      const after = skipSpace(text, e);
      if (text.slice(i, e) === name) {
        if (text[after] === ':') return { key: i, value: skipSpace(text, after + 1) };
        if (text[after] === ',' || text[after] === '}') return { key: i, value: i }; // (shorthand: the variable)
      }
      i = e; start = false; continue;
    }
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') { if (depth === 0) break; depth--; }
    else if (c === ',' && depth === 0) { start = true; i++; continue; }
    if (!SPACE.test(c)) start = false;
    i++;
  }
  // (the last spreads first, as the last one written wins; a few of them, each read once: linear)
  if (hops > 4) return null;
  for (const s of spreads.slice(-4).reverse()) { const e = entryIn(text, objectOf(text, s), name, hops + 1, seen); if (e) return e; }
  return null;
}

/** Where the n-th element of the list whose `[` is at `open` starts, or null. */
function elementAt(text: string, open: number, n: number): number | null {
  let depth = 0, index = 0;
  for (let i = open + 1; i < text.length;) {
    const past = pastQuoted(text, i);
    if (past !== i) { if (depth === 0 && index === n) return i; i = past; continue; }
    const c = text[i]!;
    if (depth === 0 && index === n && !/[\s,\]]/.test(c)) return i;
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') { if (depth === 0) return null; depth--; }
    else if (c === ',' && depth === 0) index++;
    i++;
  }
  return null;
}
