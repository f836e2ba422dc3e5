// Folder snapshots and throwaway site copies for tests that check "nothing was half-written":
// treeSnapshot(dist) before and after a failed build must be equal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Every file below `dir` with its bytes, in a stable order: equal strings mean equal trees. */
export function treeSnapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, f.name);
      if (f.isDirectory()) walk(p); else out.push(`${path.relative(dir, p)}:${fs.readFileSync(p).toString('base64')}`);
    }
  };
  walk(dir);
  return out.join('\n');
}

/** A temp folder holding one pristine site (filled by the caller) and cheap copies of it, one per case. */
export function siteCopies(prefix: string): { work: string; pristine: string; freshSite: (name: string) => string } {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const pristine = path.join(work, 'pristine');
  return {
    work, pristine,
    freshSite(name) {
      const dir = path.join(work, name);
      fs.cpSync(pristine, dir, { recursive: true });
      return dir;
    },
  };
}
