// Dev only: what a committed rebuild means for pages already open, beyond "these routes changed". Read
// from the client bundle's manifest before and after: which stylesheets changed (the page swaps the
// <link>, no reload), which islands have a new module (the page loads it: React islands update in place
// with their state, enhancement islands re-run on their element), and whether React itself moved to
// another chunk, which no hot update survives (pages with React islands reload).
import { createHash } from 'node:crypto';
import type { AssetManifest, SiteConfig } from '../core/types.ts';
import { urlPolicy, withBase } from '../render/urls.ts';

export interface HotIsland { url: string; react: boolean }

export interface HotChange {
  /** [old URL, new URL] of each stylesheet the bundle replaced. */
  css: [string, string][];
  /** Island name → its new module, for islands whose module changed. */
  islands: Record<string, HotIsland>;
  /** React's chunks changed: a React island cannot be updated in place. */
  reactMoved: boolean;
}

type Manifest = Pick<AssetManifest, 'css' | 'islandChunks' | 'baseChunks' | 'reactIslands' | 'islands' | 'files'>;

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array | undefined) => a === b || (!!a && !!b && Buffer.compare(a, b) === 0);

/** "/assets/site-ABC123.css" → "/assets/site": the entry a hashed output file belongs to. */
const entryOf = (url: string) => url.replace(/(-[^-/]*)?\.css$/, '');

const digest = (bytes: Uint8Array | undefined) => createHash('sha1').update(bytes ?? '').digest('hex').slice(0, 10);

export function hotChange(prev: Manifest | null | undefined, next: Manifest | null | undefined, base = '/'): HotChange {
  const none: HotChange = { css: [], islands: {}, reactMoved: false };
  if (!prev || !next || prev === next) return none;
  const before = new Map(prev.css.map((u) => [entryOf(u), u]));
  const css = next.css.flatMap((u): [string, string][] => {
    const old = before.get(entryOf(u));
    if (!old) return [];
    if (old !== u) return [[withBase(old, base), withBase(u, base)]];
    // Dev names stylesheets without a hash (bundle.ts): the same URL with new bytes gets a new query.
    const bytes = next.files.get(u.slice(1));
    return sameBytes(prev.files.get(u.slice(1)), bytes) ? [] : [[withBase(u, base), `${withBase(u, base)}?v=${digest(bytes)}`]];
  });
  const islands: Record<string, HotIsland> = {};
  for (const name of next.islands) {
    const url = next.islandChunks[name]?.[0];
    const old = prev.islandChunks[name]?.[0];
    if (url && old && url !== old) islands[name] = { url: withBase(url, base), react: next.reactIslands.includes(name) };
  }
  const sameBase = prev.baseChunks.length === next.baseChunks.length && prev.baseChunks.every((c) => next.baseChunks.includes(c));
  return { css, islands, reactMoved: !sameBase && prev.baseChunks.length > 0 };
}

/** Keeps the manifest of the last commit and gives each next one's hot change (URLs under the site's base). */
export function hotTracker(config: () => SiteConfig | null): (next: Manifest | null | undefined) => HotChange {
  let last: Manifest | null | undefined = null;
  return (next) => {
    const site = config();
    const change = hotChange(last, next, site ? urlPolicy(site).base : '/');
    if (next) last = next;
    return change;
  };
}
