// Parses YAML keeping the document, so any field path can be turned back into a line and column.
import { LineCounter, parseDocument, isMap, isSeq, isScalar, visit, type Document, type Node } from 'yaml';
import type { Location } from '../core/types.ts';
export { formatPath } from './fieldPath.ts';

export interface YamlSource {
  /** The location of a field (the source's own functions, so validation needs no import of the parser). */
  locate(path: readonly PropertyKey[]): Location;
  locateKey(path: readonly PropertyKey[], key: string): Location;
  doc: Document;
  counter: LineCounter;
  text: string;
  /** Lines before this text in its file (front matter starts after the opening `---`). */
  lineOffset: number;
  file: string;
}

export interface YamlSyntaxProblem {
  line: number;
  column: number;
  message: string;
}

/** A block list item's line: its indentation, then `-` and a space or the end (anchored: linear). */
const LIST_ITEM = /^([ \t]*)-(?:[ \t]|$)/;
/** A line that was meant as a list item but has no space after its "-" (`-typescript`; not `---` or `-1`). */
const DASH_NO_SPACE = /^([ \t]*)-([^\s\d.-][^\n]{0,40})/;

export function parseYamlSource(text: string, file: string, lineOffset = 0): { source: YamlSource; problems: YamlSyntaxProblem[] } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  let openings: ((end: number) => number | null) | undefined;
  const quotedLines = new Set<number>(), itemLines = new Set<number>();
  // After a problem that throws the parser off the structure (a list item's key out of line, a bracket or quote
  // never closed), its "implicit key" complaints about the lines that follow are consequences: not said.
  let said = 0, derailed = false;
  const lineAt = (n: number) => text.split('\n', n)[n - 1] ?? '';
  const problems = doc.errors.map((e) => {
    const pos = e.linePos?.[0] ?? counter.linePos(e.pos[0]);
    if (itemLines.has(pos.line)) return null; // (its line's mistake is said already)
    // A list item whose "-" is not lined up with the item above it: YAML then reads it as a key, and said
    // three things about it at once, one of them the advice to add a ":". Said once, as what it is.
    // (YAML may put it at a blank line before the item)
    let at = pos.line;
    while (said === 0 && at < pos.line + 50 && !lineAt(at).trim() && at <= counter.lineStarts.length) at++;
    const item = e.code === 'BLOCK_AS_IMPLICIT_KEY' ? LIST_ITEM.exec(lineAt(at)) : null;
    if (item && said === 0) {
      let k = at - 1;
      while (k > 0 && k > at - 50 && !lineAt(k).trim()) k--; // (a few blank lines at most: each look reads from the top)
      const above = LIST_ITEM.exec(lineAt(k));
      // (an item back in a list that encloses the one above, lined up with that list's items, is another mistake)
      const columns = new Set<number>();
      for (let j = k; j > 0 && j > k - 50; j--) { const m = LIST_ITEM.exec(lineAt(j)); if (m) columns.add(m[1].length); }
      if (above && above[1].length !== item[1].length && !columns.has(item[1].length)) {
        itemLines.add(pos.line).add(at);
        derailed = true;
        said++;
        return { line: at + lineOffset, column: item[1].length + 1, message: `This list item's "-" is at column ${item[1].length + 1}, but the item above it (line ${k + lineOffset}) has its "-" at column ${above[1].length + 1}: line them up` };
      }
    }
    // `-typescript` below `- react`: a dash with no space after it is text, which YAML finds out of place.
    const dash = said === 0 ? DASH_NO_SPACE.exec(lineAt(pos.line)) : null;
    if (dash && LIST_ITEM.test(lineAt(pos.line - 1))) {
      itemLines.add(pos.line);
      derailed = true;
      said++;
      return { line: pos.line + lineOffset, column: dash[1].length + 1, message: `This line is text, not a list item: a list item has a space after its "-" (- ${dash[2].trimEnd()})` };
    }
    const implicit = e.code === 'BLOCK_AS_IMPLICIT_KEY' || e.code === 'MULTILINE_IMPLICIT_KEY';
    if (derailed && implicit) return null;
    if (!implicit) derailed = true;
    said++;
    // A key of a list item not lined up with the item's first key (the one after "- "): said at the key.
    if (e.code === 'MISSING_CHAR' && e.message.startsWith('Sequence item without')) {
      const first = /^([ \t]*-[ \t]+)([\w-]{1,64}):/.exec(lineAt(pos.line - 1)), here = /^([ \t]*)([\w-]{1,64}):/.exec(lineAt(pos.line));
      if (first && here) return { line: pos.line + lineOffset, column: here[1].length + 1, message: `${here[2]}: starts at column ${here[1].length + 1}, but the keys of this list item start at column ${first[1].length + 1}, where ${first[2]}: is: line it up with ${first[2]}:` };
    }
    // `description Track spending`: a line with no ":" after its key.
    if (e.code === 'MULTILINE_IMPLICIT_KEY') {
      const line = lineAt(pos.line), bare = /^([ \t]*)([\w-]{1,64})[ \t]+(\S.{0,40})/.exec(line);
      if (bare && !line.includes(':')) return { line: pos.line + lineOffset, column: bare[1].length + 1, message: `This line has no ":" after its key: write it as key: value (${bare[2]}: ${bare[3]}${line.length > bare[0].length ? '…' : ''})` };
    }
    // A quote never closed takes the rest of the text in: the parser stops at its end, far from the cause.
    // Located at the opening quote instead, saying where the text it swallowed ends.
    const opened = e.code === 'MISSING_CHAR' && /quote/.test(e.message) ? (openings ??= quoteOpenings(doc))(e.pos[0]) : null;
    if (opened !== null) {
      const at = counter.linePos(opened);
      return { line: at.line + lineOffset, column: at.col, message: `${firstLine(e.message)}: this quoted text never ends (it runs to line ${pos.line + lineOffset})` };
    }
    // A [ or { never closed is found where the next line does not belong to it: located at the bracket.
    const flow = /^Flow (sequence|map)\b/.exec(e.message) ? unclosedFlow(doc, e.pos[0]) : null;
    if (flow !== null) {
      const at = counter.linePos(flow);
      const what = text[flow] === '[' ? 'The list that starts with this [ never ends with a ]' : 'The map that starts with this { never ends with a }';
      return { line: at.line + lineOffset, column: at.col, message: `${what}${pos.line > at.line ? ` (YAML looked for it up to line ${pos.line + lineOffset})` : ''}` };
    }
    // `title: Part one: the start` — a ": " in a plain value reads as a second key.
    if (quotedLines.has(pos.line)) return null; // (`a: b: c: d` is one mistake: said once, for the whole value)
    if (implicit) {
      const start = e.pos[0] - pos.col + 1;
      const rest = text.slice(start).split('\n', 2);
      // (not for a value that goes on over the next line, or one behind an anchor or a tag)
      const goesOn = rest.length > 1 && /^[ \t]+\S/.test(rest[1]!) && /^[ \t]*/.exec(rest[1]!)![0].length > /^[ \t-]*/.exec(rest[0]!)![0].length;
      // `title: A post` then `  description: …` indented under it: a key indented by mistake, read as more of
      // the value above. Said once, at the indented line.
      const key = goesOn ? /^([ \t]*)([\w-]{1,64}):[ \t]+\S/.exec(rest[0]!) : null;
      const under = key ? /^([ \t]+)([\w-]{1,64}):(?:[ \t]|$)/.exec(rest[1]!) : null;
      if (key && under && said === 1) {
        quotedLines.add(pos.line);
        return { line: pos.line + 1 + lineOffset, column: under[1].length + 1, message: `This line is indented under ${key[2]}, which already has a value on its line, so YAML reads it as more of that value: start ${under[2]}: where ${key[2]}: starts${key[1] ? '' : ' (at the start of the line)'}` };
      }
      const quoted = e.code === 'BLOCK_AS_IMPLICIT_KEY' && !goesOn ? quoteValue(rest[0]!, pos.col - 1) : null;
      if (quoted) { quotedLines.add(pos.line); return { line: pos.line + lineOffset, column: pos.col, message: `This value has ": " in it, which YAML reads as the start of another key: put the value in quotes (${quoted})` }; }
    }
    return { line: pos.line + lineOffset, column: pos.col, message: firstLine(e.message) };
  }).filter((p): p is YamlSyntaxProblem => p !== null);
  const source: YamlSource = {
    doc, counter, text, lineOffset, file,
    locate: (path) => locate(source, path),
    locateKey: (path, key) => locateKey(source, path, key),
  };
  return { source, problems };
}

