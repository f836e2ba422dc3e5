// strays: content files that no collection's pattern takes. A Markdown or data file under content/ that
// matches nothing is never published, and nothing else would say so: a post moved in as a Hugo page bundle
// (posts/a-trip/index.md under a `posts/*.md` pattern) or a misspelt folder would be gone without a word.
// Each is a warning at the file, naming the patterns there are; a name that starts with "_" is kept out on
// purpose (a convention for files that are not pages) and not named.
import type { Message, SiteConfig } from '../core/types.ts';
import { fileLocation, message } from '../core/errors.ts';
import type { LoadItem } from './load.ts';
import { collectionPatterns } from './entry.ts';
import { CONTENT_FILE } from './glob.ts';

/** At most this many named; the rest counted in one more. */
const NAMED = 5;

/** An MDX file, which no collection reads: content is data, its imports and JSX would never run. */
export const mdxRefused = (rel: string, id: 'ContentNotInCollection' | 'ContentPolicyError'): Message => message(id, 'This file is MDX, which sitegen does not read, so it is not published: content is data, and its imports and JSX would never run', fileLocation(`content/${rel}`), {
  hint: 'Rename it to .md and write its components as directives (:::Callout{type="tip"} … :::, registered in the config\'s components: see Components in Markdown); remove its import and export lines.',
});

/** An Eleventy directory data file: `posts/posts.json` (named as its folder) or `*.11tydata.json` / `.js`. */
function folderData(rel: string): boolean {
  const parts = rel.split('/');
  const name = parts[parts.length - 1]!;
  return /\.11tydata\.(json|js|cjs|mjs)$/.test(name) || (parts.length > 1 && name === `${parts[parts.length - 2]}.json`);
}
const FOLDER_DATA_HINT = 'This looks like an Eleventy directory data file (defaults for the files beside it), which sitegen has no place for: give a field its default in the collection\'s schema (layout-like keys are the route\'s component, permalinks its path, tags a field of each file), then delete the file, or name it with a leading "_" to keep it.';

/** `said`: files said otherwise (an MDX file a pattern matched: an error of its own). */
export function strays(all: readonly string[], items: readonly LoadItem[], config: SiteConfig, said: readonly string[] = []): Message[] {
  const taken = new Set([...items.map((i) => i.rel), ...said]);
  const left = all.filter((rel) => CONTENT_FILE.test(rel) && !taken.has(rel) && !rel.split('/').some((part) => part.startsWith('_')));
  if (!left.length) return [];
  const patterns = Object.entries(config.collections).map(([name, col]) => `${name}: ${collectionPatterns(col).join(', ')}`).join('; ');
  const hint = `Each collection takes the files its pattern matches below content/ (${patterns || 'none'}). A file in a folder needs a pattern with "**" ("posts/**/*.md"); name a file that is not content with a leading "_" to keep it out without this warning.`;
  const out = left.slice(0, NAMED).map((rel) => rel.endsWith('.mdx') ? mdxRefused(rel, 'ContentNotInCollection')
    : message('ContentNotInCollection', 'This file is in no collection, so it is not published', fileLocation(`content/${rel}`), { hint: folderData(rel) ? FOLDER_DATA_HINT : hint }));
  if (left.length > NAMED) out.push(message('ContentNotInCollection', `${left.length - NAMED} more files under content/ are in no collection, so they are not published`, null, { hint }));
  return out;
}
