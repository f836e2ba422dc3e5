// parse: reads one content file and parses it — YAML (source positions made when an error needs them) or
// Markdown with YAML front matter — applying the Markdown content policy. load.ts imports this module only
// when a file has to be parsed, so a build whose content cache answers every file never evaluates yaml
// or marked. A Markdown file's front matter is found by frontMatter.ts and read by the same YAML reader.
import fs from 'node:fs';
import path from 'node:path';
import type { Message } from '../core/types.ts';
import { message, fileLocation } from '../core/errors.ts';
import type { ErrorId } from '../core/catalogue.ts';
import { compileMarkdown, prepareMarkdown, type MarkdownExtensions, type MarkdownProblem } from '../markdown/compile.ts';
import type { MarkdownText } from '../markdown/entryText.ts';
import { notRegularFileError, outsideRoot, outsideRootError } from './insideRoot.ts';
import { jsonErrorAt } from './jsonError.ts';
import { lazyYamlSource, locate, parseYamlSource, type YamlSource } from './yamlSource.ts';
import { formatPath } from './fieldPath.ts';
import { templateTag } from '../markdown/codeInText.ts';
import { fastYaml } from './yamlFast.ts';
import { splitFrontMatter } from './frontMatter.ts';
import { uncheckedOf } from './entry.ts';
import { markdownImages, type ImageDep, type MarkdownImageOptions } from '../images/markdown.ts';

/** The image pipeline's options for Markdown images (all but the file's own). */
export type ContentImageOptions = Omit<MarkdownImageOptions, 'root' | 'file'>;

export const MAX_CONTENT_BYTES = 2 * 1024 * 1024;

// Content files are read with fs's synchronous calls. On files this small the asynchronous ones cost more
// CPU than the reads: each hop through libuv's pool (lstat, open, fstat, read, close) is dispatched from
// and answered on this thread, while the pool's threads take the cores both parsing threads use. 5,000
// bench files in a fresh process: 101-129 ms wall and ~150-170 ms of CPU with callbacks in batches of 50,
// 58-63 ms and ~80 ms synchronously (fs/promises cost more than either). Cold 10,000 pages, content
// stage: 2,167-2,439 -> 1,994-2,045 ms, and with the page cache dropped before each build 2,547-2,662 ->
// 2,504-2,582 ms, so a file that must come from the disk does not make it slower either.

export interface ParsedFile {
  data: unknown;
  body?: string;
  /** The body's HTML (Markdown files that passed the content policy). */
  html?: string;
  /** The body's headings, excerpt and words (with `html`). */
  text?: MarkdownText;
  source: YamlSource;
  errors: Message[];
  /** What the build says of the file and goes on: raw HTML `html: 'sanitize'` removed (HtmlSanitized). */
  warnings?: Message[];
  /** The file's size and modification time when it was read (the content cache's key, load.ts stampKey). */
  stamp?: FileStamp;
  /** The image files its Markdown body shows, with their stamps: the cached HTML holds while they do. */
  deps?: ImageDep[];
  /** The image files its imageFile() fields named when its data was last validated (entry.ts). */
  fieldDeps?: ImageDep[];
  /** A Markdown file with no front matter block at all (its schema's required fields are said as one problem). */
  noFrontMatter?: true;
  /** A Markdown file whose body failed the content policy but whose front matter was read: what its schema
   *  checks too, so the file's errors come at once (see FailedParse). */
  unchecked?: Unchecked;
}

/** The front matter of a Markdown file whose body failed, for its schema to check beside the body's errors. */
export interface Unchecked { data: unknown; source: YamlSource; noFrontMatter?: true }
/** A file that could not be parsed: its errors, and the front matter a body error left unchecked. */
export interface FailedParse { errors: Message[]; unchecked?: Unchecked }

export interface FileStamp { size: number; mtimeMs: number }

