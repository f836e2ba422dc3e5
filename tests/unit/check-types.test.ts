// `sitegen check` type-checks a site that has a tsconfig.json, with the site's own typescript, and reports
// each error located like every other message; build stays without a type check. The site is the starter
// of `sitegen init` (init-template/minimal/) as a user gets it, with its tsconfig.json pointing `sitegen-islands`
// at this checkout's sources (an installed site resolves the package's shipped types instead).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { siteFrom, type SiteFiles, type TestSite } from '../helpers/site.ts';
import { REPO } from '../helpers/cli.ts';
import { formatMessageLong } from '../../src/core/errors.ts';
import { besideRenderErrors, tscMessages } from '../../src/site/typecheckTsc.ts';
import { message } from '../../src/core/errors.ts';

function initTemplate(): SiteFiles {
  const dir = path.join(REPO, 'init-template/minimal');
  const files: SiteFiles = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files[path.relative(dir, p).split(path.sep).join('/')] = fs.readFileSync(p);
    }
  };
  walk(dir);
  const tsconfig = JSON.parse(String(files['tsconfig.json']));
  tsconfig.compilerOptions.paths = { 'sitegen-islands': [path.join(REPO, 'src/public.ts')] };
  tsconfig.compilerOptions.types = [...tsconfig.compilerOptions.types, 'node']; // the engine's sources use Node's types
  files['tsconfig.json'] = JSON.stringify(tsconfig, null, 2);
  return files;
}

// (tsc writes the entry's type out in full, and the text is cut where it grows long)
const MISSING_TITLE = /^Property 'title' is missing in type '\{ titel: string; date: Date; entry: Entry<\{ title: string; .*\(TS2322\)$/;
/** The line of the minimal starter's `routes: (content) => {`, where tsc reports a prop a route misspells. */
const ROUTES_LINE = fs.readFileSync(path.join(REPO, 'init-template/minimal/sitegen.config.ts'), 'utf8').split('\n').indexOf('  routes: (content) => {') + 1;
const MISSPELT = (t: string) => t.replace('props: { title: p.data.title, date: p.data.date, entry: p }', 'props: { titel: p.data.title, date: p.data.date, entry: p }');

let site: TestSite | null = null;
afterEach(() => { site?.remove(); site = null; });

