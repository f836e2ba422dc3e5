// The catalogue of errors a user can cause, and how messages are made and printed.
// Every user error is a Message value with a location; only bugs in sitegen carry a stack.
import { fileURLToPath } from 'node:url';
import { SourceMap } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import type { Location, Message } from './types.ts';
import { PACKAGE_DIR, SERVER_OUTDIR } from '../site/paths.ts';

// The engine's own folders (sources, the packaged CLI, the launcher): frames there are never the site's,
// even when the site is the package's own folder (this repository's marketing site).
const ENGINE = ['src', 'lib', 'bin', 'cli'].map((d) => path.join(PACKAGE_DIR, d) + path.sep);

export { catalogue, type ErrorId } from './catalogue.ts';
import { catalogue, type ErrorId } from './catalogue.ts';

export function message(id: ErrorId, text: string, location: Location | null = null, extra: Partial<Message> = {}): Message {
  return { id, text, location, notes: [], hint: catalogue[id].hint, ...extra };
}

export function fileLocation(file: string, line = 0, column = 0, lineText = ''): Location {
  return { file, line, column, lineText };
}

/** The place of `text[index]` in `file`: its line and column (1-based) and that line's text, without its CR. */
export function locationAt(file: string, text: string, index: number): Location {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  let line = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < start; k = text.indexOf('\n', k + 1)) line++;
  return fileLocation(file, line, index - start + 1, text.slice(start, end < 0 ? undefined : end).replace(/\r$/, ''));
}

/**
 * Where the plugin named `name` is written in sitegen.config.ts (its `name: '…'`, in any quotes), or, with `key`,
 * where `key:` is written after it in that plugin; null when the file has neither (a plugin from another file).
 */
export function pluginAt(root: string, name: string, key?: string): Location | null {
  const file = 'sitegen.config.ts';
  let text: string;
  try { text = fs.readFileSync(path.join(root, file), 'utf8'); } catch { return null; }
  const at = ["'", '"', '`'].map((q) => text.indexOf(`name: ${q}${name}${q}`)).find((i) => i >= 0);
  if (at === undefined) return null;
  if (key === undefined) return locationAt(file, text, at);
  if (!/^[\w$]{1,64}$/.test(key)) return null;
  const k = text.slice(at, at + 2000).search(new RegExp(`[\\s{,]${key.replace(/\$/g, '\\$')}\\s*:`));
  return k < 0 ? null : locationAt(file, text, at + k + 1);
}

/** `content/a.yaml:12:5 skills[3].description: Required` — the one-line form used everywhere. */
export function formatMessage(m: Message): string {
  let where = '';
  if (m.location) {
    where = m.location.file;
    if (m.location.line > 0) where += `:${m.location.line}:${m.location.column}`;
  }
  return [where, messageText(m)].filter(Boolean).join(' ');
}

/** The message without its place: the field first (`skills[3].description: Required`). */
export const messageText = (m: Message): string => `${m.field ? `${m.field}: ` : ''}${m.text}`;

/** A note of the message, with its own place when it has one. */
export const noteText = (m: Message, note: Message['notes'][number]): string =>
  note.location ? formatMessage({ ...m, text: note.text, location: note.location, field: undefined }) : note.text;

/** The source line of the message's place and a caret under its column (`12 | text` / `   |    ^`), or [] when
 *  it has none. `wide`: a longer line is shown from `lead` characters before the caret, after "…". */
export function codeFrame(m: Message, window?: { wide: number; lead: number }): string[] {
  const l = m.location;
  if (!l || l.line <= 0 || !l.lineText) return [];
  let text = l.lineText, before = Math.max(0, l.column - 1);
  if (window && text.length > window.wide && before > window.lead) { text = `…${text.slice(before - window.lead)}`; before = window.lead + 1; }
  const n = String(l.line);
  // (the line's control characters shown escaped, and the caret counted over what is shown: visibleControls)
  const lead = visibleControls(text.slice(0, before));
  return [`${n} | ${visibleControls(text)}`, `${' '.repeat(n.length)} | ${caretLead(lead, lead.length)}^`];
}

/** What goes under the `before` characters of `text` before the caret: a tab where the line has one (a
 *  terminal moves both to the same stop), else a space. */
function caretLead(text: string, before: number): string {
  let lead = '';
  for (let i = 0; i < before; i++) lead += text.charCodeAt(i) === 9 ? '\t' : ' ';
  return lead;
}

