// A build over the output of the builds before renders only the pages whose inputs changed (their route,
// the collections their render read, the site module, the asset links) and leaves the other page files as
// they were, yet its output is byte for byte a clean build's: checked after every step of a seeded run of
// random edits against a clean build (no output, content or page caches before it: tests/helpers/cleanBuild.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { readTree, type BuildRun, type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';
import { prng } from '../helpers/prng.ts';
import { cleanBuilder } from '../helpers/cleanBuild.ts';

let site: TestSite;
beforeAll(async () => {
  site = await copyOf('basic');
  cleanBuild = cleanBuilder(site);
  // The layout reads a collection: every page depends on the pages' titles, not only on its props.
  site.edit('templates/pages.tsx', (t) => t
    .replace('export function Layout({ children }: LayoutProps) {', 'export function Layout({ children, content }: LayoutProps) {')
    .replace('<footer>footer</footer>', "<footer>footer {content.pages.map((p: any) => p.data.title).join(' / ')}</footer>"));
});
afterAll(() => site?.remove());

type Stamp = string;
/** Every page file's identity on disk: inode and mtime (a file written again gets a new mtime). */
function stamps(dir: string): Map<string, Stamp> {
  const out = new Map<string, Stamp>();
  for (const rel of Object.keys(readTree(dir))) {
    if (!rel.endsWith('.html')) continue;
    const s = fs.statSync(path.join(dir, rel));
    out.set(rel, `${s.ino}:${s.mtimeMs}`);
  }
  return out;
}

// A clean build to compare with, reusing a checked compile of unchanged code (tests/helpers/cleanBuild.ts).
let cleanBuild: () => Promise<BuildRun>;

async function buildAndCompare(step: string): Promise<Map<string, Stamp>> {
  const inc = await site.build();
  expect(inc.errors, step).toEqual([]);
  const clean = await cleanBuild();
  expect(clean.errors, step).toEqual([]);
  const a = inc.output();
  const b = clean.output();
  expect(Object.keys(a).sort(), step).toEqual(Object.keys(b).sort());
  for (const f of Object.keys(b)) expect(a[f], `${step}: ${f}`).toBe(b[f]);
  return stamps(inc.outDir);
}

const words = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Kappa'];

// SITEGEN_INCREMENTAL_STEPS=1000 runs the long form (1,000 steps passed in 223 s here); npm test runs 40.
// The seeded run's timeout grows with its steps (3 s a step, never under 10 minutes): the long form must
// fail on a wrong output, not on the clock.
const steps = Number(process.env.SITEGEN_INCREMENTAL_STEPS ?? 40);
const seededTimeout = Math.max(600_000, steps * 3_000);

describe('incremental build', () => {
  it('a page whose inputs did not change is left as it was; one whose props changed is written', async () => {
    const first = await buildAndCompare('first');
    const second = await buildAndCompare('second'); // stages in a fresh folder: everything written
    // The third build stages in the first one's output: nothing changed, so no page is written.
    const third = await buildAndCompare('third');
    expect(third).toEqual(first);
    site.edit('content/items/alpha.yaml', (t) => t.replace(/price: \d+/, 'price: 99'));
    const fourth = await buildAndCompare('alpha price');
    // Staged in the second build's output: only the pages alpha's price feeds are written again.
    const written = [...fourth].filter(([f, s]) => second.get(f) !== s).map(([f]) => f).sort();
    expect(written).toEqual(['items/alpha/index.html']);
    // The layout reads the pages' titles: a title edit writes every page that has the layout.
    site.edit('content/pages/about.md', (t) => t.replace(/^title: .*$/m, 'title: About us'));
    const fifth = await buildAndCompare('about title');
    const again = [...fifth].filter(([f, s]) => third.get(f) !== s).map(([f]) => f);
    expect(again).toEqual(expect.arrayContaining(['index.html', 'items/alpha/index.html', 'items/beta/index.html', 'about/index.html', '404.html']));
  }, 180_000);

  it('a seeded run of random edits: after each, the output is a clean build\'s', async () => {
    const seed = 30;
    const random = prng(seed);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    const items = () => fs.readdirSync(path.join(site.root, 'content/items')).filter((f) => f.endsWith('.yaml'));
    const edits: [string, () => void][] = [
      ['an item\'s price', () => { const f = pick(items()); site.edit(`content/items/${f}`, (t) => t.replace(/price: \d+/, `price: ${Math.floor(random() * 1000)}`)); }],
      ['an item\'s title', () => { const f = pick(items()); site.write(`content/items/${f}`, site.file(`content/items/${f}`).replace(/^title: .*$/m, `title: ${pick(words)} ${Math.floor(random() * 100)}`)); }],
      ['a new item', () => { if (items().length < 5) site.write(`content/items/n${Math.floor(random() * 1e6)}.yaml`, `title: ${pick(words)}\ntags: [x, y]\nprice: 5\n`); }],
      // alpha stays: the about page links to it.
      ['an item removed', () => { const others = items().filter((f) => f !== 'alpha.yaml'); if (others.length) fs.rmSync(path.join(site.root, 'content/items', pick(others))); }],
      ['the about page', () => site.write('content/pages/about.md', site.file('content/pages/about.md').replace(/^title: .*$/m, `title: ${pick(words)}`))],
      ['the template', () => site.write('templates/pages.tsx', site.file('templates/pages.tsx').replace(/<footer>footer[^{]*\{/, `<footer>footer ${pick(words)} {`))],
      ['the stylesheet', () => fs.appendFileSync(path.join(site.root, 'templates/site.css'), `\nmain { margin: ${Math.floor(random() * 9)}px }\n`)],
      ['the config', () => site.write('sitegen.config.ts', site.file('sitegen.config.ts').replace(/titleTemplate: '%s \| [^']*'/, `titleTemplate: '%s | ${pick(words)}'`))],
      ['an island', () => site.write('templates/islands/Counter.tsx', site.file('templates/islands/Counter.tsx').replace(/count (is|was|now) \{n\}/, `count ${pick(['is', 'was', 'now'])} {n}`))],
      ['an item renamed', () => { const others = items().filter((f) => f !== 'alpha.yaml'); if (others.length) { const f = pick(others); fs.renameSync(path.join(site.root, 'content/items', f), path.join(site.root, 'content/items', `r${Math.floor(random() * 1e6)}.yaml`)); } }],
      ['nothing', () => {}],
    ];
    for (let step = 0; step < steps; step++) {
      const [name, edit] = pick(edits);
      edit();
      await buildAndCompare(`seed ${seed}, step ${step}: ${name}`);
    }
  }, seededTimeout);
});
