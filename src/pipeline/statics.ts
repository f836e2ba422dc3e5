// The site's static/ folder as a session input: every file's bytes by path, read with the one guard every
// command uses (a link that leads out of the site, or to a hidden file, is refused as a located error and
// never read), and updated one file at a time in dev. A build copies these bytes; dev serves them.
import path from 'node:path';
import fs from 'node:fs/promises';
import type { Message } from '../core/types.ts';
import { listFiles } from '../content/glob.ts';
import { notRegularFileError, outsideRoot, outsideRootError } from '../content/insideRoot.ts';
import type { ChangeKind } from '../content/liveContent.ts';

export interface StaticFiles {
  /** File bytes by path relative to static/ ("favicon.svg"). */
  files: Map<string, Uint8Array>;
  /** Refused entries (links out of the site), by path from the root. */
  refused: Map<string, Message>;
  readAll(): Promise<void>;
  /** Applies one change below static/ (`rel` relative to static/). */
  apply(rel: string, kind: ChangeKind): Promise<void>;
}

export function createStaticFiles(root: string, files: Map<string, Uint8Array> = new Map()): StaticFiles {
  const refused = new Map<string, Message>();
  const dir = path.join(root, 'static');
  const self: StaticFiles = {
    files, refused,
    async readAll() {
      files.clear();
      refused.clear();
      const guard = { root, outside: [] as { rel: string; problem: 'outside' | 'hidden' }[] };
      const list = await listFiles(dir, guard);
      await Promise.all(list.map((f) => self.apply(f, 'add')));
      // Re-inserted in listing order, so every command sees (and writes) the files in the same order.
      const read = new Map(files);
      files.clear();
      for (const f of list) if (read.has(f)) files.set(f, read.get(f)!);
      for (const o of guard.outside) { const rel = o.rel ? `static/${o.rel}` : 'static'; refused.set(rel, outsideRootError(rel, o.problem)); }
    },
    async apply(rel, kind) {
      refused.delete(`static/${rel}`);
      if (kind === 'unlink') { files.delete(rel); return; }
      const abs = path.join(dir, rel);
      const problem = await outsideRoot(root, abs);
      if (problem) { files.delete(rel); refused.set(`static/${rel}`, outsideRootError(`static/${rel}`, problem)); return; }
      try {
        if (!(await fs.stat(abs)).isFile()) { files.delete(rel); refused.set(`static/${rel}`, notRegularFileError(`static/${rel}`)); return; }
        files.set(rel, await fs.readFile(abs));
      } catch { files.delete(rel); }
    },
  };
  return self;
}
