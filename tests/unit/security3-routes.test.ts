// A route path, alias or output with a control character (NUL above all: the file system refuses it) is a
// located InvalidRoute error, and the build stops before writing: the previous dist/ stays as it was.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.ts';
import { formatMessage } from '../../src/core/errors.ts';
import { editFile } from './dev-fixture.ts';
import { copyFixture, removeCopy } from '../helpers/scratch.ts';

let dir: string;
beforeAll(() => { dir = copyFixture('basic'); });
afterAll(() => removeCopy(dir));

const withRoute = (route: string) => editFile(dir, 'sitegen.config.ts', (t) => t.replace(
  "    { path: '/404',",
  `    ${route},\n    { path: '/404',`,
));

describe('control characters in route paths', () => {
  it('builds the fixture first (the dist/ the failing builds must leave alone)', async () => {
    expect((await build({ root: dir })).errors).toEqual([]);
  });
  for (const [what, route, expected] of [
    ['a path with NUL', `{ path: '/a\\u0000b', component: Doc, props: { title: 'x', html: '' }, title: 'x', source: 'content/pages/about.md' }`, 'route "/a\\u0000b" must not contain'],
    ['an alias with NUL', `{ path: '/ok', component: Doc, props: { title: 'x', html: '' }, title: 'x', source: 'content/pages/about.md', aliases: ['/old\\u0000'] }`, 'alias "/old\\u0000" of /ok/ must not contain'],
    ['a path with a newline', `{ path: '/a\\nb', component: Doc, props: { title: 'x', html: '' }, title: 'x', source: 'content/pages/about.md' }`, 'route "/a\\nb" must not contain'],
    ['an output with NUL', `{ path: '/feed', output: 'feed\\u0000.xml', body: () => 'x', source: 'content/pages/about.md' }`, 'route /feed output "feed\\u0000.xml" must be'],
  ] as const) {
    it(`${what} is a located error, not a crash; dist/ is untouched`, async () => {
      const before = fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8');
      const original = fs.readFileSync(path.join(dir, 'sitegen.config.ts'), 'utf8');
      withRoute(route);
      try {
        const r = await build({ root: dir });
        expect(r.errors).toHaveLength(1);
        expect(r.errors[0].id).toBe(what.includes('output') ? 'ConfigError' : 'InvalidRoute');
        // A route the config writes is located there, naming its file; an alias, in its file (none writes it here).
        expect(r.errors[0].location?.file).toBe(what.includes('alias') ? 'content/pages/about.md' : 'sitegen.config.ts');
        if (!what.includes('alias')) expect(r.errors[0].notes.map((n) => n.text)).toEqual(['the route of content/pages/about.md']);
        const shown = formatMessage(r.errors[0]);
        expect(shown).toContain(expected);
        expect(shown).not.toMatch(/[\u0000\n]b/);
        expect(fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8')).toBe(before);
      } finally {
        fs.writeFileSync(path.join(dir, 'sitegen.config.ts'), original);
      }
    });
  }
  it('a plugin output path with NUL is an error naming the plugin, not a crash', async () => {
    const original = fs.readFileSync(path.join(dir, 'sitegen.config.ts'), 'utf8');
    editFile(dir, 'sitegen.config.ts', (t) => t.replace('  validate:', "  plugins: [{ name: 'feeds', outputs: () => [{ path: 'feed\\u0000.xml', contents: 'x' }] }],\n  validate:"));
    try {
      const r = await build({ root: dir });
      expect(r.errors.map(formatMessage)).toEqual([expect.stringContaining('plugin "feeds" output path "feed\\u0000.xml" must not contain control characters')]);
    } finally {
      fs.writeFileSync(path.join(dir, 'sitegen.config.ts'), original);
    }
  });
});
