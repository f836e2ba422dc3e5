// `sitegen dev` starts without compiling every Markdown body first: it reads and validates each file's front
// matter, knows the routes, and answers; a body is compiled when a page that shows it renders, or in the
// background pass after that. What the site's code reads is what an eager load gives, a body's problem is
// reported with the message a build gives once the background pass has compiled it, and an edit saved during
// the start is applied after it. In process, through the dev server's own handler (tests/helpers/devHost.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Entry, Message } from '../../src/core/types.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { openSession, type Session } from '../../src/pipeline/session.ts';
import { hostOf } from '../helpers/devHost.ts';
import { REPO } from '../helpers/cli.ts';
import { editFile } from './dev-fixture.ts';
import { scratchDir } from '../helpers/scratch.ts';

/** Enough pages that rendering and compiling them all takes far longer than answering one request. */
const NOTES = 300;

/** A config whose routes copy each entry's HTML into its page's props (as most sites do); `extra` adds a
 *  home-page prop computed from the entries. */
const config = (extra = '') => `import { z } from 'zod';
import { defineConfig, markdown } from 'sitegen-islands';
import { Layout, Home, Note, NotFound } from './templates/pages.tsx';

export default defineConfig({
  site: { title: 'Lazy', url: 'https://lazy.example' },
  layout: Layout,
  plugins: [markdown({ headingIds: true })],
  collections: { notes: { pattern: 'notes/*.md', schema: z.strictObject({ title: z.string(), n: z.number() }) } },
  routes: (c) => [
    { path: '/', component: Home, props: { count: c.notes.length${extra} }, title: 'Home' },
    ...c.notes.map((e) => ({ path: \`/notes/\${e.slug}\`, component: Note, props: { ...e.data, html: e.html }, title: e.data.title, source: e.file })),
    { path: '/404', output: '404.html', component: NotFound, props: {}, title: 'Not found', noindex: true },
  ],
});
`;

const PAGES = `import type { LayoutProps } from 'sitegen-islands';
export function Layout({ children }: LayoutProps) {
  return (<><header><a href="/">Home</a></header><main>{children}</main></>);
}
export function Home({ count, longest }: { count: number; longest?: number }) { return <><h1>{count} notes</h1>{longest !== undefined && <p id="longest">{longest}</p>}</>; }
export function Note({ title, html }: { title: string; html: string }) {
  return (<article><h1>{title}</h1><div dangerouslySetInnerHTML={{ __html: html }} /></article>);
}
export function NotFound() { return <h1>Nothing here</h1>; }
`;

/** A body with what entries expose besides HTML: headings, an excerpt (before the more marker), words. */
const body = (n: number, count: number) => [
  `Opening paragraph of note ${n} with *emphasis* and a [link](/notes/n-${(n + 1) % count}/).`, '',
  '<!-- more -->', '',
  `## Section of note ${n}`, '',
  ...Array.from({ length: 12 }, (_, i) => `Line ${i} of note ${n}: ${'words in a sentence '.repeat(8)}`), '',
  '### A smaller heading', '',
  '```ts', `const note = ${n};`, '```', '',
  '- one', '- two', '',
].join('\n');

