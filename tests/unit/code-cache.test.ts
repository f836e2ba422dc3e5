// The install's code cache (`sitegen prepare`, site/vendor.ts saveInstallCodeCache): a compiled module's
// first load takes it, and then saves the build's own cache, which every later load prefers.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';

import { saveInstallCodeCache } from '../../src/site/vendor.ts';
import * as loader from '../../src/site/compiled.ts';
import { SCRATCH } from '../helpers/scratch.ts';

describe('code caches of compiled modules', () => {
  it('prepare leaves an install cache; the first load uses it and saves its own; later loads use that one', async () => {
    const dir = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-codecache-'));
    try {
      const file = path.join(dir, 'mod.cjs');
      fs.writeFileSync(file, 'exports.twice = (n) => n * 2;\nexports.name = "mod";\n');
      let seen = 0;
      await saveInstallCodeCache(file, (v) => { seen = v.twice(21); });
      expect(seen).toBe(42);
      expect(fs.existsSync(`${file}.v8cache-install`)).toBe(true);
      expect(fs.existsSync(`${file}.v8cache`)).toBe(false);

      const first = loader.loadCompiled(file);
      expect(first.exports.twice(2)).toBe(4);
      expect(first.saveCodeCache).not.toBeNull(); // the install cache serves once, then the build's own is written
      first.saveCodeCache!();
      expect(fs.existsSync(`${file}.v8cache`)).toBe(true);

      const second = loader.loadCompiled(file);
      expect(second.exports.name).toBe('mod');
      expect(second.saveCodeCache).toBeNull();
      // Without any cache a load works too, and offers to save one.
      fs.rmSync(`${file}.v8cache`); fs.rmSync(`${file}.v8cache-install`);
      expect(loader.loadCompiled(file).saveCodeCache).not.toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
