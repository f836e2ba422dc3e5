// configLocate: where a key path of the site's config (`collections.posts.draft`) is written in
// sitegen.config.ts, for a config error's file, line and column. The text is read as far as object literals go:
// each key is looked for among the entries of its parent's object (not deeper: a schema's own `draft:` field is
// not the collection's `draft`), through a variable the entry names (`{ posts }`, `posts: posts`, with
// `const posts = defineCollection({ … })`), a call's object argument (`defineCollection({ … })`) and a list's
// n-th element. Strings, template literals and comments are stepped over. One pass per object: linear.
import fs from 'node:fs';
import path from 'node:path';
import type { Location } from '../core/types.ts';
import { fileLocation, locationAt } from '../core/errors.ts';

const FILE = 'sitegen.config.ts';
const IDENT = /[A-Za-z0-9_$]/;

/** Where a key path is written in the config's text, else the deepest key of it found, else the file. */
export function locateKey(root: string, keys: PropertyKey[]): Location {
  let text = '';
  try { text = fs.readFileSync(path.join(root, FILE), 'utf8'); } catch { return fileLocation(FILE); }
  const call = text.indexOf('defineConfig(');
  let value: number | null = call >= 0 ? call + 'defineConfig('.length : text.indexOf('export default') >= 0 ? text.indexOf('export default') + 'export default'.length : null;
  let found = -1;
  for (const key of keys) {
    if (value === null) break;
    const at = skipSpace(text, value);
    if (typeof key === 'number') { value = text[at] === '[' ? elementAt(text, at, key) : null; continue; }
    const object = objectOf(text, at);
    const entry = object === null ? null : entryOf(text, object, String(key));
    if (!entry) break;
    found = entry.key;
    value = entry.value;
  }
  return found < 0 ? fileLocation(FILE) : locationAt(FILE, text, found);
}

const skipSpace = (text: string, i: number): number => {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('//', i)) { const e = text.indexOf('\n', i); i = e < 0 ? text.length : e + 1; continue; }
    if (text.startsWith('/*', i)) { const e = text.indexOf('*/', i + 2); i = e < 0 ? text.length : e + 2; continue; }
    return i;
  }
};

/** Past a string, template literal or comment that starts at `i` (else `i` itself). */
function pastQuoted(text: string, i: number): number {
  const c = text[i];
  if (c === '"' || c === "'" || c === '`') { let k = i + 1; for (; k < text.length && text[k] !== c; k++) if (text[k] === '\\') k++; return k + 1; }
  if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) return skipSpace(text, i);
  return i;
}

/** The `{` of the object a value at `i` is: an object literal, the object argument of a call
 *  (`defineCollection({`), or the object a variable named there is declared as. */
function objectOf(text: string, i: number, depth = 0): number | null {
  if (text[i] === '{') return i;
  const ident = /^[A-Za-z_$][\w$.]*/.exec(text.slice(i, i + 200))?.[0];
  if (!ident) return null;
  const after = skipSpace(text, i + ident.length);
  if (text[after] === '(') { const arg = skipSpace(text, after + 1); return text[arg] === '{' ? arg : null; }
  if (depth > 4 || ident.includes('.')) return null;
  const decl = new RegExp(`\\b(?:const|let|var)\\s+${ident.replace(/\$/g, '\\$')}\\s*(?::[^=;]*)?=`).exec(text);
  return decl ? objectOf(text, skipSpace(text, decl.index + decl[0].length), depth + 1) : null;
}

/** The entry `name` among the top-level entries of the object whose `{` is at `open`: where its key is
 *  written and where its value starts (a shorthand's value is the variable of that name). */
function entryOf(text: string, open: number, name: string): { key: number; value: number } | null {
  let depth = 0, start = true;
  for (let i = open + 1; i < text.length;) {
    const past = pastQuoted(text, i);
    if (depth === 0 && start && past !== i && (text[i] === '"' || text[i] === "'")) {
      // A quoted key ('script-src': …)
      const colon = skipSpace(text, past);
      if (text[colon] === ':' && text.slice(i + 1, past - 1) === name) return { key: i, value: skipSpace(text, colon + 1) };
    }
    if (past !== i) { if (text[i] !== '/') start = false; i = past; continue; } // (a comment leaves an entry's start as it was)
    const c = text[i]!;
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
    else if (c === '}' || c === ']' || c === ')') { if (depth === 0) return null; depth--; }
    else if (c === ',' && depth === 0) { start = true; i++; continue; }
    if (!/\s/.test(c)) start = false;
    i++;
  }
  return null;
}

/** Where the n-th element of the list whose `[` is at `open` starts, or null. */
function elementAt(text: string, open: number, n: number): number | null {
  let depth = 0, index = 0;
  for (let i = open + 1; i < text.length;) {
    const past = pastQuoted(text, i);
    if (past !== i) { i = past; continue; }
    const c = text[i]!;
    if (depth === 0 && index === n && !/[\s,\]]/.test(c)) return i;
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') { if (depth === 0) return null; depth--; }
    else if (c === ',' && depth === 0) index++;
    i++;
  }
  return null;
}
