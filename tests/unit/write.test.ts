// The staging writer never holds more than one file open, however many writes are started (it writes
// synchronously): a 10,000-page site with 55,000 aliases once failed with EMFILE.
import { describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { stageOutput } from '../../src/output/write.ts';
import { createThreadWriter, createWriter } from '../../src/output/writers.ts';
import { configureEngine } from '../../src/core/settings.ts';
import { expectWritesStopAtFailure, outWithBlockedFolder } from '../helpers/writerFailure.ts';
import { scratchDir } from '../helpers/scratch.ts';

/** Counts files open through fs.promises at once (a write opens, writes and closes); `peak()` is the most.
 *  `under`: count only files in that folder (the test files share a process: another file's build may still
 *  be saving its caches in the background). */
function countPoolWrites(under?: string) {
  let open = 0, peak = 0;
  const ours = (p: unknown) => !under || String(p).startsWith(under);
  const real = fsp.open;
  const spy = vi.spyOn(fsp, 'open').mockImplementation(async (...args: any[]) => {
    const h = await (real as any)(...args);
    if (!ours(args[0])) return h;
    peak = Math.max(peak, ++open);
    const close = h.close.bind(h);
    h.close = async () => { open--; return close(); };
    return h;
  });
  // A new file in a folder made empty is written with writeFile (write.ts Staging.fresh): counted while it runs.
  const realWriteFile = fsp.writeFile;
  const spyWrite = vi.spyOn(fsp, 'writeFile').mockImplementation(async (...args: any[]) => {
    if (!ours(args[0])) return (realWriteFile as any)(...args);
    peak = Math.max(peak, ++open);
    try { return await (realWriteFile as any)(...args); } finally { open--; }
  });
  return { peak: () => peak, restore: () => { spy.mockRestore(); spyWrite.mockRestore(); } };
}

describe('staging writes', () => {
  it('bounds the files open at once and writes every file', async () => {
    const dir = scratchDir('sg-bound-');
    const writes = countPoolWrites(dir);
    try {
      const staging = await stageOutput(path.join(dir, 'dist'));
      await Promise.all(Array.from({ length: 3000 }, (_, i) => staging.write(`a${i % 50}/p${i}/index.html`, `page ${i}`)));
      await staging.commit();
    } finally {
      writes.restore();
    }
    expect(writes.peak()).toBe(0); // none through the thread pool: one file open at a time
    expect(fs.readFileSync(path.join(dir, 'dist/a7/p2957/index.html'), 'utf8')).toBe('page 2957');
    expect(fs.readdirSync(path.join(dir, 'dist')).length).toBe(50);
  });

  it('page writer: every file written synchronously on this thread, none through the thread pool', async () => {
    const dir = scratchDir('sg-writer-');
    const write = async (mode: 'sync' | undefined, out: string) => {
      configureEngine({ writes: mode });
      // A file already there and longer (a kept previous output, write.ts) is written over and cut to length.
      fs.mkdirSync(path.join(dir, out, 'a7/p487'), { recursive: true });
      fs.writeFileSync(path.join(dir, out, 'a7/p487/index.html'), 'x'.repeat(5000));
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
      await write(undefined, 'default');
      expect(writes.peak()).toBe(0); // nothing went through the thread pool
    } finally {
      writes.restore();
    }
    for (const out of ['sync', 'default']) {
      expect(fs.readFileSync(path.join(dir, out, 'a7/p487/index.html'), 'utf8')).toBe('page 487');
      expect(fs.readdirSync(path.join(dir, out)).length).toBe(20);
    }
    // A write that fails is reported by flush.
    for (const mode of ['sync', undefined] as const) {
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

  it('writer thread: every file written off the main thread, byte for byte, none through the thread pool', async () => {
    const dir = scratchDir('sg-thread-');
    fs.mkdirSync(path.join(dir, 'out', 'a7', 'p487'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'out', 'a7', 'p487', 'index.html'), 'x'.repeat(5000)); // longer: cut to length
    const writes = countPoolWrites(dir);
    const sync = vi.spyOn(fs, 'writeFileSync');
    const big = 'x'.repeat(300_000); // 100 of these queue more than the 16 MB after which write() waits
    try {
      const w = createThreadWriter(path.join(dir, 'out'));
      for (let i = 0; i < 600; i++) await w.write(`a${i % 20}/p${i}/index.html`, i % 6 ? `page ${i} é ✓` : `${big}${i}`);
      await w.write('bytes/logo.bin', new Uint8Array([0, 1, 2, 255]));
      await w.flush();
      expect(sync).not.toHaveBeenCalled(); // not on this thread
    } finally {
      sync.mockRestore();
      writes.restore();
    }
    expect(writes.peak()).toBe(0);
    const out = path.join(dir, 'out');
    expect(fs.readFileSync(path.join(out, 'a7/p487/index.html'), 'utf8')).toBe('page 487 é ✓');
    expect(fs.readFileSync(path.join(out, 'a6/p546/index.html'), 'utf8')).toBe(`${big}546`);
    expect([...fs.readFileSync(path.join(out, 'bytes/logo.bin'))]).toEqual([0, 1, 2, 255]);
    expect(fs.readdirSync(out).length).toBe(21);
    expect(fs.readdirSync(out).reduce((n, d) => n + fs.readdirSync(path.join(out, d)).length, 0)).toBe(601);
  });

  it('in a staging folder made empty, every writer truncates at open (no cut after) and a file written twice keeps the last bytes', async () => {
    const dir = scratchDir('sg-fresh-');
    const cut = vi.spyOn(fs, 'ftruncateSync');
    try {
      for (const mode of ['sync', 'thread'] as const) {
        const staging = await stageOutput(path.join(dir, `dist-${mode}`));
        configureEngine({ writes: mode });
        try {
          expect(staging.fresh).toBe(true);
          const w = mode === 'thread' ? createThreadWriter(staging.dir, staging.fresh) : createWriter(staging.dir, staging.fresh);
          await w.write('a/index.html', 'x'.repeat(5000));
          await w.write('b/index.html', 'page b');
          await w.write('a/index.html', 'page a'); // shorter, after a longer one: cut by O_TRUNC
          await w.flush();
          await staging.write('c.txt', 'longer text first');
          await staging.write('c.txt', 'short');
        } finally {
          configureEngine();
        }
        await staging.commit();
        const out = path.join(dir, `dist-${mode}`);
        expect([fs.readFileSync(path.join(out, 'a/index.html'), 'utf8'), fs.readFileSync(path.join(out, 'b/index.html'), 'utf8'), fs.readFileSync(path.join(out, 'c.txt'), 'utf8')], mode).toEqual(['page a', 'page b', 'short']);
      }
      expect(cut).not.toHaveBeenCalled();
    } finally {
      cut.mockRestore();
    }
  });

  it('writer thread: a write that fails is reported by flush with its path, and nothing after it is written', async () => {
    const dir = scratchDir('sg-thread-fail-');
    const out = outWithBlockedFolder(dir);
    await expectWritesStopAtFailure(createThreadWriter(out), out);
  });
});