/** A site of NOTES Markdown notes; `broken`: the note whose body links to a javascript: URL (refused). */
function writeSite(opts: { broken?: number; extra?: string; notes?: number } = {}): string {
  const dir = scratchDir('sitegen-lazy-');
  fs.mkdirSync(path.join(dir, 'templates'));
  fs.mkdirSync(path.join(dir, 'content/notes'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'sitegen.config.ts'), config(opts.extra));
  fs.writeFileSync(path.join(dir, 'templates/pages.tsx'), PAGES);
  const count = opts.notes ?? NOTES;
  for (let n = 0; n < count; n++) {
    const bad = n === opts.broken ? '\nA [bad link](javascript:alert(1)) in the body.\n' : '';
    fs.writeFileSync(path.join(dir, `content/notes/n-${n}.md`), `---\ntitle: Note ${n}\nn: ${n}\n---\n${body(n, count)}${bad}`);
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Starts the dev site; resolves when it can serve (or, failing that, when the start ended). */
async function startLazy(dir: string) {
  const site = await createDevSite({ root: dir });
  let servable!: () => void;
  const canServe = new Promise<void>((resolve) => { servable = resolve; });
  let finished = false;
  const started = site.start({ servable });
  void started.then(() => { finished = true; });
  await Promise.race([canServe, started]);
  return { site, started, finished: () => finished };
}

/** A message as a person reads it: its kind, where, and what. */
const shown = (m: Message) => [m.id, m.location && `${m.location.file}:${m.location.line}:${m.location.column}`, m.text];

/** An eager load of the site (as `sitegen check` does); `use` reads it. The content cache it leaves is removed:
 *  the dev start measured here is a fresh clone's, which has none. */
async function eager<T>(dir: string, use: (s: Session, problems: Message[]) => T | Promise<T>): Promise<T> {
  const session = await openSession({ root: dir, mode: 'check' });
  try { return await use(session, await session.load()); } finally {
    await session.close();
    fs.rmSync(path.join(dir, '.sitegen'), { recursive: true, force: true });
  }
}


describe('sitegen dev compiles Markdown bodies lazily at start', () => {
  let clean: string;
  beforeAll(() => { clean = writeSite(); });

  it('serves a page before the whole start ends, with the HTML of its body', async () => {
    const { site: dev, started, finished } = await startLazy(clean);
    const host = await hostOf(dev);
    try {
      expect(finished()).toBe(false);
      const page = await host.get('/notes/n-277/');
      expect(page.status).toBe(200);
      expect(page.body).toContain('<h2 id="section-of-note-277">Section of note 277 ');
      expect(page.body).toContain('const note = 277;');
      const report = await started;
      expect(report.errors).toEqual([]);
      expect(report.committed).toBe(true);
      expect(report.rendered).toBe(NOTES + 2);
      // The page served before the background pass is the one the whole start made.
      expect(await host.text('/notes/n-277/')).toBe(page.body);
    } finally {
      await host.close();
      await dev.close();
    }
  });

  it('reports a body problem of another page once the background pass compiled it, as a build reports it', async () => {
    const dir = writeSite({ broken: 250 });
    const expected = await eager(dir, (_, problems) => problems.map(shown));
    expect(expected).toEqual([['ContentPolicyError', expect.stringMatching(/^content\/notes\/n-250\.md:\d+:\d+$/), expect.stringContaining('javascript:')]]);
    const { site: dev, started, finished } = await startLazy(dir);
    const host = await hostOf(dev);
    try {
      // The first page is served while the broken body is not reported yet: the start has not ended.
      const page = await host.get('/notes/n-3/');
      expect(finished()).toBe(false);
      expect(page.status).toBe(200);
      expect(page.body).toContain('Section of note 3');
      // The broken page is never shown as if its body were empty.
      expect((await host.get('/notes/n-250/')).body).not.toContain('<h1>Note 250</h1>');
      const report = await started;
      // Then the problem, located as a build locates it, and the site is not served (as before any good build).
      expect(report.errors.map(shown)).toEqual(expected);
      expect(report.committed).toBe(false);
      expect((await host.get('/notes/n-3/')).status).toBe(503);
    } finally {
      await host.close();
      await dev.close();
    }
  });

  it('gives the site code the values an eager load gives, field by field, body fields included', async () => {
    const dir = writeSite({ notes: 12 });
    const lazy = await openSession({ root: dir, mode: 'dev' });
    try {
      expect(await lazy.load()).toEqual([]);
      const a = lazy.content.notes as Entry[];
      const b = await eager(dir, (s, problems) => { expect(problems).toEqual([]); return s.content.notes as Entry[]; });
      expect(a.map((e) => e.file)).toEqual(b.map((e) => e.file));
      for (let i = 0; i < a.length; i++) {
        expect(Object.keys(a[i])).toEqual(Object.keys(b[i]));
        for (const k of Object.keys(b[i]) as (keyof Entry)[]) expect([a[i].file, k, a[i][k]]).toEqual([b[i].file, k, b[i][k]]);
        expect(b[i].headings!.length).toBeGreaterThan(1);
        expect(b[i].excerpt).toContain('Opening paragraph');
        // A copy (spread) holds the same values.
        expect({ ...a[i] }).toEqual({ ...b[i] });
      }
    } finally {
      await lazy.close();
    }
  });

  it('gives routes() the real HTML when it does more with it than copy it', async () => {
    // The home page's props measure every body: routes() must see the real HTML, not a stand-in.
    const dir = writeSite({ notes: 40, extra: ', longest: Math.max(...c.notes.map((e) => e.html.length))' });
    const longest = await eager(dir, (s) => Math.max(...(s.content.notes as Entry[]).map((e) => e.html!.length)));
    const { site: dev, started } = await startLazy(dir);
    const host = await hostOf(dev);
    try {
      expect(await host.text('/')).toContain(`<p id="longest">${longest}</p>`);
      expect((await started).errors).toEqual([]);
    } finally {
      await host.close();
      await dev.close();
    }
  });

  it('applies a body edit saved while the start still compiles and renders, after it', async () => {
    const { site: dev, started } = await startLazy(clean);
    const host = await hostOf(dev);
    try {
      editFile(clean, 'content/notes/n-290.md', (t) => t.replace('## Section of note 290', '## Edited section of note 290'));
      const applied = dev.apply([{ file: path.join(clean, 'content/notes/n-290.md'), kind: 'change' }]);
      expect(await host.text('/notes/n-290/')).toContain('"section-of-note-290">Section of note 290 ');
      expect((await started).errors).toEqual([]);
      const report = (await applied)!;
      expect(report.errors).toEqual([]);
      expect(report.changed).toEqual(['/notes/n-290/']);
      expect(await host.text('/notes/n-290/')).toContain('>Edited section of note 290 ');
    } finally {
      editFile(clean, 'content/notes/n-290.md', (t) => t.replace('## Edited section', '## Section'));
      await host.close();
      await dev.close();
    }
  });
});
