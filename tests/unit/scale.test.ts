// Big sites keep their Markdown bodies on disk during a build (content/diskBody.ts): each body's HTML,
// headings, excerpt and links sit in a file of .sitegen/cache/bodies/ and are read when a page asks, so the
// content cache and the build's memory hold places, not page texts. SITEGEN_DISK_BODIES_MIN=0 turns that on
// for these small sites; the same site built with every body in memory is the reference for the bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { readTree, type TestSite } from '../helpers/site.ts';
import { siteFrom } from '../helpers/scratch.ts';
import { defineBody, readBody, unwireEntry, wireEntry } from '../../src/content/diskBody.ts';
import { writeBodies } from '../../src/content/bodyStore.ts';
import type { Entry } from '../../src/core/types.ts';

const DISK = { SITEGEN_DISK_BODIES_MIN: '0' };
const MEMORY = { SITEGEN_DISK_BODIES_MIN: '100000' };

const CONFIG = `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Post, Index } from './templates/pages.tsx';

export default defineConfig({
  site: { title: 'Scale', url: 'https://scale.example' },
  collections: { posts: { pattern: 'posts/*.md', schema: z.strictObject({ title: z.string() }) } },
  routes: (c) => [
    // One page hands the template the entry, the other a copy of its HTML: both must give the same bytes.
    ...c.posts.map((p) => ({ path: '/' + p.slug, component: Post, props: { entry: p, copy: p.slug.endsWith('1') ? p.html : null }, title: p.data.title, source: p.file })),
    { path: '/', component: Index, props: { posts: c.posts.map((p) => ({ slug: p.slug, excerpt: p.excerpt, headings: p.headings, words: p.words, links: p.links })) }, title: 'Index' },
  ],
});
`;
const PAGES = `import type { Entry } from 'sitegen-islands';
export function Post({ entry, copy }: { entry: Entry; copy: string | null }) {
  return (<><h1>{(entry.data as { title: string }).title}</h1><ol>{entry.headings!.map((h) => <li key={h.text}>{h.text}</li>)}</ol>
    <p className="excerpt">{entry.excerpt}</p><div dangerouslySetInnerHTML={{ __html: copy ?? entry.html ?? '' }} /></>);
}
export function Index({ posts }: { posts: { slug: string; excerpt: string; headings: { text: string }[]; words: number; links: string[] }[] }) {
  return (<ul>{posts.map((p) => <li key={p.slug}><a href={'/' + p.slug + '/'}>{p.slug}</a> {p.words} {p.excerpt} {p.headings.map((h) => h.text).join(' / ')} links to {p.links.join(' ')}</li>)}</ul>);
}
`;
const post = (i: number) => `---\ntitle: "Post ${i} — ünïcode ✓"\n---\nFirst paragraph of post ${i}, with *emphasis* and a [link](/post-${(i + 1) % 12}/).\n\n## Heading ${i} a\n\nText «${'x'.repeat(i * 40)}» and \`code\`.\n\n<!-- more -->\n\n### Heading ${i} b\n\n- one\n- two ${i}\n`;

const files = () => {
  const out: Record<string, string> = { 'sitegen.config.ts': CONFIG, 'templates/pages.tsx': PAGES };
  for (let i = 0; i < 12; i++) out[`content/posts/post-${i}.md`] = post(i);
  return out;
};

const bodiesDir = (site: TestSite) => path.join(site.root, '.sitegen', 'cache', 'bodies');
const bodyFiles = (site: TestSite) => (fs.existsSync(bodiesDir(site)) ? fs.readdirSync(bodiesDir(site)) : []);
/** Every file of the content cache as text, read as one-byte and as two-byte characters (V8 writes a string
 *  with a character past Latin-1 as UTF-16) from an even and an odd byte, so an ASCII phrase is found in any.
 *  The two-byte reads take an even count of bytes: Node 24.21 corrupts its heap decoding an odd count at an
 *  odd offset as UTF-16. */
const even = (b: Buffer) => b.subarray(0, b.length & ~1);
const contentCacheText = (site: TestSite) => Object.keys(readTree(path.join(site.root, '.sitegen', 'cache', 'content')))
  .map((f) => fs.readFileSync(path.join(site.root, '.sitegen', 'cache', 'content', f)))
  .flatMap((b) => [b.toString('latin1'), even(b).toString('utf16le'), even(b.subarray(1)).toString('utf16le')]).join('\n');

let site: TestSite;
let reference: Record<string, string>;
beforeAll(async () => {
  site = await siteFrom(files());
  const r = await site.build({ out: 'reference', cache: false, env: MEMORY });
  expect(r.errors).toEqual([]);
  reference = r.output();
});
afterAll(() => site?.remove());