/**
 * The same source for a text that parsed without a problem (yamlFast.ts), positioned only when first asked
 * for a location or its document: a file that passes its schema never pays for positions.
 */
export function lazyYamlSource(text: string, file: string, lineOffset = 0): YamlSource {
  let made: YamlSource | null = null;
  const real = () => (made ??= parseYamlSource(text, file, lineOffset).source);
  return {
    text, lineOffset, file,
    get doc() { return real().doc; },
    get counter() { return real().counter; },
    locate: (path) => real().locate(path),
    locateKey: (path, key) => real().locateKey(path, key),
  };
}

/**
 * For a missing closing quote's position `end`: where the quoted scalar that runs to it opens (the first one
 * that reaches it), or null. The document is walked once, however many quotes are missing; each answer is a
 * binary search over the quoted scalars by their ends, with the smallest start from each end on.
 */
function quoteOpenings(doc: Document): (end: number) => number | null {
  const quoted: [number, number][] = [];
  visit(doc, { Scalar(_, node) { if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && node.range) quoted.push([node.range[0], node.range[1]]); } });
  quoted.sort((a, b) => a[1] - b[1]);
  const firstFrom = quoted.map(([start]) => start);
  for (let i = firstFrom.length - 2; i >= 0; i--) firstFrom[i] = Math.min(firstFrom[i]!, firstFrom[i + 1]!);
  return (end) => {
    let lo = 0, hi = quoted.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (quoted[mid]![1] >= end) hi = mid; else lo = mid + 1; }
    return lo < quoted.length ? firstFrom[lo]! : null;
  };
}

