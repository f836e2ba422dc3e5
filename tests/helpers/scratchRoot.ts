// The folder throwaway test sites and folders go in (see scratch.ts), and the folders made there for a
// test file's own use: a module of its own, with no import of the engine, so the setup file that removes
// them after each file (scratchDirs.setup.ts) loads nothing else.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function inMemory(): string | null {
  const dir = '/dev/shm';
  try {
    if (!fs.statSync(dir).isDirectory()) return null;
    fs.accessSync(dir, fs.constants.W_OK);
    return dir;
  } catch {
    return null;
  }
}

/** The folder to make throwaway site copies in: /dev/shm when it is a writable folder, else os.tmpdir(). */
export const SCRATCH: string = inMemory() ?? os.tmpdir();

const throwaway = new Set<string>();

/** A new folder in SCRATCH for a test's own files (a site it writes, an output); removed when the test file
 *  ends (tests/helpers/scratchDirs.setup.ts), whether or not its tests passed. */
export function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(SCRATCH, prefix));
  throwaway.add(dir);
  return dir;
}

/** Removes every folder scratchDir made. */
export function removeScratchDirs(): void {
  for (const dir of throwaway) fs.rmSync(dir, { recursive: true, force: true });
  throwaway.clear();
}
