// The build cache: a second build of an unchanged site reuses the compiled site module, the client bundle
// and the parsed content, and writes the same bytes; any edit to what they were made from is seen, and
// errors are as located as without a cache.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sitegen, fixture, REPO } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const tmp = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-cache-'));
const site = path.join(tmp, 'site');
fs.cpSync(fixture('basic'), site, { recursive: true, dereference: true, filter: (f) => !/[/\\](dist|\.sitegen)$/.test(f) });
// The install's client bundle store (src/islands/clientStore.ts) keeps every bundle an earlier run made: a token
// of this run's in the island, and in each edit below, makes each bundle one that no run has made before.
const token = randomBytes(6).toString('hex');
fs.appendFileSync(path.join(site, 'templates', 'islands', 'Counter.tsx'), `\n(globalThis as Record<string, unknown>).cacheTestRun = '${token}';\n`);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// In process (the fixture API runs the CLI's own build command): what is cached lives on disk, in
// <root>/.sitegen and node_modules/.cache, so each build finds only what an earlier one wrote there, as a
// new `sitegen build` process would. The tsx fallback is a property of the binary and keeps a real process.
async function build(out: string, env: NodeJS.ProcessEnv = {}, flags: { cache?: boolean } = {}) {
  const r = await siteAt(site).build({ out: path.join(tmp, out), json: true, env, ...flags });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { cached: string[] };
}

