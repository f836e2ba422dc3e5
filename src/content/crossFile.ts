// crossFile: the site's checks across files (its `validate` hook and the components the Markdown bodies use),
// each issue located in its file by re-reading that file only when there is an issue to locate.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Content, Message, SiteConfig } from '../core/types.ts';
import { message, fileLocation, thrownBySite } from '../core/errors.ts';
import { formatPath } from './fieldPath.ts';
import { componentMessages } from '../markdown/components.ts';

/** The parser, loaded on first use (see parse.ts). */
const parser = () => import('./parse.ts');

/** The site's checks across files (config.validate), each issue located in its file. */
export async function crossFileIssues(root: string, config: SiteConfig, content: Content): Promise<Message[]> {
  // The components the Markdown bodies use, against the config's (names, attributes, nesting).
  const components = componentMessages(config, content);
  if (components.length) return components;
  if (!config.validate) return [];
  let issues: ReturnType<NonNullable<SiteConfig['validate']>>;
  try {
    issues = config.validate(content);
  } catch (e) {
    return [thrownBySite(e, root, 'validate() threw')]; // the site's code: a located problem, as every stage reports it
  }
  const out: Message[] = [];
  for (const issue of issues) {
    out.push(issue.text ? await locateText(root, issue.file, issue.text, issue.message) : await locateIssue(root, issue.file, issue.path, issue.message));
  }
  return out;
}

/** Locates an issue about a piece of text (a token in a Markdown body) at its first occurrence in the file. */
async function locateText(root: string, file: string, text: string, problem: string): Promise<Message> {
  let source = '';
  try { source = await fs.readFile(path.join(root, file), 'utf8'); } catch { /* gone since it was read: the file alone */ }
  const at = source.indexOf(text);
  if (at < 0) return message('ContentCheckError', problem, fileLocation(file));
  const before = source.slice(0, at);
  const line = before.split('\n').length;
  const start = before.lastIndexOf('\n') + 1;
  const end = source.indexOf('\n', at);
  return message('ContentCheckError', problem, fileLocation(file, line, at - start + 1, source.slice(start, end < 0 ? undefined : end).replace(/\r$/, '')));
}

/** Locates a cross-file issue by re-reading its file (kept out of memory until needed). */
export async function locateIssue(root: string, file: string, fieldPath: (string | number)[], text: string): Promise<Message> {
  const parsed = await (await parser()).parseContentFile(root, file);
  const loc = 'source' in parsed ? parsed.source.locate(fieldPath) : fileLocation(file);
  return message('ContentSchemaError', text, loc, { field: formatPath(fieldPath) || undefined });
}
