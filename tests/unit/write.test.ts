// The staging writer never opens more than MAX_WRITES_IN_FLIGHT files, however many writes are started:
// a 10,000-page site with 55,000 aliases once failed with EMFILE.
import { describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stageOutput, MAX_WRITES_IN_FLIGHT } from '../../src/write.ts';

describe('staging writes', () => {
  it('bounds the files open at once and writes every file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bound-'));
    let open = 0, peak = 0;
    const real = fsp.writeFile;
    const spy = vi.spyOn(fsp, 'writeFile').mockImplementation(async (...args: any[]) => {
      peak = Math.max(peak, ++open);
      try { return await (real as any)(...args); } finally { open--; }
    });
    try {
      const staging = await stageOutput(path.join(dir, 'dist'));
      await Promise.all(Array.from({ length: 3000 }, (_, i) => staging.write(`a${i % 50}/p${i}/index.html`, `page ${i}`)));
      await staging.commit();
    } finally {
      spy.mockRestore();
    }
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(MAX_WRITES_IN_FLIGHT);
    expect(fs.readFileSync(path.join(dir, 'dist/a7/p2957/index.html'), 'utf8')).toBe('page 2957');
    expect(fs.readdirSync(path.join(dir, 'dist')).length).toBe(50);
  });
});
