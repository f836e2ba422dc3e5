// A one-file build of a big site, whose Markdown bodies wait on disk (content/diskBody.ts): the pages whose
// route hands the template the entry itself are kept when their entry did not change, the site's routes()
// reads every body as it is now, and the output is byte for byte a clean build's.
// SITEGEN_DISK_BODIES_MIN=0 keeps the bodies of these small sites on disk, as a big site's are.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { type BuildRun, type TestSite } from '../helpers/site.ts';
import { siteFrom } from '../helpers/scratch.ts';
import { cleanBuilder } from '../helpers/cleanBuild.ts';
import { stamps, written } from '../helpers/outputStamps.ts';
import { prng } from '../helpers/prng.ts';

const DISK = { SITEGEN_DISK_BODIES_MIN: '0' };

// Each post's page gets its entry; the index gets the posts collection itself; a "links" page counts, from
// every body's HTML, the links to each post (as the benchmark site reads every body to find its links).
const CONFIG = `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Post, Index, Links } from './templates/pages.tsx';

export default defineConfig({
  site: { title: 'Inc', url: 'https://inc.example' },
  collections: { posts: { pattern: 'posts/*.md', schema: z.strictObject({ title: z.string() }) } },
  routes: (c) => {
    const linked: Record<string, number> = {};
    for (const p of c.posts) for (const m of (p.html ?? '').matchAll(/href="\\/(post-\\d+)\\/"/g)) linked[m[1]] = (linked[m[1]] ?? 0) + 1;
    return [
      ...c.posts.map((p) => ({ path: '/' + p.slug, component: Post, props: { entry: p }, title: p.data.title, source: p.file })),
      { path: '/', component: Index, props: { posts: c.posts }, title: 'Index' },
      { path: '/links', component: Links, props: { linked: Object.entries(linked).sort() }, title: 'Links' },
    ];
  },
});
`;
const PAGES = `import type { Entry } from 'sitegen-islands';
export function Post({ entry }: { entry: Entry }) {
  return (<><h1>{(entry.data as { title: string }).title}</h1><p className="excerpt">{entry.excerpt}</p>
    <div dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} /></>);
}
export function Index({ posts }: { posts: Entry[] }) {
  return (<ul>{posts.map((p) => <li key={p.slug}>{(p.data as { title: string }).title}: {p.headings!.map((h) => h.text).join(' / ')}</li>)}</ul>);
}
export function Links({ linked }: { linked: [string, number][] }) {
  return (<ul>{linked.map(([k, n]) => <li key={k}>{k}: {n}</li>)}</ul>);
}
`;
const post = (i: number, link = (i + 1) % 8) => `---\ntitle: "Post ${i}"\n---\nPost ${i} links to [the next](/post-${link}/).\n\n## Heading ${i}\n\n${'Some text. '.repeat(30 + i)}\n`;

function files(): Record<string, string> {
  const out: Record<string, string> = { 'sitegen.config.ts': CONFIG, 'templates/pages.tsx': PAGES };
  for (let i = 0; i < 8; i++) out[`content/posts/post-${i}.md`] = post(i);
  return out;
}

let site: TestSite;
afterEach(() => site?.remove());

async function buildOk(env: NodeJS.ProcessEnv = DISK) {
  const r = await site.build({ env });
  expect(r.errors).toEqual([]);
  return r;
}

/**
 * The output a clean build makes of the site as it is now: no output or content cache before it, and so
 * its bodies in memory (tests/helpers/cleanBuild.ts; it reuses a checked compile of code that did not change).
 */
const cleanBuilds = new WeakMap<TestSite, () => Promise<BuildRun>>();
async function clean(): Promise<Record<string, string>> {
  if (!cleanBuilds.has(site)) cleanBuilds.set(site, cleanBuilder(site));
  const r = await cleanBuilds.get(site)!();
  expect(r.errors).toEqual([]);
  return r.output();
}