/** A Markdown body compiled (what a ParsedFile holds eagerly): its HTML, text, images and located problems. */
export interface CompiledBody { html?: string; text?: MarkdownText; deps?: ImageDep[]; errors: Message[]; /** What `html: 'sanitize'` removed (HtmlSanitized). */ warnings?: Message[] }

/** A Markdown file read with its body left to compile (dev's lazy start): `compileBody` gives what the eager
 *  parse would have put in `html`, `text`, `deps` and `errors` (after the front matter's own, which are none). */
export interface LazyParsedFile extends ParsedFile { compileBody: () => CompiledBody }

/** Reads one file and parses it; YAML and front-matter syntax errors come back located. `markdown`: the
 *  plugins' marked extensions for a Markdown body; `base`: the site's base, which its root-relative links
 *  and images get (see compileMarkdown). */
export async function parseContentFile(root: string, rel: string, markdown?: MarkdownExtensions, base = '/', images?: ContentImageOptions, lazyBody = false): Promise<ParsedFile | { errors: Message[] }> {
  const abs = path.join(root, rel);
  let buf: Buffer;
  let stamp: FileStamp;
  try {
    let st = fs.lstatSync(abs);
    if (st.isSymbolicLink()) {
      // A link out of the site (or to a hidden file) is never read: its target would end up in the build.
      // (Linked folders are refused by the folder walk, glob.ts, so a plain file costs no extra call.)
      const outside = await outsideRoot(root, abs);
      if (outside) return { errors: [outsideRootError(rel, outside)] };
      st = fs.statSync(abs);
    }
    // A named pipe would block the read until something writes to it (and, read synchronously, the dev
    // server with it); a socket or device is not content either.
    if (!st.isFile()) return { errors: [notRegularFileError(rel)] };
    if (st.size > MAX_CONTENT_BYTES) return { errors: [message('ContentReadError', `File is ${(st.size / 1048576).toFixed(1)} MB; content files are limited to ${MAX_CONTENT_BYTES / 1048576} MB`, fileLocation(rel))] };
    buf = fs.readFileSync(abs);
    stamp = { size: st.size, mtimeMs: st.mtimeMs };
  } catch (e: any) {
    return { errors: [message('ContentReadError', `Cannot read file: ${e.code ?? e.message}`, fileLocation(rel))] };
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
  const bad = text.indexOf('\uFFFD');
  if (bad >= 0) {
    const line = text.slice(0, bad).split('\n').length;
    return { errors: [message('ContentReadError', 'File is not valid UTF-8 text', fileLocation(rel, line, bad - text.lastIndexOf('\n', bad - 1)))] };
  }
  const isMarkdown = rel.endsWith('.md');
  if (isMarkdown) await prepareMarkdown(markdown); // the site's Markdown features load their libraries on first use
  const parsed = isMarkdown ? parseMarkdown(text, rel, markdown, base, images && { ...images, root, file: rel }, lazyBody) : rel.endsWith('.json') ? parseJson(text, rel) : parseYaml(text, rel, 0);
  parsed.stamp = stamp;
  return parsed;
}

/**
 * A JSON file (a data file moved from Eleventy or Astro): read by JSON.parse, with the positions of its values,
 * for a schema error, from the same document reader as a YAML file's (JSON is YAML), made only when asked.
 */
function parseJson(text: string, rel: string): ParsedFile {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { data: JSON.parse(body), source: lazyYamlSource(body, rel, 0), errors: [] };
  } catch {
    // Where it goes wrong, read again here: V8's message names no offset for many mistakes.
    const { at, reason } = jsonErrorAt(body);
    const before = body.slice(0, at);
    const line = before.split('\n').length;
    return { data: undefined, source: lazyYamlSource(body, rel, 0), errors: [message('JsonSyntaxError', `Not valid JSON: ${reason}`, fileLocation(rel, line, at - before.lastIndexOf('\n'), body.split('\n')[line - 1] ?? ''))] };
  }
}

