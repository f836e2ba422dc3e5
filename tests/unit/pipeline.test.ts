// One pipeline for build, check and dev (src/pipeline/): a config function that throws while the site is
// built — not only at import — is the same located message in every command, never "a bug in sitegen".
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { siteAt } from '../helpers/site.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { formatMessage } from '../../src/core/errors.ts';
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
  const cases = [
    { field: 'validate', commands: ['build', 'check'] },
    { field: 'csp', commands: ['build', 'check'] },
    { field: 'notices', commands: ['build', 'check'] },
    { field: 'define', commands: ['build', 'check'] },
  ];
  for (const c of cases) {
    it(`${c.field}(): build${c.commands.includes('check') ? ', check' : ''} and dev say where it threw`, async () => {
      dir = copyFixture('basic');
      const line = throwingConfig(dir, c.field);
      const expected = new RegExp(`sitegen\\.config\\.ts:${line}:\\d+ ${c.field}\\(\\) threw: ${c.field} exploded`);
      for (const cmd of c.commands) {
        const r = await siteAt(dir).run(cmd);
        expect(r.stderr, cmd).toMatch(expected);
        expect(r.stderr, cmd).not.toMatch(/\n\s+at |bug in sitegen/);
        expect(r.code, cmd).toBe(1);
      }
      expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);
      expect(await devErrors(dir)).toEqual([expect.stringMatching(expected)]);
    }, 60_000);
  }
});

describe('build, check and dev plan the same output', () => {
  it('one session per mode: the same routes, alias pages, host files and link targets', async () => {
    dir = copyFixture('basic');
    const { openSession } = await import('../../src/pipeline/session.ts');
    const plans = [];
    for (const mode of ['build', 'check', 'dev'] as const) {
      const session = await openSession({ root: dir, mode });
      try {
        expect(await session.load(), mode).toEqual([]);
        const plan = await session.plan();
        expect(plan.errors, mode).toEqual([]);
        plans.push({
          routes: plan.routing!.table.routes.map((r) => `${r.path} → ${r.output}`),
          aliasPages: plan.outputs!.aliasPages.map((a) => `${a.from} → ${a.to}`),
          hostFiles: plan.outputs!.hostFiles,
          targets: ['/', '/items/alpha/', '/old/alpha/', '/sitemap.xml', '/favicon.svg', '/nowhere/'].map((p) => plan.outputs!.targets.has(p)),
        });
      } finally {
        await session.close();
      }
    }
    expect(plans[0].routes).toContain('/items/alpha/ → items/alpha/index.html');
    expect(plans[0].targets).toEqual([true, true, true, true, true, false]);
    expect(plans[1]).toEqual(plans[0]);
    expect(plans[2]).toEqual(plans[0]);
  }, 60_000);
});
