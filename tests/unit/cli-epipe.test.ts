// A reader that stops reading (`sitegen build | head -1`) must not end the build half-way: the build finishes,
// swaps dist/ in and exits with its own code.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, fixture } from '../helpers/cli.ts';

describe('sitegen build with its output closed early', () => {
  it('still writes the whole site and exits 0', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-epipe-'));
    try {
      fs.cpSync(fixture('basic'), tmp, { recursive: true });
      fs.rmSync(path.join(tmp, 'dist'), { recursive: true, force: true });
      const child = spawn(process.execPath, [BIN, 'build', '--root', tmp], { stdio: ['ignore', 'pipe', 'pipe'] });
      // Like `head -1`: read the first chunk, then close the pipe.
      child.stdout.once('data', () => child.stdout.destroy());
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += d; });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(stderr).not.toMatch(/EPIPE|Unhandled/);
      expect(code).toBe(0);
      expect(fs.existsSync(path.join(tmp, 'dist', 'index.html'))).toBe(true);
      expect(fs.existsSync(path.join(tmp, 'dist', '404.html'))).toBe(true);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
