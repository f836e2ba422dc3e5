// The same site through `build`, `check` and `dev` must behave the same: these are the places where the two
// pipelines once disagreed (issue 13). Each scenario runs one throwaway copy of the basic fixture through
// every command and compares what a user sees.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sitegen } from '../helpers/cli.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { formatMessage } from '../../src/errors.ts';
import { copyFixture, editFile, removeCopy } from './dev-fixture.ts';

let dir = '';
afterEach(() => { if (dir) removeCopy(dir); dir = ''; });

/** The first report of `sitegen dev` for the site, as the overlay and the terminal show it. */
async function devErrors(root: string): Promise<string[]> {
  const site = await createDevSite({ root });
  try { return (await site.start()).errors.map(formatMessage); } finally { await site.close(); }
}

describe('a throw while the site module loads is a located error in every command', () => {
  const cases = [
    { what: 'a template', file: 'templates/pages.tsx', line: 4, edit: (t: string) => t.replace("import Counter from './islands/Counter.tsx';", "import Counter from './islands/Counter.tsx';\nif (Counter) throw new Error('template exploded');") },
    { what: 'the config', file: 'sitegen.config.ts', line: 6, edit: (t: string) => t.replace('const Page$', "if (Item$) throw new Error('config exploded');\nconst Page$") },
  ];
  for (const c of cases) {
    it(`${c.what}: build and check exit 1 with file:line and no stack, as dev reports it`, async () => {
      dir = copyFixture('basic');
      editFile(dir, c.file, c.edit);
      const expected = new RegExp(`${c.file.replace('.', '\\.')}:${c.line}:\\d+ loading sitegen.config.ts failed: (template|config) exploded`);
      for (const cmd of ['build', 'check']) {
        const r = sitegen([cmd, '--root', dir]);
        expect(r.stderr, cmd).toMatch(expected);
        expect(r.stderr, cmd).not.toMatch(/\n\s+at |bug in sitegen/);
        expect(r.code, cmd).toBe(1);
      }
      expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);
      const dev = await devErrors(dir);
      expect(dev).toHaveLength(1);
      expect(dev[0]).toMatch(expected);
    }, 60_000);
  }
});
