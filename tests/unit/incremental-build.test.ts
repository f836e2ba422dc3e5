// A build over the output of the builds before renders only the pages whose inputs changed (their route,
// the collections their render read, the site module, the asset links) and leaves the other page files as
// they were, yet its output is byte for byte a clean build's: checked after every step of a seeded run of
// random edits against a build without caches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { copyOf, readTree, type TestSite } from '../helpers/site.ts';
import { prng } from '../helpers/prng.ts';
import { CACHES, siteCacheRoot } from '../../src/cache/registry.ts';

let site: TestSite;
beforeAll(async () => {
  site = await copyOf('basic');
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

// The site's code: what the compiled site module and the client bundle are made from.
function code(root: string): string {
  const files = ['templates', 'plugins'].flatMap((dir) => fs.existsSync(path.join(root, dir)) ? fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)) : []);
  return JSON.stringify(['sitegen.config.ts', ...files.sort()].map((rel) => [rel, fs.statSync(path.join(root, rel)).isFile() ? fs.readFileSync(path.join(root, rel), 'utf8') : '']));
}
/** The code the clean builds last compiled from scratch, and where their client bundle is kept meanwhile. */
let cleanCode = '';
const cleanClient = () => path.join(path.dirname(site.root), 'clean-client');

/**
 * A clean build of the site into clean/: no output before it, none of the incremental build's caches (set
 * aside, then put back). It builds in the site's own folder because the client bundle's file names depend on
 * where the site is. After any edit of the code every cache is off, as in `sitegen build --no-cache`, so the
 * compiled site module and client bundle are made from scratch and the step checks the incremental build's.
 * While the code then stays byte for byte the same, the clean builds take the site module that step checked
 * (the site's module cache) and keep a client bundle of their own: the compile is most of a clean build of
 * this site (about 0.3 s of 0.4 s a step), and the content, pages and output are still built from nothing.
 */
async function cleanBuild() {
  const caches = siteCacheRoot(site.root);
  const aside = `${caches}-incremental`;
  fs.rmSync(path.join(site.root, 'clean'), { recursive: true, force: true });
  if (fs.existsSync(caches)) fs.renameSync(caches, aside);
  try {
    const now = code(site.root);
    const reuse = now === cleanCode;
    cleanCode = now;
    if (!reuse) return await site.build({ out: 'clean', env: { SITEGEN_NO_CACHE: '1' } });
    if (fs.existsSync(cleanClient())) {
      fs.mkdirSync(caches, { recursive: true });
      fs.renameSync(cleanClient(), path.join(caches, CACHES.client.path));
    }
    const built = await site.build({ out: 'clean' });
    fs.rmSync(cleanClient(), { recursive: true, force: true });
    if (fs.existsSync(path.join(caches, CACHES.client.path))) fs.renameSync(path.join(caches, CACHES.client.path), cleanClient());
    return built;
  } finally {
    fs.rmSync(caches, { recursive: true, force: true });
    if (fs.existsSync(aside)) fs.renameSync(aside, caches);
  }
}

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
