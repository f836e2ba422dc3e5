// ARCHITECTURE.md is the map of src/: every path it names must be there, so the map cannot drift from the
// code as files move. And no engine file grows past 300 lines (a file that long holds more than one job);
// an exception would be listed in LONG_FILES with its reason (there is none).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

const MAX_LINES = 300;
/** Files allowed over MAX_LINES, each with the reason. */
const LONG_FILES: Record<string, string> = {
};

const architecture = fs.readFileSync(path.join(REPO, 'ARCHITECTURE.md'), 'utf8');
const STAGES = fs.readdirSync(path.join(REPO, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

/** Every path the document names: `src/...`, `cli/...`, `bin/...`, `tests/...`, and a src folder's
 *  files named without `src/` ("pipeline/routes.ts"). */
function namedPaths(text: string): string[] {
  const found = new Set<string>();
  const token = /[\w./*<>-]+/g;
  for (const [t] of text.matchAll(token)) {
    let end = t.length;
    while (end > 0 && '.,)'.includes(t[end - 1])) end--; // sentence punctuation after a path
    const p = t.slice(0, end);
    const [first] = p.split('/');
    if (!p.includes('/') || p.startsWith('.') || p.includes('*') || p.includes('<')) continue;
    if (['src', 'cli', 'bin', 'tests', 'scripts', 'plugins', 'templates', 'docs'].includes(first)) found.add(p);
    else if (STAGES.includes(first) && /\.(ts|tsx|mts)$/.test(p)) found.add(`src/${p}`);
  }
  return [...found].sort();
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|tsx|mts)$/.test(e.name) ? [p] : [];
  });
}

describe('ARCHITECTURE.md', () => {
  it('names only paths that exist', () => {
    const paths = namedPaths(architecture);
    expect(paths.length).toBeGreaterThan(60);
    expect(paths.filter((p) => !fs.existsSync(path.join(REPO, p.replace(/\/$/, ''))))).toEqual([]);
  });

  it('names every folder of src/', () => {
    expect(STAGES.filter((d) => !architecture.includes(`src/${d}/`))).toEqual([]);
  });
});

describe('src/', () => {
  it(`has no file over ${MAX_LINES} lines but the ones listed with their reason`, () => {
    const long = sourceFiles(path.join(REPO, 'src'))
      .map((f) => [path.relative(REPO, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, n]) => n > MAX_LINES).map(([f]) => f).sort();
    expect(long.filter((f) => !(f in LONG_FILES))).toEqual([]);
  });

  it('has one entry file at its top, the public API', () => {
    expect(fs.readdirSync(path.join(REPO, 'src')).filter((n) => /\.(ts|tsx)$/.test(n))).toEqual(['public.ts']);
  });
});
