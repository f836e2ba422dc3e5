// One pipeline for build, check and dev (src/pipeline/): a config function that throws while the site is
// built — not only at import — is the same located message in every command, never "a bug in sitegen".
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sitegen } from '../helpers/cli.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { formatMessage } from '../../src/errors.ts';
import { copyFixture, editFile, removeCopy } from './dev-fixture.ts';

let dir = '';
afterEach(() => { if (dir) removeCopy(dir); dir = ''; });

async function devErrors(root: string): Promise<string[]> {
  const site = await createDevSite({ root });
  try { return (await site.start()).errors.map(formatMessage); } finally { await site.close(); }
}

/** The config with `field` added as a function whose second line throws; returns that line's number. */
function throwingConfig(root: string, field: string): number {
  let line = 0;
  editFile(root, 'sitegen.config.ts', (t) => {
    t = t.split('\n').filter((l) => !l.startsWith(`  ${field}:`)).join('\n'); // the fixture's own, if any
    const at = t.indexOf("  css: ['templates/site.css'],");
    line = t.slice(0, at).split('\n').length + 1;
    return `${t.slice(0, at)}  ${field}: () => {\n    throw new Error('${field} exploded');\n  },\n${t.slice(at)}`;
  });
  return line;
}

describe('a config function that throws during a build is a located error in every command', () => {
  // define() runs only where the client is bundled, so `check` (which does not bundle) never calls it.
  const cases = [
    { field: 'validate', commands: ['build', 'check'] },
    { field: 'csp', commands: ['build', 'check'] },
    { field: 'notices', commands: ['build', 'check'] },
    { field: 'define', commands: ['build'] },
  ];
  for (const c of cases) {
    it(`${c.field}(): build${c.commands.includes('check') ? ', check' : ''} and dev say where it threw`, async () => {
      dir = copyFixture('basic');
      const line = throwingConfig(dir, c.field);
      const expected = new RegExp(`sitegen\\.config\\.ts:${line}:\\d+ ${c.field}\\(\\) threw: ${c.field} exploded`);
      for (const cmd of c.commands) {
        const r = sitegen([cmd, '--root', dir]);
        expect(r.stderr, cmd).toMatch(expected);
        expect(r.stderr, cmd).not.toMatch(/\n\s+at |bug in sitegen/);
        expect(r.code, cmd).toBe(1);
      }
      expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);
      expect(await devErrors(dir)).toEqual([expect.stringMatching(expected)]);
    }, 60_000);
  }
});
