// Every TypeScript sample of README.md and the documentation (docs/content/*.md) compiles: each ```ts or
// ```tsx block is a whole sitegen.config.ts (or the site file its first line names), type-checked in a copy of the site `sitegen init` writes (with the docs starter's components; its
// templates are what the samples import), against the engine's public API. A sample that stops compiling,
// or that imports a name the package does not export, fails here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

const FENCE = /^```(tsx|ts)[^\n]*\n([\s\S]*?)^```$/gm;
const files = ['README.md', ...fs.readdirSync(path.join(REPO, 'docs/content')).filter((f) => f.endsWith('.md')).map((f) => `docs/content/${f}`)];
const samples = files.flatMap((file) => {
  const text = fs.readFileSync(path.join(REPO, file), 'utf8');
  return [...text.matchAll(FENCE)].map((m) => ({ file, line: text.slice(0, m.index).split('\n').length + 1, lang: m[1]!, code: m[2]! }));
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-samples-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('documentation samples', () => {
  it('shows, where it says it is the config `sitegen init` writes, that config as the minimal starter has it', () => {
    const page = fs.readFileSync(path.join(REPO, 'docs/content/authoring.md'), 'utf8');
    const after = page.slice(page.indexOf('This is the config `sitegen init` writes'));
    const sample = /^```ts\n([\s\S]*?)^```$/m.exec(after)?.[1];
    expect(sample).toBe(fs.readFileSync(path.join(REPO, 'init-template/minimal/sitegen.config.ts'), 'utf8'));
  });

  it('finds the samples', () => {
    expect(samples.length).toBeGreaterThanOrEqual(4);
    expect(samples.map((s) => s.file)).toContain('README.md');
  });

  it('type-checks every sample as the sitegen.config.ts of a new site', () => {
    fs.cpSync(path.join(REPO, 'init-template/minimal'), dir, { recursive: true });
    // The components the page on components in Markdown registers, from the docs starter.
    fs.cpSync(path.join(REPO, 'init-template/docs/templates/components'), path.join(dir, 'templates/components'), { recursive: true });
    for (const f of ['Tabs.tsx', 'Tabs.client.ts']) fs.copyFileSync(path.join(REPO, 'init-template/docs/templates/islands', f), path.join(dir, 'templates/islands', f));
    // A sample whose first line names a site file (`// templates/islands/Counter.tsx`) is that file, beside
    // the other such files of its page (so one can import another); any other is a sitegen.config.ts.
    const roots = samples.map((s, i) => {
      const named = /^\/\/ (templates\/[\w./-]+\.tsx?)\n/.exec(s.code)?.[1];
      // (a config is a .ts file, as sitegen reads it: a sample that writes JSX in it fails, as sitegen would)
      const f = named ? path.join(dir, `files-${path.basename(s.file, '.md')}`, named) : path.join(dir, `sample-${i}.config.ts`);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, s.code);
      // A site file the starter lacks is in the site too, for a config sample of its page to import.
      const inSite = named && path.join(dir, named);
      if (inSite && !fs.existsSync(inSite)) { fs.mkdirSync(path.dirname(inSite), { recursive: true }); fs.writeFileSync(inSite, s.code); }
      return f;
    });
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.ReactJSX, strict: true, noEmit: true, skipLibCheck: true, isolatedModules: true,
      allowImportingTsExtensions: true, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: ['react', 'node'], typeRoots: [path.join(REPO, 'node_modules/@types')],
      baseUrl: dir,
      paths: { 'sitegen-islands': [path.join(REPO, 'src/public.ts')], 'react/jsx-runtime': [path.join(REPO, 'node_modules/@types/react/jsx-runtime.d.ts')], '*': [path.join(REPO, 'node_modules/@types/*'), path.join(REPO, 'node_modules/*')] },
    };
    const program = ts.createProgram(roots, options);
    // The samples' own diagnostics: checking them checks what they use of the engine, not every engine body.
    const diagnostics = roots.flatMap((f) => { const file = program.getSourceFile(f)!; return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]; });
    const problems = diagnostics.filter((d) => d.file && roots.includes(path.resolve(d.file.fileName))).map((d) => {
      const i = roots.indexOf(path.resolve(d.file!.fileName));
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${samples[i]!.file}:${samples[i]!.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