/** Where the flow collection ([…] or {…}) that the parser ended at `end` without its closing bracket opens, or null. */
function unclosedFlow(doc: Document, end: number): number | null {
  let found: number | null = null;
  const flow = (_: unknown, node: { flow?: boolean; range?: [number, number, number] | null }) => {
    if (node.flow && node.range && node.range[1] === end && (found === null || node.range[0] < found)) found = node.range[0];
  };
  visit(doc, { Seq: flow, Map: flow });
  return found;
}

/** The line with its value from `col` (0-based) on in quotes, a comment after it left out; null when the
 *  value holds no ": " (or the line is too long to show). */
function quoteValue(line: string, col: number): string | null {
  if (line.length > 200) return null;
  const rest = line.slice(col);
  const hash = rest.indexOf(' #');
  const value = (hash < 0 ? rest : rest.slice(0, hash)).trimEnd();
  if (!value.includes(': ') || value.startsWith('&') || value.startsWith('!')) return null;
  const q = value.includes('"') && !value.includes("'") ? `'${value}'` : JSON.stringify(value);
  return `${line.slice(0, col)}${q}`;
}

function firstLine(s: string): string {
  return s.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

function lineText(src: YamlSource, line: number): string {
  return src.text.split('\n')[line - 1 - src.lineOffset]?.replace(/\r$/, '') ?? '';
}

function at(src: YamlSource, offset: number): Location {
  const { line, col } = src.counter.linePos(offset);
  const l = line + src.lineOffset;
  return { file: src.file, line: l, column: col, lineText: lineText(src, l) };
}

/**
 * The location of a field path: the value itself for a scalar, the key for a map or list
 * (so "skills: must have 4 items" points at `skills:`), or the nearest existing parent when the
 * field is missing (so a missing `skills[3].description` points at the item `skills[3]`).
 */
export function locate(src: YamlSource, path: readonly PropertyKey[]): Location {
  let node: Node | null = src.doc.contents as Node | null;
  let keyNode: Node | null = null;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === seg);
      if (!pair) break;
      keyNode = pair.key as Node;
      node = pair.value as Node | null;
      if (!node) { node = keyNode; break; }
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg]) {
      keyNode = null;
      node = node.items[seg] as Node;
    } else break;
  }
  const target = node && !isScalar(node) && keyNode ? keyNode : node ?? keyNode;
  if (!target?.range) return { file: src.file, line: 1 + src.lineOffset, column: 1, lineText: lineText(src, 1 + src.lineOffset) };
  return at(src, target.range[0]);
}

/** Location of a key inside the map at `path` (for "unknown field" errors). */
export function locateKey(src: YamlSource, path: readonly PropertyKey[], key: string): Location {
  let node: Node | null = src.doc.contents as Node | null;
  for (const seg of path) {
    if (isMap(node)) node = (node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === seg)?.value as Node) ?? null;
    else if (isSeq(node) && typeof seg === 'number') node = (node.items[seg] as Node) ?? null;
    else node = null;
  }
  if (isMap(node)) {
    const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
    const k = pair?.key as Node | undefined;
    if (k?.range) return at(src, k.range[0]);
  }
  return locate(src, path);
}

/** `skills[3].description` */
