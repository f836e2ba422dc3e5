// routeCarry: routeTable's checks carried from one build to the next. They validate every path, output and
// alias routes() declares and claim every output (the bench site: 65,000 outputs at 10,000 pages, 650,000 at
// 100,000), and their verdict depends only on what `shapeOf` digests. When the last table that passed them
// had the same digest, under the same engine, routeTable makes the table from the defs without them.
import fs from 'node:fs';
import path from 'node:path';
import type { RouteDef, SiteConfig } from '../core/types.ts';
import { routeFieldProblem, type RouteTable } from './routeTable.ts';
import { siteCachePath } from '../cache/registry.ts';
import { createHash } from 'node:crypto';
import { engineStamp } from './incremental.ts';
import { normaliseBase } from '../render/urls.ts';
import { isContentImage } from '../images/model.ts';

// Strings by length and text: no separator a path could hold makes two shapes read alike.
const str = (s: string) => `${s.length}:${s}`;

/** A digest of what routeTable's checks read of the defs and the config (paths, outputs, Open Graph images,
 *  whether each has a component and what its body is, aliases, the trailing-slash rule, the base), or null when
 *  something is of a type they refuse (routeTable then says what). */
export function shapeOf(defs: unknown, config: Pick<SiteConfig, 'trailingSlash'> & { site?: Pick<SiteConfig['site'], 'base'> }): string | null {
  const rule = config.trailingSlash;
  if (!Array.isArray(defs) || (rule !== undefined && typeof rule !== 'string')) return null;
  // Hashed a part at a time: the text of 100,000 bench routes is ~20 MB, held at once for nothing.
  const h = createHash('sha1');
  // (the base too: an alias that starts with it is refused)
  let s = `${engineStamp()}\n${rule ?? ''}\n${normaliseBase(config.site?.base)}\n`;
  for (const d of defs as RouteDef[]) {
    if (s.length > 65_536) { h.update(s); s = ''; }
    if (!d || typeof d !== 'object') return null;
    const { path: p, output, ogImage, aliases } = d;
    if (typeof p !== 'string' || (output !== undefined && typeof output !== 'string') || (ogImage !== undefined && typeof ogImage !== 'string' && !isContentImage(ogImage)) || (aliases !== undefined && !Array.isArray(aliases))) return null;
    s += `${str(p)}|${output === undefined ? '-' : str(output)}|${ogImage === undefined ? '-' : typeof ogImage === 'string' ? str(ogImage) : `@${ogImage.hash}${ogImage.format}${str(ogImage.file)}`}|${d.component ? 1 : 0}${typeof d.body}|`;
    // A page's title is checked for being text, a lastmod for being a date and a lang for being a tag, whatever their values.
    if (routeFieldProblem(d)) return null;
    if (aliases) for (const a of aliases) { if (typeof a !== 'string') return null; s += str(a); }
    s += '\n';
  }
  return h.update(s).digest('base64url');
}

/** Whether the defs have the shape of the last table that passed the checks (`trusted`); `passed` records
 *  a table made now that passed them, for the next build. */
export function routeCarry(root: string, defs: unknown, config: Pick<SiteConfig, 'trailingSlash' | 'site'>): { trusted: boolean; digest: string | null; passed(table: RouteTable): void } {
  const file = siteCachePath(root, 'routes');
  const digest = shapeOf(defs, config);
  let last: string | null = null;
  if (digest) try { last = fs.readFileSync(file, 'utf8'); } catch { /* none yet */ }
  const trusted = !!digest && digest === last;
  return {
    trusted,
    digest,
    passed(table) {
      if (!digest || trusted || table.errors.length || table.issues) return;
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        const tmp = `${file}.tmp-${process.pid}`;
        fs.writeFileSync(tmp, digest);
        fs.renameSync(tmp, file);
      } catch { /* the next build checks every route again */ }
    },
  };
}