function cliBuild(out: string, env: NodeJS.ProcessEnv = {}) {
  const r = sitegen(['build', '--root', site, '--out', path.join(tmp, out), '--json'], { env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { cached: string[] };
}

async function failingBuild(out: string, env: NodeJS.ProcessEnv = {}) {
  const r = await siteAt(site).build({ out: path.join(tmp, out), env });
  expect(r.code).toBe(1);
  return r.stderr;
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
  it('reuses the compiled site and bundle when nothing changed, with identical output', async () => {
    expect((await build('one')).cached).toEqual([]);
    expect((await build('two')).cached).toEqual(['config', 'content', 'bundle']);
    expect(tree(path.join(tmp, 'two'))).toEqual(tree(path.join(tmp, 'one')));
  });

  it('recompiles after a template edit and shows it', async () => {
    const file = path.join(site, 'templates', 'pages.tsx');
    const text = fs.readFileSync(file, 'utf8');
    const m = text.match(/<h1[^>]*>([^<{]+)</);
    expect(m, 'pages.tsx has a literal h1 text to edit').toBeTruthy();
    fs.writeFileSync(file, text.replace(m![0], m![0].replace(m![1], `${m![1]} EDITED`)));
    const r = await build('three');
    expect(r.cached).not.toContain('config');
    expect(Object.values(tree(path.join(tmp, 'three'))).some((html) => html.includes('EDITED'))).toBe(true);
    expect((await build('four')).cached).toContain('config');
  });

  it('rebundles after a stylesheet or island edit', async () => {
    fs.appendFileSync(path.join(site, 'templates', 'site.css'), `\n.cache-test-${token} { color: rebeccapurple }\n`);
    const r = await build('five');
    expect(r.cached).not.toContain('bundle');
    const css = fs.readdirSync(path.join(tmp, 'five', 'assets')).filter((f) => f.endsWith('.css'));
    expect(css.map((f) => read('five', `assets/${f}`)).join('')).toContain(`.cache-test-${token}`);

    fs.appendFileSync(path.join(site, 'templates', 'islands', 'Counter.tsx'), `\n(globalThis as Record<string, unknown>).cacheTestMarker = 'island-edit-${token}';\n`);
    expect((await build('six')).cached).not.toContain('bundle');
    expect(Object.values(tree(path.join(tmp, 'six', 'assets'))).some((js) => js.includes(`island-edit-${token}`))).toBe(true);
  });

  it('re-parses an edited content file and locates its errors as a fresh build does', async () => {
    const file = path.join(site, 'content', 'items', 'alpha.yaml');
    const text = fs.readFileSync(file, 'utf8');
    expect((await build('c1')).cached).toContain('content');
    fs.writeFileSync(file, text.replace('title: Alpha', 'title: Alpha Edited'));
    expect((await build('c2')).cached).not.toContain('content');
    expect(read('c2', 'items/alpha/index.html')).toContain('Alpha Edited');
    expect((await build('c3')).cached).toContain('content');

    try {
      fs.writeFileSync(file, text.replace('price: 3', 'price: three'));
      const cold = await failingBuild('bad', { SITEGEN_NO_CACHE: '1' });
      const warm = await failingBuild('bad');
      expect(warm).toContain('content/items/alpha.yaml:3:8 price:');
      expect(warm).toBe(cold);
    } finally {
      fs.writeFileSync(file, text);
    }
  });

  it('re-validates cached content against a changed schema, with located errors', async () => {
    await build('s0'); // the last test rewrote alpha.yaml
    expect((await build('s1')).cached).toContain('content');
    const config = path.join(site, 'sitegen.config.ts');
    const text = fs.readFileSync(config, 'utf8');
    try {
      fs.writeFileSync(config, text.replace('price: z.number() })', 'price: z.number(), sku: z.string() })'));
      const warm = await failingBuild('bad');
      const cold = await failingBuild('bad', { SITEGEN_NO_CACHE: '1' });
      expect(warm).toMatch(/content\/items\/alpha\.yaml:\d+:\d+ sku:/);
      expect(warm).toBe(cold);
    } finally {
      fs.writeFileSync(config, text);
    }
    expect((await build('s4')).cached).toContain('content');
  });

  it('is bypassed by --no-cache and SITEGEN_NO_CACHE=1', async () => {
    expect((await build('seven', {}, { cache: false })).cached).toEqual([]);
    expect((await build('eight', { SITEGEN_NO_CACHE: '1' })).cached).toEqual([]);
    expect(tree(path.join(tmp, 'eight'))).toEqual(tree(path.join(tmp, 'seven')));
  });

  it('compiles the site and its islands again when tsconfig.json sends an import elsewhere, into the same output too', async () => {
    const write = (rel: string, text: string) => { fs.mkdirSync(path.dirname(path.join(site, rel)), { recursive: true }); fs.writeFileSync(path.join(site, rel), text); };
    for (const v of ['a', 'b']) write(`templates/${v}/label.ts`, `export const LABEL = 'label-${v}-${token}';\n`);
    const tsconfig = (to: string) => write('tsconfig.json', JSON.stringify({ compilerOptions: { jsx: 'react-jsx', paths: { '@label/*': [`./templates/${to}/*`] } } }));
    tsconfig('a');
    const pages = path.join(site, 'templates', 'pages.tsx');
    fs.writeFileSync(pages, `import { LABEL } from '@label/label.ts';\n${fs.readFileSync(pages, 'utf8').replace(/<h1>Fixture home/, '<h1>{LABEL} Fixture home')}`);
    fs.appendFileSync(path.join(site, 'templates', 'islands', 'Counter.tsx'), `\nimport { LABEL } from '@label/label.ts';\n(globalThis as Record<string, unknown>).cacheTestLabel = LABEL;\n`);
    const labels = (out: string) => [read(out, 'index.html'), Object.values(tree(path.join(tmp, out, 'assets'))).join('')].map((t) => t.match(/label-([ab])-/)?.[1]);
    await build('alias');
    expect(labels('alias')).toEqual(['a', 'a']);
    tsconfig('b'); // (only tsconfig.json changes: no source the compiles read)
    const r = await build('alias');
    expect(r.cached).not.toContain('config');
    expect(r.cached).not.toContain('bundle');
    expect(labels('alias')).toEqual(['b', 'b']);
    expect((await build('alias')).cached).toEqual(['up to date']);
    // The same through a config it extends: a change there is seen too.
    write('tsconfig.base.json', JSON.stringify({ compilerOptions: { jsx: 'react-jsx', paths: { '@label/*': ['./templates/a/*'] } } }));
    write('tsconfig.json', JSON.stringify({ extends: './tsconfig.base.json' }));
    await build('alias');
    expect(labels('alias')).toEqual(['a', 'a']);
    write('tsconfig.base.json', JSON.stringify({ compilerOptions: { jsx: 'react-jsx', paths: { '@label/*': ['./templates/b/*'] } } }));
    await build('alias');
    expect(labels('alias')).toEqual(['b', 'b']);
  });

  it('the CLI run through tsx (SITEGEN_TSX=1, the fallback) builds the same site', async () => {
    await build('nine');
    cliBuild('ten', { SITEGEN_TSX: '1' });
    expect(tree(path.join(tmp, 'ten'))).toEqual(tree(path.join(tmp, 'nine')));
  });

  it("`sitegen prepare` (the package's postinstall) leaves the vendor bundles builds and dev load, and names them", () => {
    const r = sitegen(['prepare']);
    expect(r.code, r.stderr).toBe(0);
    const files = r.stdout.match(/compiled for this install in \d+ ms \((.+)\)/)?.[1].split(', ') ?? [];
    // One for builds (production), one for `sitegen dev` (React's development build).
    expect(files.filter((f) => /vendor-[0-9a-f]+\.cjs$/.test(f)), r.stdout).toHaveLength(2);
    for (const file of files) expect(fs.existsSync(path.resolve(REPO, file)), file).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).scripts.postinstall).toMatch(/bin\/sitegen\.js prepare/);
  });
});
