// Malformed content corpus: each broken input must give exit code 1, a message naming the file (with line
// and column where one exists), no stack trace, and leave the previous dist/ untouched. Then a seeded fuzz
// of random mutations to real content files: sitegen either builds or prints a located error, never crashes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fixture, sitegen } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { siteCopies, treeSnapshot } from '../helpers/tree.ts';
import { SCRATCH } from '../helpers/scratch.ts';

/** Builds a site that must build (the pristine one, and the shared copy of it before the first case). */
async function buildClean(site: string): Promise<void> {
  const b = await siteAt(site).build({ quiet: true });
  if (b.code !== 0) throw new Error(b.stderr);
}

const { work, pristine, freshSite, withContent } = siteCopies('sitegen-malformed-', SCRATCH, { warm: buildClean });

beforeAll(async () => {
  // A self-contained copy of the valid fixture (links resolved), built once: every case starts from its dist/.
  fs.cpSync(fixture('basic'), pristine, { recursive: true, dereference: true, filter: (src) => !/[/\\](dist|\.sitegen)([/\\]|$)/.test(src) });
  await buildClean(pristine);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

type Case = [name: string, file: string, content: string | Buffer | null, expected: RegExp];

const CASES: Case[] = [
  ['unclosed flow sequence', 'content/items/beta.yaml', 'title: Beta\ntags: [c, d\nprice: 5\n', /content\/items\/beta\.yaml:\d+:\d+ /],
  ['bad indentation', 'content/items/beta.yaml', 'title: Beta\n  tags: [c, d]\nprice: 5\n', /content\/items\/beta\.yaml:\d+:\d+ /],
  ['tab indentation', 'content/items/beta.yaml', 'title: Beta\ntags:\n\t- c\n\t- d\nprice: 5\n', /content\/items\/beta\.yaml:\d+:\d+ /],
  ['duplicate key', 'content/items/beta.yaml', 'title: Beta\ntitle: Again\ntags: [c, d]\nprice: 5\n', /content\/items\/beta\.yaml:2:1 .*[Dd]uplicate|content\/items\/beta\.yaml:2:\d+ /],
  ['unterminated quote', 'content/items/beta.yaml', 'title: "Beta\ntags: [c, d]\nprice: 5\n', /content\/items\/beta\.yaml:\d+:\d+ /],
  ['unknown alias', 'content/items/beta.yaml', 'title: *nothing\ntags: [c, d]\nprice: 5\n', /content\/items\/beta\.yaml:1:\d+ /],
  ['alias bomb', 'content/items/beta.yaml', 'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ntitle: Beta\ntags: [c, d]\nprice: 5\n', /content\/items\/beta\.yaml/],
  ['wrong type: string for number', 'content/items/beta.yaml', 'title: Beta\ntags: [c, d]\nprice: "five"\n', /content\/items\/beta\.yaml:3:8 price: Expected number, received string "five"/],
  ['wrong type: string for list', 'content/items/beta.yaml', 'title: Beta\ntags: c, d\nprice: 5\n', /content\/items\/beta\.yaml:2:7 tags: Expected array/],
  ['wrong type: map for string', 'content/items/beta.yaml', 'title:\n  en: Beta\ntags: [c, d]\nprice: 5\n', /content\/items\/beta\.yaml:1:1 title: Expected string, received a map/],
  ['missing field', 'content/items/beta.yaml', 'tags: [c, d]\nprice: 5\n', /content\/items\/beta\.yaml:1:1 title: Required/],
  ['extra field', 'content/items/beta.yaml', 'title: Beta\ntags: [c, d]\nprice: 5\nsubtitle: x\n', /content\/items\/beta\.yaml:4:1 subtitle: Unknown field "subtitle"/],
  ['too few items', 'content/items/beta.yaml', 'title: Beta\ntags: [c, d, e]\nprice: 5\n', /content\/items\/beta\.yaml:2:1 tags: Must have exactly 2 items/],
  ['too many items', 'content/items/beta.yaml', 'title: Beta\ntags: [c]\nprice: 5\n', /content\/items\/beta\.yaml:2:1 tags: Must have exactly 2 items/],
  ['empty string', 'content/items/beta.yaml', 'title: ""\ntags: [c, d]\nprice: 5\n', /content\/items\/beta\.yaml:1:8 title: Must not be empty/],
  ['null value', 'content/items/beta.yaml', 'title: ~\ntags: [c, d]\nprice: 5\n', /content\/items\/beta\.yaml:1:8 title: Expected string, received null/],
  ['empty YAML file', 'content/items/gamma.yaml', '', /content\/items\/gamma\.yaml(:1:1)? .*(Expected object|Required)/],
  ['comments only', 'content/items/gamma.yaml', '# nothing here\n', /content\/items\/gamma\.yaml(:1:1)? .*(Expected object|Required)/],
  ['a list instead of a map', 'content/items/gamma.yaml', '- title: x\n', /content\/items\/gamma\.yaml:1:1 Expected object, received a list/],
  ['a scalar instead of a map', 'content/items/gamma.yaml', 'just text\n', /content\/items\/gamma\.yaml:1:1 Expected object/],
  ['binary bytes as YAML', 'content/items/gamma.yaml', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x01]), /content\/items\/gamma\.yaml(:\d+:\d+)? File is not valid UTF-8 text/],
  ['non-UTF-8 text', 'content/items/gamma.yaml', Buffer.concat([Buffer.from('title: Caf'), Buffer.from([0xe9]), Buffer.from('\ntags: [a, b]\nprice: 1\n')]), /content\/items\/gamma\.yaml:1:\d+ File is not valid UTF-8 text/],
  ['5 MB file', 'content/items/gamma.yaml', 'title: Big\ntags: [a, b]\nprice: 1\n# ' + 'x'.repeat(5 * 1024 * 1024) + '\n', /content\/items\/gamma\.yaml File is 5\.0 MB; content files are limited to 2 MB/],
  ['front matter YAML error', 'content/pages/about.md', '---\ntitle: [About\n---\nBody\n', /content\/pages\/about\.md:\d+:\d+ /],
  // A quote never closed swallows the lines after it: located at the quote that opens it, not where the text ends.
  ['an unclosed quote in front matter', 'content/pages/about.md', '---\ntitle: "About us\ndescription: x\n---\nBody\n', /content\/pages\/about\.md:2:8 Missing closing "quote: this quoted text never ends \(it runs to line \d+\)/],
  ['an unclosed quote in a YAML file', 'content/items/beta.yaml', "title: 'Beta\ntags: [c, d]\nprice: 5\n", /content\/items\/beta\.yaml:1:8 Missing closing 'quote: this quoted text never ends \(it runs to line 4\)/],
  // A [ or { never closed: located at the bracket, not at the line after the list where the parser notices.
  ['a colon in a plain value in front matter', 'content/pages/about.md', '---\ntitle: About: the fixture\n---\nBody\n', /content\/pages\/about\.md:2:8 This value has ": " in it, which YAML reads as the start of another key: put the value in quotes \(title: "About: the fixture"\)/],
  ['an unclosed [ in a YAML file', 'content/items/beta.yaml', 'title: Beta\ntags: [c, d\nprice: 5\n', /content\/items\/beta\.yaml:2:7 The list that starts with this \[ never ends with a \] \(YAML looked for it up to line 3\)/],
  ['an unclosed { in front matter', 'content/pages/about.md', '---\ntitle: About\nmeta: {a: 1, b: [x, y]\nmore: 2\n---\nBody\n', /content\/pages\/about\.md:3:7 The map that starts with this \{ never ends with a \} \(YAML looked for it up to line 4\)/],
  ['front matter schema error on its own line', 'content/pages/about.md', '---\ndescription: no title\n---\nBody\n', /content\/pages\/about\.md:2:1 title: Required/],
  ['front matter unknown field', 'content/pages/about.md', '---\ntitle: About\nauthor: me\n---\nBody\n', /content\/pages\/about\.md:3:1 author: Unknown field "author"/],
  ['empty Markdown file', 'content/pages/empty.md', '', /content\/pages\/empty\.md(:1:1)? This file has no front matter, and its collection's schema requires title/],
  ['Markdown link to a missing page', 'content/pages/about.md', '---\ntitle: About\n---\nSee [the missing page](/nowhere/).\n', /content\/pages\/about\.md:4:\d+ page \/about\/ links to \/nowhere\/, which is not a page, alias or file/],
  ['Markdown link without the trailing slash', 'content/pages/about.md', '---\ntitle: About\n---\nSee [beta](/items/beta).\n', /content\/pages\/about\.md:4:\d+ page \/about\/ links to \/items\/beta, which is not a page/],
  ['raw HTML in Markdown', 'content/pages/about.md', '---\ntitle: About\n---\nHello\n\n<script>alert(1)</script>\n', /content\/pages\/about\.md:6:1 Raw HTML is not allowed in Markdown: <script>alert\(1\)<\/script>[\s\S]*hint: Content never runs scripts, and markdown\(\{ html: 'sanitize' \}\) would remove it too: put the code in an island/],
  ['javascript: link in Markdown', 'content/pages/about.md', '---\ntitle: About\n---\nA [trap](javascript:alert(1)).\n', /content\/pages\/about\.md:4:3 Link to a javascript: URL is not allowed/],
  ['entity-encoded javascript: link in Markdown', 'content/pages/about.md', '---\ntitle: About\n---\nA [trap](javascript&#58;alert(1)).\n', /content\/pages\/about\.md:4:3 Link to a javascript: URL is not allowed/],
  ['2,000 nested blockquotes in Markdown', 'content/pages/about.md', '---\ntitle: About\n---\n' + '>'.repeat(2000) + ' deep\n', /content\/pages\/about\.md:4:1 Blockquotes and lists are nested more than 32 levels deep/],
  ['front matter in JavaScript', 'content/pages/about.md', "---js\n{ title: 'About' }\n---\nBody\n", /content\/pages\/about\.md:1:4 Front matter must be YAML/],
  ['front matter in TOML', 'content/pages/about.md', '---toml\ntitle = "About"\n---\nBody\n', /content\/pages\/about\.md:1:4 Front matter must be YAML/],
  ['missing template import', 'templates/pages.tsx', "import Missing from './nope.tsx';\nexport * from './real.tsx';\nexport { Missing };\n", /templates\/pages\.tsx:1:\d+ Could not resolve "\.\/nope\.tsx"/],
  ['missing island import', 'templates/islands/Counter.tsx', "export { default } from './Gone.tsx';\n", /templates\/islands\/Counter\.tsx:1:\d+ Could not resolve "\.\/Gone\.tsx"/],
  ['an island that imports a module of Node', 'templates/islands/Counter.tsx', "import { readFileSync } from 'node:fs';\nexport default function Counter() { return <b>{typeof readFileSync}</b>; }\n", /templates\/islands\/Counter\.tsx:1:\d+ Could not resolve "node:fs"[\s\S]*hint: node:fs is part of Node, and an island runs in the browser/],
  ['template syntax error', 'templates/pages.tsx', 'export function Broken( {\n', /templates\/pages\.tsx:\d+:\d+ /],
  ['template that throws while loading', 'templates/pages.tsx', "export * from './real.tsx';\nif (Date) throw new Error('import exploded');\n", /templates\/pages\.tsx:2:\d+ loading sitegen\.config\.ts failed: import exploded/],
  // Every export of the real templates but Item, which throws when it renders.
  ['template that throws', 'templates/pages.tsx', "export { Layout, Home, Doc, NotFound } from './real.tsx';\nexport function Item(): never { throw new Error('template exploded'); }\n", /templates\/pages\.tsx:2:\d+ rendering \/items\/(alpha|beta)\/ failed: template exploded/],
];

describe('malformed content corpus', () => {
  const fails = async (site: string, expected: RegExp) => {
    const before = treeSnapshot(path.join(site, 'dist'));
    const r = await siteAt(site).build();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(expected);
    expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
    expect(r.stderr).not.toContain('sitegen crashed');
    expect(treeSnapshot(path.join(site, 'dist'))).toBe(before);
  };

  it.each(CASES)('%s', async (name, file, content, expected) => {
    // A broken content file: on the shared copy of the site (its compiled config is reused).
    if (file.startsWith('content/') && content !== null) return withContent({ [file]: content }, (site) => fails(site, expected));
    // A broken template changes the site's code: a copy of its own.
    const site = freshSite(name.replace(/\W+/g, '-'));
    if (file === 'templates/pages.tsx' && content !== null) fs.renameSync(path.join(site, 'templates/pages.tsx'), path.join(site, 'templates/real.tsx'));
    if (content !== null) fs.writeFileSync(path.join(site, file), content);
    await fails(site, expected);
  });

  it('a named pipe in content/ is refused, not read (a read would wait for a writer forever)', async () => {
    const site = freshSite('named-pipe');
    execFileSync('mkfifo', [path.join(site, 'content/items/delta.yaml')]);
    const before = treeSnapshot(path.join(site, 'dist'));
    const r = await siteAt(site).build();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/content\/items\/delta\.yaml Not a regular file \(a named pipe, socket or device\)/);
    expect(treeSnapshot(path.join(site, 'dist'))).toBe(before);
  });

  it('a named pipe in static/ is refused, not copied', async () => {
    const site = freshSite('named-pipe-static');
    fs.mkdirSync(path.join(site, 'static'), { recursive: true });
    execFileSync('mkfifo', [path.join(site, 'static/pipe.txt')]);
    const before = treeSnapshot(path.join(site, 'dist'));
    const r = await siteAt(site).build();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/static\/pipe\.txt Not a regular file \(a named pipe, socket or device\)/);
    expect(treeSnapshot(path.join(site, 'dist'))).toBe(before);
  });

  it('a symlink loop in content/', async () => {
    const site = freshSite('symlink-loop');
    fs.symlinkSync(path.join(site, 'content'), path.join(site, 'content/items/loop'));
    fs.writeFileSync(path.join(site, 'content/items/beta.yaml'), 'title: Beta\ntags: [c]\nprice: 5\n');
    const before = treeSnapshot(path.join(site, 'dist'));
    const r = await siteAt(site).build();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/content\/items\/beta\.yaml:2:1 tags: Must have exactly 2 items/);
    expect(treeSnapshot(path.join(site, 'dist'))).toBe(before);
  });
});