// C0 and C1 controls, DEL and the bidirectional controls, which a terminal acts on (moves the cursor, clears the
// screen, sets the title, reorders a line) when a file's text reaches it in a message or a code frame: shown
// escaped, as the file has them. Newline and tab stay.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** `s` with every control character but newline and tab written as an escape (`\x1b`, `\u202e`). */
export const visibleControls = (s: string): string =>
  s.replace(CONTROL, (c) => { const n = c.charCodeAt(0); return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`; });

/** The one-line form plus a code frame and notes, for terminals and the dev overlay. */
export function formatMessageLong(m: Message): string {
  return [formatMessage(m), ...codeFrame(m).map((l) => `  ${l}`), ...m.notes.map((note) => `  note: ${noteText(m, note)}`)].join('\n');
}

/** The text of a page's render failure (render/page.ts; the message also carries both parts as `render`). */
export function renderFailedText(page: string, thrown: string): string {
  return `rendering ${page} failed: ${thrown}`;
}

/** How many pages of a group a note names. */
const NAMED_PAGES = 3;
/** A quoted part of a thrown message (a key, a value): linear, each quote's run read once. */
const QUOTED = /'[^'\n]*'|"[^"\n]*"/g;

/**
 * One template bug shows on every page it renders: render failures with the same error at the same
 * place become one message, on the first page, "and N more pages", with a note naming a few of them.
 * The same error is the same text but for what it quotes (`reading 'react'`, `reading 'svelte'`: one
 * lookup of a missing key, with each page's own). Different errors, or one at different places, stay apart.
 */
export function groupRepeats(list: Message[]): Message[] {
  const groups = new Map<string, { first: Message; page: string; thrown: string; pages: string[]; others: boolean }>();
  const out: (Message | string)[] = [];
  for (const m of list) {
    const failure = m.render;
    if (!failure) { out.push(m); continue; }
    const l = m.location;
    const key = JSON.stringify([m.id, l?.file, l?.line, l?.column, failure.thrown.replace(QUOTED, "''")]);
    const group = groups.get(key);
    if (group) { group.pages.push(failure.page); group.others ||= failure.thrown !== group.thrown; continue; }
    groups.set(key, { first: m, page: failure.page, thrown: failure.thrown, pages: [], others: false });
    out.push(key);
  }
  return out.map((entry) => {
    if (typeof entry !== 'string') return entry;
    const { first, page, thrown, pages, others } = groups.get(entry)!;
    if (!pages.length) return first;
    const more = pages.length === 1 ? '1 more page' : `${pages.length} more pages`;
    const named = pages.slice(0, NAMED_PAGES).join(', ');
    const rest = pages.length - NAMED_PAGES;
    return {
      ...first,
      text: `${renderFailedText(page, thrown)} (and ${more})`,
      notes: [{ text: `also on ${named}${rest > 0 ? ` and ${rest} more` : ''}${others ? ', where it quotes other values' : ''}`, location: null }, ...first.notes],
    };
  });
}

/** The messages by file, line and column, with repeated render failures grouped (groupRepeats). */
export function sortMessages(list: Message[]): Message[] {
  return groupRepeats(list).sort((a, b) => {
    const fa = a.location?.file ?? '', fb = b.location?.file ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    return (a.location?.line ?? 0) - (b.location?.line ?? 0) || (a.location?.column ?? 0) - (b.location?.column ?? 0);
  });
}

/** Maps a position in the compiled site module back to its source, from its inline or linked map. */
const maps = new Map<string, SourceMap | null>();
function inlineMap(file: string): SourceMap | null {
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    try {
      // The module's last line names its map: a file beside it (or inline). Only a comment at the start
      // of a line counts.
      const text = fs.readFileSync(file, 'utf8');
      const url = text.slice(text.lastIndexOf('\n//# sourceMappingURL=') + 1).match(/^\/\/# sourceMappingURL=(\S+)/)?.[1] ?? '';
      const inline = 'data:application/json;base64,';
      if (url.startsWith(inline)) map = new SourceMap(JSON.parse(Buffer.from(url.slice(inline.length), 'base64').toString('utf8')));
      else if (url) map = new SourceMap(JSON.parse(fs.readFileSync(path.resolve(path.dirname(file), url), 'utf8')));
    } catch { /* no usable map */ }
    maps.set(file, map);
  }
  return maps.get(file)!;
}

function original(file: string, line: number, column: number): { file: string; line: number; column: number } {
  // Only compiled site modules are mapped here (the engine's own frames are never the site's).
  const map = file.startsWith(SERVER_OUTDIR + path.sep) ? inlineMap(file) : null;
  const entry = map?.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
  if (!entry?.originalSource) return { file, line, column };
  const src = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : path.resolve(path.dirname(file), entry.originalSource);
  return { file: src, line: (entry.originalLine ?? 0) + 1, column: (entry.originalColumn ?? 0) + 1 };
}

/**
 * The one place a throw from the site's own code (the config or a template module while it loads, or
 * routes()) becomes a user error: located at the first frame in the site's files, else at `fallback`.
 * build, check and dev all go through it, so the same mistake reads the same in every command.
 */
export function thrownBySite(e: unknown, root: string, what: string, fallback = 'sitegen.config.ts'): Message {
  const text = (e as Error)?.message ?? String(e);
  const hint = readOnlyHint(e);
  return message('ConfigError', `${what}: ${text}`, siteFrame(e, root) ?? fileLocation(fallback), hint ? { hint } : {});
}

// What V8 says of a write to a frozen object, in strict code (a module): assigned, added, deleted, defined.
const FROZEN_WRITE = /^Cannot (?:assign to read only property|add property|delete property|set property|redefine property|define property)\b/;

/** The hint for a throw that is a write to a frozen object — most likely an entry of the content, which is
 *  read-only where the site's code reads it (content/readOnly.ts) — else undefined. */
export function readOnlyHint(e: unknown): string | undefined {
  // (by name: the site module may run in a context of its own, with its own TypeError)
  if ((e as Error)?.name !== 'TypeError' || typeof (e as Error).message !== 'string' || !FROZEN_WRITE.test((e as Error).message)) return undefined;
  return 'Entries of content/ are read-only for routes(), templates, plugins and validate (each entry, its data, and its lists), and React freezes a component\'s props in sitegen dev: change a copy instead, e.g. { ...entry.data, title: "New" } or [...entry.data.tags].sort(). A collection\'s own list may be sorted in place.';
}

// "x is not defined": a name (letters, digits, _ and $) and the fixed words, anchored: linear.
export const NOT_DEFINED = /^([A-Za-z_$][\w$]*) is not defined$/;

/** The hint of a template's ReferenceError ("href is not defined"): most often an import left out. */
export function undefinedNameHint(e: unknown): string | undefined {
  const m = (e as Error)?.name === 'ReferenceError' && typeof (e as Error).message === 'string' ? NOT_DEFINED.exec((e as Error).message) : null;
  if (!m) return undefined;
  return `\`${m[1]}\` is used but never imported or declared in the file at the location: import it (sitegen's helpers, such as href, paginate or image, from 'sitegen-islands'; a component from the file that exports it) or declare it.`;
}

const FRAME_END = /:(\d+):(\d+)\)?$/;

