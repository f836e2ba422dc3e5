// The build cache (node_modules/.cache/sitegen): a second build of an unchanged site reuses the compiled
// site module and client bundle and writes the same bytes; any edit to what they were made from is seen.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sitegen, fixture } from '../helpers/cli.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-cache-'));
const site = path.join(tmp, 'site');
fs.cpSync(fixture('basic'), site, { recursive: true, dereference: true, filter: (f) => !/[/\\](dist|\.sitegen)$/.test(f) });
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function build(out: string, env: NodeJS.ProcessEnv = {}, extra: string[] = []) {
  const r = sitegen(['build', '--root', site, '--out', path.join(tmp, out), '--json', ...extra], { env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { cached: string[] };
}

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, f.name);
      if (f.isDirectory()) walk(p); else out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const read = (out: string, file: string) => fs.readFileSync(path.join(tmp, out, file), 'utf8');

describe('build cache', () => {
  it('reuses the compiled site and bundle when nothing changed, with identical output', () => {
    expect(build('one').cached).toEqual([]);
    expect(build('two').cached).toEqual(['config', 'bundle']);
    expect(tree(path.join(tmp, 'two'))).toEqual(tree(path.join(tmp, 'one')));
  });

  it('recompiles after a template edit and shows it', () => {
    const file = path.join(site, 'templates', 'pages.tsx');
    const text = fs.readFileSync(file, 'utf8');
    const m = text.match(/<h1[^>]*>([^<{]+)</);
    expect(m, 'pages.tsx has a literal h1 text to edit').toBeTruthy();
    fs.writeFileSync(file, text.replace(m![0], m![0].replace(m![1], `${m![1]} EDITED`)));
    const r = build('three');
    expect(r.cached).not.toContain('config');
    expect(Object.values(tree(path.join(tmp, 'three'))).some((html) => html.includes('EDITED'))).toBe(true);
    expect(build('four').cached).toContain('config');
  });

  it('rebundles after a stylesheet or island edit', () => {
    fs.appendFileSync(path.join(site, 'templates', 'site.css'), '\n.cache-test { color: rebeccapurple }\n');
    const r = build('five');
    expect(r.cached).not.toContain('bundle');
    const css = fs.readdirSync(path.join(tmp, 'five', 'assets')).filter((f) => f.endsWith('.css'));
    expect(css.map((f) => read('five', `assets/${f}`)).join('')).toContain('.cache-test');

    fs.appendFileSync(path.join(site, 'templates', 'islands', 'Counter.tsx'), '\nexport const cacheTestMarker = "island-edit-marker";\n');
    expect(build('six').cached).not.toContain('bundle');
  });

  it('is bypassed by --no-cache and SITEGEN_NO_CACHE=1', () => {
    expect(build('seven', {}, ['--no-cache']).cached).toEqual([]);
    expect(build('eight', { SITEGEN_NO_CACHE: '1' }).cached).toEqual([]);
    expect(tree(path.join(tmp, 'eight'))).toEqual(tree(path.join(tmp, 'seven')));
  });

  it('the CLI run through tsx (SITEGEN_TSX=1, the fallback) builds the same site', () => {
    build('nine');
    build('ten', { SITEGEN_TSX: '1' });
    expect(tree(path.join(tmp, 'ten'))).toEqual(tree(path.join(tmp, 'nine')));
  });
});
