// routeLocate: where a route's problem is shown. A value the route takes from its content file (an alias, a
// permalink, an image in front matter) is found in that file's front matter as a whole value; else the problem
// is at `routes` in the config, where routes() makes the route, with a note naming the route's file.
import fs from 'node:fs';
import path from 'node:path';
import type { Location } from '../core/types.ts';
import { fileLocation, locationAt } from '../core/errors.ts';
import { locateKey } from '../site/configLocate.ts';

/** Where `source` (a content file, relative to the site root) writes `text` (an alias in its front matter), else
 *  the file. Read only when its real path is a plain, visible file inside the root's, of a content file's size;
 *  looked for in its front matter (the whole file for a YAML one), as a whole value: after "[", ",", ":", a
 *  quote or a list item's "-", and before "]", ",", a quote, a comment or the line's end (spaces aside). */
export function writtenIn(root: string, source: string, text: string): Location {
  return foundIn(root, source, text) ?? fileLocation(source);
}

/** Where a route's own field goes wrong: where its content file writes the value (a permalink or an image in
 *  front matter), else at routes in the config, where the route is made, with a note naming its file. */
export function routeFieldAt(root: string, source: string | null | undefined, value: unknown): { at: Location | null; notes: { text: string; location: Location | null }[] } {
  const written = root && source && typeof value === 'string' && value ? foundIn(root, source, value) : null;
  if (written) return { at: written, notes: [] };
  if (!root) return { at: source ? fileLocation(source) : null, notes: [] };
  return { at: locateKey(root, ['routes']), notes: source ? [{ text: `the route of ${source}`, location: fileLocation(source) }] : [] };
}

/** Whether `value`, a relative path, names a file of the site beside the content file `source` (a post's image). */
export function besideSource(root: string, source: string | null | undefined, value: unknown): boolean {
  if (!root || !source || typeof value !== 'string' || value.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(value)) return false;
  const file = path.resolve(root, path.dirname(source), value), rel = path.relative(root, file);
  try { return !rel.startsWith('..') && !path.isAbsolute(rel) && fs.statSync(file).isFile(); } catch { return false; }
}

/** writtenIn's search: the location, or null when the file does not write the text as a value. */
function foundIn(root: string, source: string, text: string): Location | null {
  if (!root || !text) return null;
  try {
    const real = fs.realpathSync(path.resolve(root, source)), base = fs.realpathSync(root);
    const rel = path.relative(base, real);
    if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep).some((p) => p.startsWith('.'))) return null;
    const st = fs.statSync(real);
    if (!st.isFile() || st.size > 2_000_000) return null;
    const file = fs.readFileSync(real, 'utf8');
    const end = /^---\r?\n/.test(file) ? file.indexOf('\n---', 3) : file.length;
    for (let at = file.indexOf(text); at >= 0 && at < end; at = file.indexOf(text, at + 1)) {
      let b = at - 1, a = at + text.length;
      while (file[b] === ' ' || file[b] === '\t') b--;
      while (file[a] === ' ' || file[a] === '\t') a++;
      // ("-" only as a list item's marker, first on its line: not the hyphen of another value)
      const item = file[b] === '-' && /^[ \t]*$/.test(file.slice(file.lastIndexOf('\n', b - 1) + 1, b));
      if (('[,:\'"\n'.includes(file[b] ?? '\n') || item) && '],\'"\r\n#'.includes(file[a] ?? '\n')) return locationAt(source, file, at);
    }
  } catch { /* not readable */ }
  return null;
}
