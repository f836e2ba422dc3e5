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

export async function stageOutput(outDir: string): Promise<Staging> {
  const dir = `${outDir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  const made = new Set<string>([dir]);
  return {
    dir,
    async write(rel, data) {
      const abs = path.join(dir, rel);
      const parent = path.dirname(abs);
      if (!made.has(parent)) { await fs.mkdir(parent, { recursive: true }); made.add(parent); }
      await fs.writeFile(abs, data);
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