describe('Markdown bodies kept on disk', () => {
  it('build the same bytes as bodies held in memory: cold, warm, and parsed on a worker', async () => {
    const cold = await site.build({ env: DISK });
    expect(cold.errors).toEqual([]);
    expect(cold.output()).toEqual(reference);
    expect(bodyFiles(site).length).toBeGreaterThan(0);
    // Warm: every entry from the content cache, its body read from the bodies file.
    fs.rmSync(cold.outDir, { recursive: true });
    const warm = await site.build({ env: { ...DISK, SITEGEN_PATCH_MAX: '0' } });
    expect(warm.output()).toEqual(reference);
    // Parsed on a worker thread (which writes its own bodies file and sends places, not texts).
    fs.rmSync(path.join(site.root, '.sitegen'), { recursive: true });
    const pooled = await site.build({ out: 'pooled', env: { ...DISK, SITEGEN_PARALLEL_MIN: '0', SITEGEN_WORKERS: '1', SITEGEN_POOL_MAIN: '0' } });
    expect(pooled.errors).toEqual([]);
    expect(pooled.output()).toEqual(reference);
  });

  it('the content cache holds where each body is, not its text', async () => {
    fs.rmSync(path.join(site.root, '.sitegen'), { recursive: true, force: true });
    expect((await site.build({ env: DISK })).errors).toEqual([]);
    const phrase = `Heading 7 b`;
    expect(contentCacheText(site)).not.toContain(phrase);
    expect(contentCacheText(site)).not.toContain('First paragraph of post 7');
    const bodies = bodyFiles(site).map((f) => fs.readFileSync(path.join(bodiesDir(site), f), 'utf8')).join('');
    expect(bodies).toContain(phrase);
    // The same site with its bodies in memory caches their HTML (the reference for the check above).
    fs.rmSync(path.join(site.root, '.sitegen'), { recursive: true, force: true });
    expect((await site.build({ env: MEMORY })).errors).toEqual([]);
    expect(contentCacheText(site)).toContain(phrase);
    expect(bodyFiles(site)).toEqual([]);
  });

  it('a deleted bodies folder only makes the next build parse again', async () => {
    fs.rmSync(path.join(site.root, '.sitegen'), { recursive: true, force: true });
    expect((await site.build({ env: DISK })).errors).toEqual([]);
    fs.rmSync(bodiesDir(site), { recursive: true });
    const again = await site.build({ out: 'again', env: { ...DISK, SITEGEN_PATCH_MAX: '0' } });
    expect(again.errors).toEqual([]);
    expect(again.output()).toEqual(reference);
    expect(bodyFiles(site).length).toBeGreaterThan(0);
  });

  it('keeps only the bodies files the content cache names, edit after edit', async () => {
    fs.rmSync(path.join(site.root, '.sitegen'), { recursive: true, force: true });
    expect((await site.build({ env: DISK })).errors).toEqual([]);
    const first = bodyFiles(site);
    for (let k = 0; k < 3; k++) {
      site.edit('content/posts/post-3.md', (t) => t.replace(/two 3.*\n/, `two 3 edit ${k}\n`));
      const r = await site.build({ env: DISK });
      expect(r.errors).toEqual([]);
      expect(r.read('post-3/index.html')).toContain(`two 3 edit ${k}`);
    }
    // The first build's file (eleven bodies still cached) and the last edit's: nothing of the edits before.
    const now = bodyFiles(site);
    expect(now.length).toBe(2);
    expect(now).toContain(first[0]);
    site.edit('content/posts/post-3.md', (t) => t.replace(/two 3 edit 2/, 'two 3'));
  });

  it('a build that fails leaves dist/ as it was and no bodies file of its own', async () => {
    fs.rmSync(path.join(site.root, '.sitegen'), { recursive: true, force: true });
    const good = await site.build({ env: DISK });
    expect(good.errors).toEqual([]);
    const before = bodyFiles(site);
    const dist = good.output();
    site.write('content/posts/post-99.md', '---\ntitle: 5\n---\nA new body that fails its schema.\n');
    site.write('content/posts/post-98.md', '---\ntitle: "fine"\n---\nA new body that parses.\n');
    const bad = await site.build({ env: DISK });
    expect(bad.errors.map((e) => e.location?.file)).toEqual(['content/posts/post-99.md']);
    expect(readTree(good.outDir)).toEqual(dist);
    expect(bodyFiles(site)).toEqual(before);
    fs.rmSync(path.join(site.root, 'content/posts/post-99.md'));
    fs.rmSync(path.join(site.root, 'content/posts/post-98.md'));
  });
});

describe('an entry whose body is on disk', () => {
  it('reads html, headings, excerpt and links from its file, and crosses threads as its place', () => {
    const root = site.root;
    const text = { headings: [{ depth: 2, text: 'Ä heading', id: 'a' }], excerpt: 'Ünïcode ✓ excerpt', words: 3, links: ['/ü/', '#a'] };
    const [a, b] = writeBodies(root, [{ html: '<p>first ✓</p>', text }, { html: '<p>second</p>' }]);
    const entry = defineBody({ id: 'x', slug: 'x', dirs: [], file: 'content/x.md', data: { title: 'X' }, words: 3 } as Entry, root, a);
    expect(entry.html).toBe('<p>first ✓</p>');
    expect(entry.headings).toEqual(text.headings);
    expect(entry.excerpt).toBe(text.excerpt);
    expect(entry.links).toEqual(text.links);
    expect(readBody(root, b)).toBe('<p>second</p>');
    // Sent to a worker: plain data without the texts (structuredClone reads getters), the same entry again.
    const wired = structuredClone(wireEntry(entry));
    expect(JSON.stringify(wired)).not.toContain('first');
    const back = unwireEntry(wired, root);
    expect({ ...back }).toEqual({ ...entry });
    // Read-only: a write to a body field throws, and the body reads as it was.
    expect(() => { back.html = '<p>changed</p>'; }).toThrow(TypeError);
    expect(back.html).toBe('<p>first ✓</p>');
    expect(entry.html).toBe('<p>first ✓</p>');
  });
});