function parseYaml(text: string, rel: string, lineOffset: number): ParsedFile {
  // Most files: plain values at once, source positions only if a schema error asks for them (yamlFast.ts).
  const fast = fastYaml(text);
  if (fast) return { data: structuredClone(fast.value) ?? {}, source: lazyYamlSource(text, rel, lineOffset), errors: [] };
  const { source, problems } = parseYamlSource(text, rel, lineOffset);
  const errors = problems.map((p) => message('YamlSyntaxError', p.message, fileLocation(rel, p.line, p.column, text.split('\n')[p.line - 1 - lineOffset] ?? '')));
  let data: unknown;
  if (!errors.length) {
    try {
      // Copied: the parser's strings are slices of the file's text and would keep all of it alive for as
      // long as the entry lives (~9 KB per page of gen.mjs content for ~0.4 KB of values).
      data = structuredClone(source.doc.toJS({ maxAliasCount: 100 }));
    } catch (e: any) {
      // An alias to no anchor, or an alias bomb: yaml throws while building the value. Point at the alias.
      const name = String(e?.message ?? '').match(/: ([\w-]+)$/)?.[1];
      const at = text.search(name ? new RegExp(`\\*${name}\\b`) : /\*[\w-]+/);
      const before = at >= 0 ? text.slice(0, at) : '';
      const line = before.split('\n').length;
      const loc = fileLocation(rel, at >= 0 ? line + lineOffset : 0, at >= 0 ? at - before.lastIndexOf('\n') : 0, text.split('\n')[line - 1] ?? '');
      errors.push(message('YamlSyntaxError', String(e?.message ?? e).split('\n')[0], loc));
    }
  }
  return { data: data ?? (errors.length ? undefined : {}), source, errors };
}

/**
 * `lazyBody`: the front matter now, the body when `compileBody` is called (a LazyParsedFile) — unless the front
 * matter has a problem, when the body is compiled at once so the file's errors are what the eager parse gives.
 */
function parseMarkdown(text: string, rel: string, extensions: MarkdownExtensions | undefined, base: string, images?: MarkdownImageOptions, lazyBody = false): ParsedFile {
  // Content is data: a front matter block in any language but YAML is refused, never run.
  const fm = splitFrontMatter(text);
  if (fm.language && fm.language !== 'yaml') return notYaml(text, rel, fm.language, fm.languageColumn);
  if (fm.toml) return tomlRefused(text, rel);
  // The `yaml` document parser gives source positions, counted from the block's first line.
  const p = fm.blank ? parseYaml('', rel, 0) : parseYaml(fm.block, rel, fm.blockLine);
  // A block that never closes was read to the end of the file: its YAML error is likely the body's first line.
  if (!fm.closed && p.errors.length) {
    p.errors[0]!.notes.push({ text: 'the front matter opened here has no closing "---" line, so the whole file was read as YAML', location: fileLocation(rel, 1, 1, firstLineOf(text)) });
  }
  if (!fm.fenced) p.noFrontMatter = true;
  const content = fm.body;
  // Template code in a front matter value (a title or permalink from Eleventy or Jekyll): said, not run.
  const tagged = p.errors.length || !fm.block.includes('{') ? [] : frontMatterTags(p.data, p.source);
  if (tagged.length) p.warnings = tagged;
  const compileBody = () => compileBodyAt(content, fm.bodyLine, rel, extensions, base, images);
  if (lazyBody && !p.errors.length) {
    const lazy: LazyParsedFile = { ...p, data: p.data ?? {}, body: content, compileBody };
    return lazy;
  }
  const md = compileBody();
  const errors = [...p.errors, ...md.errors];
  const checkToo = md.errors.length && !p.errors.length ? { unchecked: uncheckedOf(p) } : {};
  const warnings = [...p.warnings ?? [], ...md.warnings ?? []];
  return { ...p, ...checkToo, errors, data: errors.length ? undefined : (p.data ?? {}), body: content, html: md.html, text: md.text, ...(md.deps ? { deps: md.deps } : {}), warnings: warnings.length && !errors.length ? warnings : undefined };
}

