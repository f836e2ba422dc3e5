// The same site through `build`, `check` and `dev` must behave the same: these are the places where the two
// pipelines once disagreed (issue 13). Each scenario runs one throwaway copy of the basic fixture through
// every command and compares what a user sees.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { siteAt } from '../helpers/site.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { formatMessage } from '../../src/core/errors.ts';
import { editFile } from './dev-fixture.ts';
import { copyFixture, removeCopy } from '../helpers/scratch.ts';
import { withoutAssetHashes } from '../helpers/html.ts';

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
        const r = await siteAt(dir).run(cmd);
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

describe('islandsDir is honoured by the server compile as by the client bundle', () => {
  // (a folder of any name: the import of templates/widgets/Counter.tsx names no "islands/")
  it.each([['components/islands', '../components/islands/Counter.tsx'], ['templates/widgets', './widgets/Counter.tsx']])('build, preview and dev all render the island for hydration from a custom islands folder, %s', async (folder, spec) => {
    dir = copyFixture('basic');
    fs.mkdirSync(path.join(dir, path.dirname(folder)), { recursive: true });
    fs.renameSync(path.join(dir, 'templates/islands'), path.join(dir, folder));
    editFile(dir, 'templates/pages.tsx', (t) => t.replace("'./islands/Counter.tsx'", `'${spec}'`));
    editFile(dir, 'sitegen.config.ts', (t) => t.replace("css: ['templates/site.css'],", `css: ['templates/site.css'],\n  islandsDir: '${folder}',`));
    const island = '<sitegen-island data-island="Counter"';
    const r = await siteAt(dir).build();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const home = fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8');
    expect(home).toContain(island);
    expect(home).toMatch(/<script type="module" src="\/assets\/runtime-[A-Z0-9]+\.js">/);
    // A second build answers from the module cache: still wrapped.
    expect((await siteAt(dir).build()).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8')).toBe(home);
    // preview serves that page and every script it loads (the engine's preview, as `sitegen preview` runs it).
    const preview = await siteAt(dir).preview();
    try {
      const served = await (await fetch(`${preview.url}/`)).text();
      expect(served).toBe(home);
      for (const src of home.match(/\/assets\/[\w-]+\.js/g) ?? []) expect((await fetch(preview.url + src)).status, src).toBe(200);
    } finally { await preview.close(); }

    const site = await createDevSite({ root: dir });
    try {
      expect((await site.start()).errors).toEqual([]);
      expect(site.output.pages.get('index.html')?.html).toContain(island);
    } finally { await site.close(); }
  }, 60_000);
});

describe('an island is wrapped however its import is written', () => {
  // Before: a tsconfig alias failed the config compile with "Unexpected token ':'" (the .tsx was left for Node
  // to require), and `../Counter.tsx` from a subfolder of the islands folder rendered the island as static HTML.
  const cases: [string, (dir: string) => void][] = [
    ['through a tsconfig paths alias', (d) => {
      fs.writeFileSync(path.join(d, 'tsconfig.json'), JSON.stringify({ compilerOptions: { jsx: 'react-jsx', paths: { '~widgets/*': ['./templates/islands/*'] } } }));
      editFile(d, 'templates/pages.tsx', (t) => t.replace("'./islands/Counter.tsx'", "'~widgets/Counter.tsx'"));
    }],
    ['through a paths alias of a tsconfig.json it extends (every bare import is then looked at)', (d) => {
      fs.writeFileSync(path.join(d, 'tsconfig.base.json'), JSON.stringify({ compilerOptions: { jsx: 'react-jsx', paths: { '#islands/*': ['./templates/islands/*'] } } }));
      fs.writeFileSync(path.join(d, 'tsconfig.json'), '{\n  // the site\'s own settings on top of a shared base\n  "extends": "./tsconfig.base.json",\n}\n');
      editFile(d, 'templates/pages.tsx', (t) => t.replace("'./islands/Counter.tsx'", "'#islands/Counter.tsx'"));
    }],
    ['from a component in a subfolder of the islands folder, as ../Counter.tsx', (d) => {
      fs.mkdirSync(path.join(d, 'templates/islands/parts'));
      fs.writeFileSync(path.join(d, 'templates/islands/parts/Box.tsx'), "import Counter from '../Counter.tsx';\nexport default function Box() { return <div><Counter start={2} label=\"Clicks\" /></div>; }\n");
      editFile(d, 'templates/pages.tsx', (t) => t.replace("import Counter from './islands/Counter.tsx';", "import Box from './islands/parts/Box.tsx';").replace('<Counter start={2} label="Clicks" />', '<Box />'));
    }],
  ];
  it.each(cases)('%s: build and dev render it for hydration', async (_what, edit) => {
    dir = copyFixture('basic');
    edit(dir);
    const r = await siteAt(dir).build();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const home = fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8');
    expect(home).toContain('<sitegen-island data-island="Counter"');
    const site = await createDevSite({ root: dir });
    try {
      expect((await site.start()).errors).toEqual([]);
      expect(site.output.pages.get('index.html')?.html).toContain('<sitegen-island data-island="Counter"');
    } finally { await site.close(); }
  }, 60_000);
});

describe('a package linked into node_modules (a workspace package, npm link)', () => {
  it('is required from where it is, as any package: its own files beside it are found', async () => {
    dir = copyFixture('basic');
    // The site's own node_modules: the repository's packages, and @acme/ui linked from the workspace's packages/.
    const modules = path.join(dir, 'node_modules');
    const repoModules = fs.realpathSync(modules);
    fs.unlinkSync(modules);
    fs.mkdirSync(path.join(modules, '@acme'), { recursive: true });
    for (const name of fs.readdirSync(repoModules)) if (name !== '.bin') fs.symlinkSync(path.join(repoModules, name), path.join(modules, name), 'dir');
    const ui = path.join(dir, 'packages/ui');
    fs.mkdirSync(ui, { recursive: true });
    fs.writeFileSync(path.join(ui, 'package.json'), JSON.stringify({ name: '@acme/ui', version: '1.0.0', main: 'index.js' }));
    fs.writeFileSync(path.join(ui, 'motto.txt'), 'Read from beside the package');
    fs.writeFileSync(path.join(ui, 'index.js'), "const fs = require('fs'), path = require('path');\nexports.motto = fs.readFileSync(path.join(__dirname, 'motto.txt'), 'utf8');\n");
    fs.symlinkSync(ui, path.join(modules, '@acme/ui'), 'dir');
    editFile(dir, 'templates/pages.tsx', (t) => `import { motto } from '@acme/ui';\n${t.replace('<h1>Fixture home</h1>', '<h1>Fixture home</h1><p>{motto}</p>')}`);
    const r = await siteAt(dir).build();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8')).toContain('<p>Read from beside the package</p>');
  }, 60_000);
});

describe('an island reached from inside another island', () => {
  it('is part of that island: rendered plain in its HTML, as the browser renders it, with no wrapper or script of its own', async () => {
    dir = copyFixture('basic');
    fs.mkdirSync(path.join(dir, 'templates/islands/parts'));
    fs.writeFileSync(path.join(dir, 'templates/islands/Badge.tsx'), 'export default function Badge({ text }: { text: string }) { return <em>{text}</em>; }\n');
    fs.writeFileSync(path.join(dir, 'templates/islands/parts/Label.tsx'), "import Badge from '../Badge.tsx';\nexport function Label({ text }: { text: string }) { return <span><Badge text={text} /></span>; }\n");
    editFile(dir, 'templates/islands/Counter.tsx', (t) => `import { Label } from './parts/Label.tsx';\n${t.replace('<span id={id}>{label}</span>', '<span id={id}><Label text={label} /></span>')}`);
    const r = await siteAt(dir).build();
    expect(r.stderr).toBe('');
    const home = fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8');
    expect(home.match(/<sitegen-island data-island="(\w+)"/g)).toEqual(['<sitegen-island data-island="Counter"']);
    expect(home).toMatch(/<span id="[^"]+"><span><em>Clicks<\/em><\/span><\/span>/);
  }, 60_000);
});

describe('an island prop JSON cannot carry is located where the template passes it', () => {
  it('build, check and dev name templates/pages.tsx with the line and column of the island element', async () => {
    dir = copyFixture('basic');
    editFile(dir, 'templates/pages.tsx', (t) => t.replace('<Counter start={2} label="Clicks" />', '\n    <Counter start={2} label="Clicks" format={(n: number) => `${n}`} />\n  '));
    const lines = fs.readFileSync(path.join(dir, 'templates/pages.tsx'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('<Counter')) + 1;
    const at = { file: 'templates/pages.tsx', line, column: lines[line - 1]!.indexOf('<Counter') + 1 };
    for (const cmd of ['build', 'check']) {
      const r = await siteAt(dir).run(cmd);
      expect(r.code, cmd).toBe(1);
      expect(r.errors.map((e) => [e.id, e.text, e.location?.file, e.location?.line, e.location?.column]), cmd)
        .toEqual([['IslandPropsError', 'rendering / failed: island Counter: props.format is a function; island props must be plain JSON', at.file, at.line, at.column]]);
      expect(r.stderr, cmd).toContain(`templates/pages.tsx:${at.line}:${at.column} rendering / failed`);
    }
    const dev = await createDevSite({ root: dir });
    try {
      const errors = (await dev.start()).errors;
      expect(errors.map((e) => e.location && { file: e.location.file, line: e.location.line, column: e.location.column })).toEqual([at]);
    } finally { await dev.close(); }
  }, 60_000);
});

describe('an island without a default export', () => {
  it('is said in those words at the island file and at a named import, by build, check and dev', async () => {
    dir = copyFixture('basic');
    editFile(dir, 'templates/islands/Counter.tsx', (t) => t.replace('export default function Counter', 'export function Counter'));
    editFile(dir, 'templates/pages.tsx', (t) => t.replace("import Counter from './islands/Counter.tsx';", "import { Counter } from './islands/Counter.tsx';"));
    const expected = [
      ['TemplateSyntaxError', 'an island needs a default export, and this file has none', 'templates/islands/Counter.tsx', 0],
      ['TemplateSyntaxError', 'templates/islands/Counter.tsx is an island: import its default export, not a named one', 'templates/pages.tsx', 3],
    ];
    const seen = (errors: { id?: string; text: string; location: { file: string; line: number } | null }[]) => errors.map((e) => [e.id, e.text, e.location?.file, e.location?.line]);
    for (const cmd of ['build', 'check']) {
      const r = await siteAt(dir).run(cmd);
      expect(r.code, cmd).toBe(1);
      expect(seen(r.errors), cmd).toEqual(expected);
      expect(r.errors[0]!.hint).toBe("An island is its file's default export: export default function Counter(…) in templates/islands/Counter.tsx, imported as import Counter from '…/Counter.tsx'.");
    }
    const dev = await createDevSite({ root: dir });
    try { expect(seen((await dev.start()).errors)).toEqual(expected); } finally { await dev.close(); }
  }, 60_000);
});

describe('dev refreshes routes with the defaults of route.ts', () => {
  it('after an edit, every page dev serves is the page build writes for the same files', async () => {
    dir = copyFixture('basic');
    const site = await createDevSite({ root: dir });
    try {
      expect((await site.start()).errors).toEqual([]);
      // Same paths and aliases, new props and title: dev reuses its route table and refreshes the routes.
      editFile(dir, 'content/items/alpha.yaml', (t) => t.replace('title: Alpha', 'title: Alpha two'));
      const report = await site.apply([{ file: 'content/items/alpha.yaml', kind: 'change' }]);
      expect(report?.errors).toEqual([]);
      expect(report?.changed).toContain('/items/alpha/');
      expect((await siteAt(dir).build()).code).toBe(0);
      // Dev bundles React's development build with source maps, so only the assets' hashes may differ.
      for (const [file, page] of site.output.pages) {
        expect(withoutAssetHashes(page.html), file).toBe(withoutAssetHashes(fs.readFileSync(path.join(dir, 'dist', file), 'utf8')));
      }
    } finally { await site.close(); }
  }, 60_000);
});