describe('content is data, never code', () => {
  it('script-like strings in YAML are escaped in the HTML and in island props', async () => {
    const site = freshSite('escaping');
    const evil = '</script><script>alert(1)</script> "quoted" & <b>bold</b> javascript:alert(2)';
    fs.writeFileSync(path.join(site, 'content/items/beta.yaml'), `title: ${JSON.stringify(evil)}\ntags: [c, d]\nprice: 5\n`);
    const r = await siteAt(site).build({ quiet: true });
    expect(r.code, r.stderr).toBe(0);
    const item = fs.readFileSync(path.join(site, 'dist/items/beta/index.html'), 'utf8');
    expect(item).toContain('<h1>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; javascript:alert(2)</h1>');
    expect(item).not.toContain('<script>alert(1)');
    const home = fs.readFileSync(path.join(site, 'dist/index.html'), 'utf8');
    expect(home).not.toMatch(/<script>alert/);
    expect(home).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
  });
});

describe('seeded fuzz of real content', () => {
  // mulberry32: the same cases on every run.
  let seed = 20261123;
  const rnd = () => { seed |= 0; seed = (seed + 0x6d2b79f5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const pick = <T,>(a: T[]) => a[Math.floor(rnd() * a.length)];
  const files = ['content/items/alpha.yaml', 'content/items/beta.yaml', 'content/pages/about.md'];
  const mutations: ((s: string) => string)[] = [
    (s) => { const i = Math.floor(rnd() * s.length); return s.slice(0, i) + s.slice(i + 1); },               // delete a char
    (s) => { const i = Math.floor(rnd() * s.length); return s.slice(0, i) + pick([':', '-', '[', '{', '"', "'", '\t', '\n', '#', '*', '&', '!', '|', '>']) + s.slice(i); },
    (s) => { const l = s.split('\n'); l.splice(Math.floor(rnd() * l.length), 1); return l.join('\n'); },   // drop a line
    (s) => { const l = s.split('\n'); const i = Math.floor(rnd() * l.length); l.splice(i, 0, l[i] ?? ''); return l.join('\n'); }, // repeat a line
    (s) => { const l = s.split('\n'); const i = Math.floor(rnd() * l.length); l[i] = '  ' + (l[i] ?? ''); return l.join('\n'); }, // indent
    (s) => s.slice(0, Math.floor(rnd() * s.length)),                                                           // truncate
  ];
  const CASES_N = 40;
  const cases = Array.from({ length: CASES_N }, (_, i) => {
    const file = pick(files);
    const n = 1 + Math.floor(rnd() * 3);
    const muts = Array.from({ length: n }, () => pick(mutations));
    return { i, file, muts };
  });

  // One test per mutated site: each is a whole build, so a slow machine times out one case, not all 40.
  let built = 0, located = 0;
  afterAll(() => console.log(`fuzz: ${CASES_N} cases, ${built} built, ${located} failed with a located error`));
  // Each mutates one content file of the shared copy of the site (put back after the case).
  it.each(cases.map((c) => [c.i, c] as const))('mutated site %i: builds, or fails with a located error and an untouched dist/', async (_i, c) => {
    let text = fs.readFileSync(path.join(pristine, c.file), 'utf8');
    for (const m of c.muts) text = m(text);
    await withContent({ [c.file]: text }, async (site) => {
      const before = treeSnapshot(path.join(site, 'dist'));
      const r = await siteAt(site).build({ quiet: true });
      expect([0, 1], `case ${c.i} (${c.file}):\n${text}\n${r.stderr}`).toContain(r.code);
      expect(r.stderr).not.toContain('sitegen crashed');
      if (r.code === 0) { built++; return; }
      located++;
      expect(r.stderr, `case ${c.i}`).toMatch(/content\/(items|pages)\/[a-z]+\.(yaml|md)(:\d+:\d+)? /);
      expect(treeSnapshot(path.join(site, 'dist'))).toBe(before);
    });
  });
});
