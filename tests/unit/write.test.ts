// The staging writer never opens more than MAX_WRITES_IN_FLIGHT files, however many writes are started:
// a 10,000-page site with 55,000 aliases once failed with EMFILE.
import { describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createWriter, stageOutput, MAX_WRITES_IN_FLIGHT } from '../../src/write.ts';
import { configureEngine } from '../../src/settings.ts';

/** Counts fs.promises.writeFile calls in flight; `peak()` is the most at once. */
function countPoolWrites() {
  let open = 0, peak = 0;
  const real = fsp.writeFile;
  const spy = vi.spyOn(fsp, 'writeFile').mockImplementation(async (...args: any[]) => {
    peak = Math.max(peak, ++open);
    try { return await (real as any)(...args); } finally { open--; }
  });
  return { peak: () => peak, restore: () => spy.mockRestore() };
}

describe('staging writes', () => {
  it('bounds the files open at once and writes every file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bound-'));
    const writes = countPoolWrites();
    try {
      const staging = await stageOutput(path.join(dir, 'dist'));
      await Promise.all(Array.from({ length: 3000 }, (_, i) => staging.write(`a${i % 50}/p${i}/index.html`, `page ${i}`)));
      await staging.commit();
    } finally {
      writes.restore();
    }
    expect(writes.peak()).toBeGreaterThan(1);
    expect(writes.peak()).toBeLessThanOrEqual(MAX_WRITES_IN_FLIGHT);
    expect(fs.readFileSync(path.join(dir, 'dist/a7/p2957/index.html'), 'utf8')).toBe('page 2957');
    expect(fs.readdirSync(path.join(dir, 'dist')).length).toBe(50);
  });

  it('page writer: the same files synchronously (fast disk) or on the thread pool (slow disk), bounded', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-writer-'));
    const write = async (mode: 'sync' | 'async' | undefined, out: string) => {
      configureEngine({ writes: mode });
      try {
        const w = createWriter(path.join(dir, out));
        for (let i = 0; i < 500; i++) await w.write(`a${i % 20}/p${i}/index.html`, `page ${i}`);
        await w.flush();
      } finally {
        configureEngine();
      }
    };
    const writes = countPoolWrites();
    try {
      await write('sync', 'sync');
      expect(writes.peak()).toBe(0); // nothing went through the thread pool
      await write('async', 'async');
      expect(writes.peak()).toBeGreaterThan(1);
      expect(writes.peak()).toBeLessThanOrEqual(MAX_WRITES_IN_FLIGHT);
      await write(undefined, 'adaptive');
    } finally {
      writes.restore();
    }
    for (const out of ['sync', 'async', 'adaptive']) {
      expect(fs.readFileSync(path.join(dir, out, 'a7/p487/index.html'), 'utf8')).toBe('page 487');
      expect(fs.readdirSync(path.join(dir, out)).length).toBe(20);
    }
    // A write that fails is reported by flush, whichever way it went.
    for (const mode of ['sync', 'async'] as const) {
      configureEngine({ writes: mode });
      try {
        fs.writeFileSync(path.join(dir, `blocker-${mode}`), 'a file where a folder should be');
        const w = createWriter(path.join(dir, `blocker-${mode}`));
        await w.write('x/index.html', 'x');
        await expect(w.flush()).rejects.toThrow();
      } finally {
        configureEngine();
      }
    }
  });
});