/** A Markdown body starting at line `bodyLine` of `rel`, compiled: its problems located in the file. */
function compileBodyAt(content: string, bodyLine: number, rel: string, extensions: MarkdownExtensions | undefined, base: string, images?: MarkdownImageOptions): CompiledBody {
  const deps: ImageDep[] = [];
  const resolve = images && markdownImages(images, deps);
  const md = compileMarkdown(content, extensions, base, { file: rel, line: bodyLine }, resolve && ((t, at, attributes) => resolve(t, { ...at, line: at.line + bodyLine }, attributes)));
  const located = (m: MarkdownProblem, id: ErrorId) => message(id, m.text, fileLocation(rel, m.line + bodyLine, m.column, m.lineText), m.hint ? { hint: m.hint } : {});
  const errors = md.problems.map((m) => located(m, m.image ? 'ImageError' : m.id ?? 'ContentPolicyError'));
  return { html: md.html, text: md.text, errors, ...(deps.length ? { deps } : {}), ...(md.notices ? { warnings: md.notices.map((m) => located(m, 'HtmlSanitized')) } : {}) };
}

/** The string values of front matter that hold template code (markdown/codeInText.ts templateTag), as warnings at each
 *  value: the build goes on, as braces may be meant as text ("Using {{ }} in Handlebars"). At most a few. */
function frontMatterTags(data: unknown, source: YamlSource): Message[] {
  const out: Message[] = [];
  const visit = (v: unknown, at: (string | number)[]) => {
    if (out.length >= 5 || at.length > 32) return;
    if (typeof v === 'string') {
      const found = v.includes('{') ? templateTag(v) : null;
      if (found) out.push(message('TemplateTagInMarkdown', `${formatPath(at)} holds a ${found.kind}, which is not run, so the page would show it as it is: ${found.tag}`, locate(source, at), { hint: 'sitegen runs no code in content: write the value itself, or make it in routes() or a template (a path from the entry\'s slug, a title as text). If the braces are meant as text, leave them: this is a warning.' }));
    } else if (Array.isArray(v)) v.forEach((x, i) => visit(x, [...at, i]));
    else if (v && typeof v === 'object' && !(v instanceof Date)) for (const [k, x] of Object.entries(v)) visit(x, [...at, k]);
  };
  visit(data, []);
  return out;
}

/** A file refused for its front matter: no data, the one message. */
const refused = (rel: string, m: Message): ParsedFile => ({ data: undefined, source: parseYamlSource('', rel, 0).source, errors: [m] });

/** The first line of a text, without its line end. */
const firstLineOf = (text: string) => text.split(/\r?\n/, 1)[0]!;

function tomlRefused(text: string, rel: string): ParsedFile {
  return refused(rel, message('FrontMatterNotYaml', 'Front matter must be YAML; this file\'s is TOML, between "+++" lines (as Hugo writes it), which sitegen does not read', fileLocation(rel, 1, 1, firstLineOf(text)), {
    hint: 'Write it as YAML between "---" lines: title = "A post" becomes title: "A post", and date = 2024-01-05T10:30:00Z becomes date: 2024-01-05T10:30:00Z.',
  }));
}

function notYaml(text: string, rel: string, language: string, column: number): ParsedFile {
  const firstLine = firstLineOf(text);
  const m = message('ContentPolicyError', `Front matter must be YAML; "${firstLine.slice(0, 40)}" asks for ${JSON.stringify(language.slice(0, 30))}, which sitegen never runs`, fileLocation(rel, 1, column, firstLine), {
    hint: 'Open the front matter with a bare "---" line and write YAML: content is data, never code.',
  });
  return refused(rel, m);
}
