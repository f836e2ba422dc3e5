// Minimal glob over a folder: `*` within a path segment, `**` across any depth. Sorted, forward slashes.
import fs from 'node:fs/promises';
import path from 'node:path';

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

export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
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
        try { isDir = (await fs.stat(path.join(dir, r))).isDirectory(); } catch { continue; }
      }
      if (isDir) await walk(r, new Set(seen));
      else out.push(r);
    }
  }
  await walk('', new Set());
  return out.sort();
}

export function matchFiles(files: string[], patterns: string[]): string[] {
  const res = patterns.map(toRegExp);
  return files.filter((f) => res.some((r) => r.test(f)));
}

/** Every YAML and Markdown file below content/, relative to it, sorted. */
export async function listContentFiles(root: string): Promise<string[]> {
  return (await listFiles(path.join(root, 'content'))).filter((f) => /\.(ya?ml|md)$/.test(f));
}
