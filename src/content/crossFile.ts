// crossFile: the checks across files (the references between entries, the components the Markdown bodies
// use, the site's `validate` hook), each issue located in its file by re-reading that file only when there is
// an issue to locate. Build, check and dev report them alike (crossFileMessages), beside the files' own problems.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Content, Message, SiteConfig } from '../core/types.ts';
import { catalogue, message, fileLocation, locationAt, thrownBySite } from '../core/errors.ts';
import type { HelperIssue } from '../authoring/issues.ts';
import { formatPath } from './fieldPath.ts';
import { componentMessages } from '../markdown/components.ts';
import { noteBodyReads } from './diskBody.ts';

/** The parser, loaded on first use (see parse.ts). */
const parser = () => import('./parse.ts');

/** The authoring helpers' issues (a dangling reference, two terms with one slug), each located at its field. */
export async function helperIssueMessages(root: string, issues: HelperIssue[]): Promise<Message[]> {
  return Promise.all(issues.map(async (i) => ({ ...await locateIssue(root, i.file, i.path, i.message), id: i.kind, hint: catalogue[i.kind].hint })));
}

/**
 * The problems across files, reported with the files' own (`fileErrors` of them), so one run shows every
 * problem it can be sure of: the references (`references`: those of the entries that loaded), except one
 * into a collection that may miss an entry, whose entry may be a file that failed (it is checked once that
 * file loads); the components each loaded Markdown body uses, against the config's (names, attributes,
 * nesting); and the site's `validate(content)`, only for content with no problem at all (it is given every
 * entry, and a missing one would read as the site's own issue). A collection may miss an entry when it holds
 * a file that failed (`failedIn`: the collection of each), and every one may when a problem is not one file's
 * own (`beyondFiles`: a collection's set of files, a path refused).
 */
export async function crossFileMessages(root: string, config: SiteConfig, content: Content, o: { fileErrors: number; failedIn: Iterable<string>; beyondFiles: boolean; references: HelperIssue[] }): Promise<Message[]> {
  const failed = new Set(o.beyondFiles ? Object.keys(config.collections) : o.failedIn);
  const references = o.fileErrors ? o.references.filter((i) => !(i.target && failed.has(i.target))) : o.references;
  const out = [...await helperIssueMessages(root, references), ...componentMessages(config, content)];
  return o.fileErrors || out.length ? out : validateIssues(root, config, content);
}

/** The body fields the last validate() of a config read (content/diskBody.ts noteBodyReads; pipeline/replay.ts). */
export const validateReads = new WeakMap<SiteConfig, Set<string>>();

/** The site's own checks across files (config.validate), each issue located in its file. */
async function validateIssues(root: string, config: SiteConfig, content: Content): Promise<Message[]> {
  if (!config.validate) return [];
  let issues: ReturnType<NonNullable<SiteConfig['validate']>>;
  try {
    const noted = noteBodyReads(() => config.validate!(content));
    issues = noted.value;
    validateReads.set(config, noted.read);
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
  return message('ContentCheckError', problem, locationAt(file, source, at));
}

/** Locates a cross-file issue by re-reading its file (kept out of memory until needed). */
export async function locateIssue(root: string, file: string, fieldPath: (string | number)[], text: string): Promise<Message> {
  const parsed = await (await parser()).parseContentFile(root, file);
  const loc = 'source' in parsed ? parsed.source.locate(fieldPath) : fileLocation(file);
  return message('ContentCheckError', text, loc, { field: formatPath(fieldPath) || undefined });
}
