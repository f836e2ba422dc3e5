// writerThread: the program of the page writer thread (writers.ts createThreadWriter), run from the engine's
// worker program (parallel/workerEntry.ts) when it is started as a writer. It makes the folders it is told
// of ahead, then writes each batch of files in order, folders first, and answers with the batch's id and the
// first failure; after a failure it writes nothing more.
import path from 'node:path';
import fs from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { writeOver } from './writeOver.ts';

/** A batch: absolute path, data, path, data, … `fresh`: its folder was made empty (writeOver). `dirs`:
 *  folders (absolute) that files to come go into, made before this batch's files. */
export interface WriterBatch { id: number; fresh: boolean; files: (string | Uint8Array)[]; dirs?: string[] }
export interface WriterFailure { message: string; code?: string; path?: string }

export function writerMain(port: MessagePort): void {
  const made = new Set<string>();
  let failure: WriterFailure | null = null;
  const makeDir = (dir: string) => { if (!made.has(dir)) { fs.mkdirSync(dir, { recursive: true }); made.add(dir); } };
  const failed = (e: any) => { failure = { message: String(e?.message ?? e), code: e?.code, path: e?.path }; };
  port.on('message', (m: WriterBatch) => {
    for (const dir of m.dirs ?? []) {
      if (failure) break;
      try { makeDir(dir); } catch (e) { failed(e); }
    }
    for (let i = 0; i < m.files.length && !failure; i += 2) {
      const file = m.files[i] as string;
      try {
        makeDir(path.dirname(file));
        writeOver(file, m.files[i + 1], m.fresh);
      } catch (e) {
        failed(e);
      }
    }
    port.postMessage({ id: m.id, failure });
  });
}