/**
 * The file, line and column at the end of a stack line ("at f (file:///a/b.js:1:2)", "at /a/b.js:1:2") as
 * `/\(?(?:file:\/\/)?(\/[^():]+):(\d+):(\d+)\)?$/` reads them, without that expression's cost: tried from
 * every `/`, it reads the rest of the line from each (the square of a long line of slashes). The file is
 * what follows the last `(`, `)` or `:` before the line and column, from its first `/`, or from the third
 * `/` of a `file:///` just before.
 */
export function stackFrame(line: string): [file: string, line: number, column: number] | null {
  const m = FRAME_END.exec(line);
  if (!m) return null;
  let k = m.index - 1;
  for (let c; k >= 0 && (c = line.charCodeAt(k)) !== 40 && c !== 41 && c !== 58; k--);
  const seg = line.slice(k + 1, m.index);
  let file: string;
  if (k >= 4 && line.startsWith('file:', k - 4) && seg.startsWith('///') && seg.length > 3) file = seg.slice(2);
  else {
    const i = seg.indexOf('/');
    if (i < 0 || i === seg.length - 1) return null;
    file = seg.slice(i);
  }
  return [file, Number(m[1]), Number(m[2])];
}

/** The first stack frame inside the site's own files (not node_modules or sitegen), as a location. */
export function siteFrame(error: unknown, root: string): Location | null {
  const stack = String((error as Error)?.stack ?? '');
  for (const line of stack.split('\n').slice(1)) {
    const m = stackFrame(line);
    if (!m) continue;
    const o = original(m[0], m[1], m[2]);
    if (o.file.includes('/node_modules/') || !o.file.startsWith(root + path.sep) || ENGINE.some((d) => o.file.startsWith(d))) continue;
    let lineText = '';
    try { lineText = fs.readFileSync(o.file, 'utf8').split('\n')[o.line - 1] ?? ''; } catch { /* keep empty */ }
    return { file: path.relative(root, o.file).split(path.sep).join('/'), line: o.line, column: o.column, lineText };
  }
  return null;
}
