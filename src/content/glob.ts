// Minimal glob over a folder: `*` within a path segment, `**` across any depth. Sorted, forward slashes.
import fs from 'node:fs/promises';
import path from 'node:path';
import { outsideRoot } from './insideRoot.ts';

function toRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      re += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The fixed folder before the first wildcard: "sectors/*\/*.yaml" → "sectors". */
export function globBase(pattern: string): string {
  const segs = pattern.split('/');
  const fixed: string[] = [];
  for (const s of segs.slice(0, -1)) {
    if (/[*?]/.test(s)) break;
    fixed.push(s);
  }
  return fixed.join('/');
}

/** With a site root: entries whose real path is not inside it (see insideRoot.ts) are left out and noted. */
export interface WalkGuard {
  root: string;
  /** Filled with the refused entries, relative to the folder walked ('' for the folder itself). */
  outside: { rel: string; problem: 'outside' | 'hidden' }[];
}

export async function listFiles(dir: string, guard?: WalkGuard): Promise<string[]> {
  const out: string[] = [];
  // Only a link can lead out: the folder itself and each symlinked entry are checked, never read first.
  const refused = async (rel: string) => {
    if (!guard) return false;
    const problem = await outsideRoot(guard.root, path.join(dir, rel));
    if (problem) guard.outside.push({ rel, problem });
    return !!problem;
  };
  if (await refused('')) return out;
  async function walk(rel: string, seen: Set<string>): Promise<void> {
    const abs = path.join(dir, rel);
    let real: string;
    try { real = await fs.realpath(abs); } catch { return; }
    if (seen.has(real)) return; // a symlink loop: each real folder is read once
    seen.add(real);
    let items;
    try { items = await fs.readdir(abs, { withFileTypes: true }); } catch { return; }
    for (const it of items) {
      if (it.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${it.name}` : it.name;
      let isDir = it.isDirectory();
      if (it.isSymbolicLink()) {
        if (await refused(r)) continue;
        try { isDir = (await fs.stat(path.join(dir, r))).isDirectory(); } catch { continue; }
      }
      if (isDir) await walk(r, new Set(seen));
      else out.push(r);
    }
  }
  await walk('', new Set());
  guard?.outside.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  return out.sort();
}

export function matchFiles(files: string[], patterns: string[]): string[] {
  const res = patterns.map(toRegExp);
  return files.filter((f) => res.some((r) => r.test(f)));
}

/**
 * Every YAML and Markdown file below content/, relative to it, sorted. Links that lead out of the site are
 * never followed; with `outside`, they are noted there (relative to the root, e.g. "content/x.yaml").
 */
export async function listContentFiles(root: string, outside?: { rel: string; problem: 'outside' | 'hidden' }[]): Promise<string[]> {
  const guard: WalkGuard = { root, outside: [] };
  const files = (await listFiles(path.join(root, 'content'), guard)).filter((f) => /\.(ya?ml|md)$/.test(f));
  outside?.push(...guard.outside.map((o) => ({ rel: o.rel ? `content/${o.rel}` : 'content', problem: o.problem })));
  return files;
}
