// A compiled site module keeps working when it is loaded from V8's code cache: a plugin that imports its
// server code lazily (the waitlist's database, `await import('@electric-sql/pglite')`) must start on the
// second load as on the first. Under Node 20 a script whose code cache V8 accepts loses its dynamic-import
// callback; the e2e preview's waitlist answered 503 to every sign-up once a check run in another process
// had left the site module's cache behind. Each load runs in a process of its own, as a preview would.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, sitegen } from '../helpers/cli.ts';
import { copyOf, SCRATCH } from '../helpers/scratch.ts';

const tmp = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-code-cache-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// The engine's loader (src/site/compiled.ts, which imports only Node's modules) with its types stripped, as
// the package's build ships it: each load below is then a plain `node`, without a TypeScript loader to start.
const loader = path.join(tmp, 'compiled.mjs');
fs.writeFileSync(loader, transformSync(fs.readFileSync(path.join(REPO, 'src/site/compiled.ts'), 'utf8'), { loader: 'ts', format: 'esm' }).code);

/**
 * Loads `file` through the engine's loader in a new Node process, runs its `start()` and saves the code cache
 * as a build does; `fromCache` is whether V8 took the cache the earlier load left (nothing was left to save).
 */
function load(file: string): { out: string; fromCache: boolean } {
  const script = `import { loadCompiled } from ${JSON.stringify(loader)};
const { exports, saveCodeCache } = loadCompiled(${JSON.stringify(file)});
import fs from 'node:fs';
const fromCache = saveCodeCache === null && fs.existsSync(${JSON.stringify(file)} + '.v8cache');
exports.start().then((r) => { saveCodeCache?.(); process.stdout.write(JSON.stringify({ out: String(r), fromCache })); },
  (e) => { saveCodeCache?.(); process.stdout.write(JSON.stringify({ out: 'failed: ' + (e.code ?? e.message), fromCache })); });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: REPO });
  expect(r.stderr.replace(/.*ExperimentalWarning.*\n|.*--trace-warnings.*\n/g, '')).toBe('');
  return JSON.parse(r.stdout);
}

describe('a compiled module loaded again, with the code cache its first load left', () => {
  it('still imports lazily: the second load runs import() like the first', () => {
    const file = path.join(tmp, 'lazy.cjs');
    fs.writeFileSync(file, `"use strict";\nexports.start = async () => { const { join } = await import("node:path"); return join("a", "b"); };\n`);
    for (let i = 0; i < 3; i++) expect(load(file).out, `load ${i + 1}`).toBe('a/b');
  });

  it('a module with no import() still gets its code cache, and runs from it', () => {
    const file = path.join(tmp, 'plain.cjs');
    // React's own messages quote import() and import('./X') in strings: that is no call.
    fs.writeFileSync(file, `"use strict";\nconst hint = "a dynamic import() call, lazy(() => import('./MyComponent'))";\nexports.start = async () => hint.slice(0, 9);\n`);
    expect(load(file)).toEqual({ out: 'a dynamic', fromCache: false });
    expect(load(file)).toEqual({ out: 'a dynamic', fromCache: true });
  });
});

describe('a site whose plugin imports a package with import()', () => {
  it('builds the second time as the first, when the module comes from the first build\'s code cache', async () => {
    const site = await copyOf('basic');
    try {
      site.edit('sitegen.config.ts', (t) => t.replace('  validate: (c) =>', [
        "  plugins: [{ name: 'lazy', outputs: async () => {",
        // A package (not a Node built-in, which esbuild turns into require()): the compiled module keeps import().
        "    const { marked } = await import('marked');",
        "    return [{ path: 'lazy.txt', contents: marked.parseInline('a *b*') }];",
        '  } }],',
        '  validate: (c) =>',
      ].join('\n')));
      // Two runs of the CLI, as a user builds twice: the first saves the code cache, the second loads it.
      // A content edit between them, so that the second is no "up to date" answer: it loads the module.
      for (const run of ['first', 'second']) {
        if (run === 'second') site.edit('content/pages/about.md', (t) => `${t}\nEdited.\n`);
        const r = sitegen(['build', '--root', site.root, '--quiet']);
        expect(r.stderr.replace(/.*ExperimentalWarning.*\n|.*--trace-warnings.*\n/g, ''), run).toBe('');
        expect(r.code, run).toBe(0);
        expect(fs.readFileSync(path.join(site.root, 'dist/lazy.txt'), 'utf8'), run).toBe('a <em>b</em>');
      }
    } finally {
      site.remove();
    }
  });
});
