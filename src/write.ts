// write: the build goes into a temporary folder beside the output and is swapped in only when the whole
// build succeeded, so a failed build leaves the previous output untouched, byte for byte.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface Staging {
  dir: string;
  write(rel: string, data: string | Uint8Array): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** Files written at once: enough to keep the disk busy, far below any open-files limit. */
export const MAX_WRITES_IN_FLIGHT = 32;

export async function stageOutput(outDir: string): Promise<Staging> {
  const dir = `${outDir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  // Each folder is created once, parents first; concurrent writes into a new folder share the promise.
  const folders = new Map<string, Promise<void>>([[dir, Promise.resolve()]]);
  const ensureDir = (d: string): Promise<void> => {
    let p = folders.get(d);
    if (!p) {
      p = ensureDir(path.dirname(d)).then(() => fs.mkdir(d).catch((e) => { if (e.code !== 'EEXIST') throw e; }));
      folders.set(d, p);
    }
    return p;
  };
  // A semaphore: callers may start any number of writes, at most MAX_WRITES_IN_FLIGHT files are open.
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const acquire = () => (inFlight < MAX_WRITES_IN_FLIGHT ? (inFlight++, Promise.resolve()) : new Promise<void>((r) => waiting.push(r)));
  const release = () => { const next = waiting.shift(); if (next) next(); else inFlight--; };
  return {
    dir,
    async write(rel, data) {
      const abs = path.join(dir, rel);
      await ensureDir(path.dirname(abs));
      await acquire();
      try { await fs.writeFile(abs, data); } finally { release(); }
    },
    async commit() {
      const old = `${outDir}.old-${process.pid}-${Date.now().toString(36)}`;
      let hadOld = false;
      try { await fs.rename(outDir, old); hadOld = true; } catch (e: any) { if (e.code !== 'ENOENT') throw e; }
      try {
        await fs.rename(dir, outDir);
      } catch (e) {
        if (hadOld) await fs.rename(old, outDir); // put the previous output back
        throw e;
      }
      if (hadOld) await fs.rm(old, { recursive: true, force: true });
    },
    async abort() {
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