describe('a one-file build whose pages hold entries with bodies on disk', () => {
  it('writes only the pages the edit changes, and the bytes of a clean build', async () => {
    site = await siteFrom(files());
    const first = await buildOk();
    expect(fs.readdirSync(path.join(site.root, '.sitegen/cache/bodies')).length).toBeGreaterThan(0);
    // A change to the body only: the post's page and the index, which holds every entry; no other post's.
    site.edit('content/posts/post-3.md', (t) => t.replace('Some text.', 'Other text.'));
    let before = stamps(first.outDir);
    let r = await buildOk();
    expect(written(before, stamps(r.outDir))).toEqual(['index.html', 'post-3/index.html']);
    expect(r.read('post-3/index.html')).toContain('Other text.');
    expect(r.output()).toEqual(await clean());
    // A changed heading, shown by the index.
    site.edit('content/posts/post-5.md', (t) => t.replace('## Heading 5', '## Heading five'));
    before = stamps(r.outDir);
    r = await buildOk();
    expect(written(before, stamps(r.outDir))).toEqual(['index.html', 'post-5/index.html']);
    expect(r.read('index.html')).toContain('Heading five');
    expect(r.output()).toEqual(await clean());
  }, 90_000);

  it("routes() reading every body sees the edited one as it is now, and every other as it was", async () => {
    site = await siteFrom(files());
    let r = await buildOk();
    expect(r.read('links/index.html')).toContain('<li>post-3: 1</li>');
    // Post 2 now links to post 6 (which post 5 links to as well), no longer to post 3.
    site.edit('content/posts/post-2.md', (t) => t.replace('(/post-3/)', '(/post-6/)'));
    r = await buildOk();
    const links = r.read('links/index.html');
    expect(links).not.toContain('post-3<');
    expect(links).toContain('<li>post-6: 2</li>');
    for (const k of [1, 2, 4, 5, 7, 0]) expect(links).toContain(`<li>post-${k}: 1</li>`);
    expect(r.output()).toEqual(await clean());
  }, 90_000);

  it('a bodies file cut inside the last body\'s headings makes that body parse again, not fail the build', async () => {
    site = await siteFrom(files());
    await buildOk();
    const dir = path.join(site.root, '.sitegen/cache/bodies');
    const [file] = fs.readdirSync(dir);
    const full = path.join(dir, file);
    // The last few bytes are the end of the last body's headings and excerpt (JSON), after its HTML.
    fs.truncateSync(full, fs.statSync(full).size - 3);
    site.edit('content/posts/post-0.md', (t) => t.replace('Some text.', 'Other text.'));
    const r = await buildOk({ ...DISK, SITEGEN_PATCH_MAX: '0' });
    expect(r.output()).toEqual(await clean());
  }, 90_000);

  it('a seeded run of random edits to posts: after each, the output is a clean build\'s', async () => {
    site = await siteFrom(files());
    await buildOk();
    const random = prng(28);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    const posts = () => fs.readdirSync(path.join(site.root, 'content/posts')).filter((f) => f.endsWith('.md'));
    const n = () => Math.floor(random() * 1000);
    // (written even when the text comes out the same: a random edit may pick the value the file has)
    const change = (f: string, edit: (t: string) => string) => site.write(`content/posts/${f}`, edit(site.file(`content/posts/${f}`)));
    const edits: [string, () => void][] = [
      ['a body', () => { const f = pick(posts()); change(f, (t) => t.replace(/Some text\.|Other text \d+\./, `Other text ${n()}.`)); }],
      ['a heading', () => { const f = pick(posts()); change(f, (t) => t.replace(/^## .*$/m, `## Heading ${n()}`)); }],
      ['a link', () => { const f = pick(posts()); change(f, (t) => t.replace(/\(\/post-\d+\/\)/, `(/post-${n() % 8}/)`)); }],
      ['a title', () => { const f = pick(posts()); change(f, (t) => t.replace(/^title: .*$/m, `title: "Post ${n()}"`)); }],
      ['a post added', () => { if (posts().length < 12) site.write(`content/posts/post-${8 + (n() % 4)}.md`, post(8, n() % 8)); }],
      ['a post removed', () => { const extra = posts().filter((f) => Number(f.slice(5, -3)) >= 8); if (extra.length) fs.rmSync(path.join(site.root, 'content/posts', pick(extra))); }],
      ['nothing', () => {}],
    ];
    // SITEGEN_INCREMENTAL_STEPS sets the length, as for incremental-build.test.ts.
    const steps = Math.max(12, Math.round(Number(process.env.SITEGEN_INCREMENTAL_STEPS ?? 0) / 4));
    for (let step = 0; step < steps; step++) {
      const [name, edit] = pick(edits);
      edit();
      const r = await buildOk();
      expect(r.output(), `step ${step}: ${name}`).toEqual(await clean());
    }
  }, 300_000);
});