describe('sitegen check type-checks', () => {
  it('passes the starter site, fails a misspelt prop with a located TypeError, and --no-typecheck skips it', async () => {
    site = await siteFrom(initTemplate());
    const good = await site.check();
    expect(good.errors).toEqual([]);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^✓ content valid: \d+ routes, 0 aliases, 4 files type-checked \(\d+ ms\)\n$/);

    site.edit('sitegen.config.ts', MISSPELT);
    const bad = await site.check();
    expect(bad.code).toBe(1);
    expect(bad.errors).toHaveLength(1);
    const [e] = bad.errors;
    expect(e.id).toBe('TypeError');
    expect(e.text).toMatch(MISSING_TITLE);
    expect(e.location).toEqual({ file: 'sitegen.config.ts', line: ROUTES_LINE, column: 3, lineText: '  routes: (content) => {' });
    expect(e.notes).toContainEqual({ text: "'title' is declared here.", location: expect.objectContaining({ file: 'templates/pages.tsx', line: 62 }) });
    expect(bad.stderr).toContain(formatMessageLong(e));
    expect(bad.stderr).toContain('hint: Fix the code at the line shown; `sitegen check --no-typecheck` skips this check.');

    // Without the type check, the misspelt prop passes (build never type-checks: it renders an empty <h1>).
    const skipped = await site.check({ typecheck: false });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).not.toContain('type-checked');

    site.edit('sitegen.config.ts', (t) => t.replace('titel: p.data.title', 'title: p.data.title'));
    const fixed = await site.check();
    expect(fixed.code).toBe(0);
    expect(fixed.errors).toEqual([]);
  }, 180_000);

  it('a name a template never imported is said once a line: as the render error, not again as TS2304', async () => {
    site = await siteFrom(initTemplate());
    site.edit('templates/pages.tsx', (t) => t.replace("import { href } from 'sitegen-islands';\n", ''));
    const r = await site.check();
    expect(r.code).toBe(1);
    const rendered = r.errors.filter((e) => e.id === 'RenderError');
    expect(rendered.length).toBeGreaterThan(0);
    for (const e of rendered) expect(e.render?.thrown).toBe('href is not defined');
    // The lines where rendering failed have no second, type error; the uses on other lines keep theirs.
    const failedLines = new Set(rendered.map((e) => `${e.location!.file}:${e.location!.line}`));
    const typeErrors = r.errors.filter((e) => e.id === 'TypeError');
    expect(typeErrors.length).toBeGreaterThan(0);
    for (const e of typeErrors) {
      expect(e.text).toMatch(/^Cannot find name 'href'/);
      expect(failedLines.has(`${e.location!.file}:${e.location!.line}`)).toBe(false);
    }
  }, 180_000);

  it('a config key sitegen refuses is said once: as the ConfigError with its did-you-mean, not again as TS2353', async () => {
    site = await siteFrom(initTemplate());
    site.edit('sitegen.config.ts', (t) => t.replace("site: { title: 'My site',", "site: { bsae: '/docs/', title: 'My site',"));
    const r = await site.check();
    expect(r.code).toBe(1);
    const config = r.errors.filter((e) => e.id === 'ConfigError');
    expect(config).toHaveLength(1);
    expect(config[0].text).toContain('bsae');
    expect(r.errors.filter((e) => e.id === 'TypeError' && e.location?.line === config[0].location!.line)).toEqual([]);
  }, 180_000);

  it('with TypeScript 7 (a package without the compiler API), runs the site\'s tsc and reports its errors located the same way', async () => {
    site = await siteFrom(initTemplate());
    // The site's own node_modules, its typescript the repository's TypeScript 7 (installed as typescript-7).
    const modules = path.join(site.root, 'node_modules');
    fs.unlinkSync(modules);
    fs.mkdirSync(modules);
    for (const name of fs.readdirSync(path.join(REPO, 'node_modules'))) {
      if (name !== 'typescript' && name !== '.bin') fs.symlinkSync(path.join(REPO, 'node_modules', name), path.join(modules, name), 'dir');
    }
    fs.symlinkSync(path.join(REPO, 'node_modules/typescript-7'), path.join(modules, 'typescript'), 'dir');
    const version = JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules/typescript-7/package.json'), 'utf8')).version as string;
    expect(version).toMatch(/^7\./);
    const good = await site.check();
    expect(good.errors).toEqual([]);
    expect(good.stdout).toMatch(new RegExp(`^✓ content valid: \\d+ routes, 0 aliases, type-checked by tsc ${version.replace(/\./g, '\\.')} \\(\\d+ ms\\)\n$`));

    site.edit('sitegen.config.ts', MISSPELT);
    const bad = await site.check();
    expect(bad.code).toBe(1);
    expect(bad.errors.map((e) => [e.id, e.text, e.location])).toEqual([['TypeError',
      expect.stringMatching(MISSING_TITLE),
      { file: 'sitegen.config.ts', line: ROUTES_LINE, column: 3, lineText: '  routes: (content) => {' }]]);
    expect(ROUTES_LINE).toBeGreaterThan(1);
    expect(bad.stderr).toContain(`sitegen.config.ts:${ROUTES_LINE}:3 Property`);
    expect(fs.existsSync(path.join(site.root, '.sitegen/cache/typecheck.tsbuildinfo'))).toBe(true);
  }, 180_000);

  it('skips with a one-line note when the site has no typescript installed, and says nothing without a tsconfig.json', async () => {
    const files = initTemplate();
    site = await siteFrom(files);
    // The site's own node_modules, without typescript (the repository's packages otherwise).
    const modules = path.join(site.root, 'node_modules');
    fs.unlinkSync(modules);
    fs.mkdirSync(modules);
    for (const name of fs.readdirSync(path.join(REPO, 'node_modules'))) {
      if (name !== 'typescript') fs.symlinkSync(path.join(REPO, 'node_modules', name), path.join(modules, name), 'dir');
    }
    site.edit('sitegen.config.ts', MISSPELT);
    const r = await site.check();
    expect(r.code).toBe(0);
    // The starter's package.json lists it: the packages were not installed.
    expect(r.stderr).toBe('  type check skipped: the site\'s package.json lists typescript, but it is not installed (run npm install)\n');
    site.edit('package.json', (t) => { const p = JSON.parse(t); delete p.devDependencies.typescript; return JSON.stringify(p, null, 2); });
    const unlisted = await site.check();
    expect(unlisted.stderr).toBe('  type check skipped: the site has a tsconfig.json but no typescript package installed (npm install -D typescript)\n');
    expect(unlisted.result.typecheck).toEqual({ skipped: expect.stringContaining('no typescript package') });

    fs.rmSync(path.join(site.root, 'tsconfig.json'));
    const none = await site.check();
    expect(none.code).toBe(0);
    expect(none.stderr).toBe('');
    expect(none.result.typecheck).toBeUndefined();
  }, 120_000);
});

describe("a tsc report read back (TypeScript 7's tsc --pretty false)", () => {
  it('one message per error, the last link of its explanation first, the others as notes; an error of no file unlocated', () => {
    const report = [
      "templates/a (1).tsx(2,23): error TS2322: Type '{ a: number; }' is not assignable to type 'P'.",
      "  Types of property 'a' are incompatible.",
      "    Property 'c' is missing in type '{ b: number; }'.",
      'error TS5083: Cannot read file \'/x/tsconfig.base.json\'.',
      '',
      'Found 2 errors in 1 file.',
    ].join('\n');
    const m = tscMessages('/nowhere', report);
    expect(m.map((x) => [x.text, x.location && [x.location.file, x.location.line, x.location.column], x.notes.map((n) => n.text)])).toEqual([
      ["Property 'c' is missing in type '{ b: number; }'. (TS2322)", ['templates/a (1).tsx', 2, 23], ["Type '{ a: number; }' is not assignable to type 'P'.", "Types of property 'a' are incompatible."]],
      ["Cannot read file '/x/tsconfig.base.json'. (TS5083)", null, []],
    ]);
  });
});

describe('type errors beside the other errors of a check', () => {
  it('drops only tsc\'s unknown-property error for the config key sitegen refused at that line, never another error of the line', () => {
    const at = (line: number) => ({ file: 'sitegen.config.ts', line, column: 3, lineText: '' });
    const others = [
      message('ConfigError', 'Unknown config key "site.bsae"', at(5)),
      message('ConfigError', 'routes() threw: Cannot read properties of undefined', at(9)),
    ];
    const typeErrors = [
      message('TypeError', "Object literal may only specify known properties, and 'bsae' does not exist in type 'SiteOptions'. (TS2353)", at(5)),
      message('TypeError', "Property 'titel' does not exist on type '{ title: string; }'. Did you mean 'title'? (TS2551)", at(9)),
      message('TypeError', "Object literal may only specify known properties, and 'lnag' does not exist in type 'SiteOptions'. (TS2353)", at(9)),
    ];
    expect(besideRenderErrors(typeErrors, others).map((m) => m.text)).toEqual([typeErrors[1].text, typeErrors[2].text]);
  });
});
