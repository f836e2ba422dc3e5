// `sitegen dev` answers before its whole site has rendered: once the content is loaded and the routes are
// known, a page asked for is rendered then (never a stale page, never a 404 for a route that exists), the
// rest renders in the background, and an edit saved meanwhile is applied after it. On a template edit the
// pages open in a browser render first and are announced at once, before the other pages render.
// In process, through the dev server's own handler (tests/helpers/devHost.ts, and startDevServer).
import { beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createDevSite } from '../../src/dev/devSite.ts';
import { startDevServer } from '../../src/dev/index.ts';
import { listen } from '../../src/server/serve.ts';
import { hostOf } from '../helpers/devHost.ts';
import { REPO } from '../helpers/cli.ts';
import { editFile, openEvents } from './dev-fixture.ts';
import { scratchDir } from '../helpers/scratch.ts';

/** Enough pages that rendering them all takes far longer than answering one request. */
const NOTES = 600;

const CONFIG = `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Layout, Home, Note, NotFound } from './templates/pages.tsx';

export default defineConfig({
  site: { title: 'On demand', url: 'https://ondemand.example' },
  layout: Layout,
  collections: { notes: { pattern: 'notes/*.yaml', schema: z.strictObject({ title: z.string(), n: z.number() }) } },
  routes: (c) => [
    { path: '/', component: Home, props: { count: c.notes.length }, title: 'Home' },
    ...c.notes.map((e) => ({ path: \`/notes/\${e.slug}\`, component: Note, props: { ...e.data }, title: e.data.title, source: e.file })),
    { path: '/404', output: '404.html', component: NotFound, props: {}, title: 'Not found', noindex: true },
  ],
});
`;

const PAGES = `import type { LayoutProps } from 'sitegen-islands';
export function Layout({ children }: LayoutProps) {
  return (<><header><a href="/">Home</a></header><main>{children}</main><footer>footer one</footer></>);
}
export function Home({ count }: { count: number }) { return <h1>{count} notes</h1>; }
export function Note({ title, n }: { title: string; n: number }) {
  return (<><h1>{title}</h1><ul>{Array.from({ length: 20 }, (_, i) => <li key={i}>line {i} of note {n}</li>)}</ul></>);
}
export function NotFound() { return <h1>Nothing here</h1>; }
`;

function writeSite(): string {
  const dir = scratchDir('sitegen-ondemand-');
  fs.mkdirSync(path.join(dir, 'templates'));
  fs.mkdirSync(path.join(dir, 'content/notes'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'sitegen.config.ts'), CONFIG);
  fs.writeFileSync(path.join(dir, 'templates/pages.tsx'), PAGES);
  for (let n = 0; n < NOTES; n++) fs.writeFileSync(path.join(dir, `content/notes/n-${n}.yaml`), `title: Note ${n}\nn: ${n}\n`);
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

let dir: string;
beforeAll(() => { dir = writeSite(); });

describe('sitegen dev renders pages on demand', () => {
  it('serves a page asked for before the first build rendered it, and a 404 only for a path that is no route', async () => {
    const site = await createDevSite({ root: dir });
    let servable!: () => void;
    const canServe = new Promise<void>((resolve) => { servable = resolve; });
    let finished = false;
    const started = site.start({ servable });
    void started.then(() => { finished = true; });
    await canServe;
    const host = await hostOf(site);
    try {
      const page = await host.get('/notes/n-577/');
      // Answered while the rest of the site was still rendering, with the page's own content.
      expect(finished).toBe(false);
      expect(site.output.pages.size).toBeLessThan(NOTES);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<h1>Note 577</h1>');
      expect(page.body).toContain('line 19 of note 577');
      // A path that no route has: the site's own 404 page, with its status.
      const missing = await host.get('/notes/n-9999/');
      expect(missing.status).toBe(404);
      expect(missing.body).toContain('<h1>Nothing here</h1>');
      const report = await started;
      expect(report.errors).toEqual([]);
      expect(report.committed).toBe(true);
      expect(report.rendered).toBe(NOTES + 2);
      // The page served on demand is the one the whole build made.
      expect(await host.text('/notes/n-577/')).toBe(page.body);
    } finally {
      await host.close();
      await site.close();
    }
  });

  it('applies an edit saved while the first build still renders, after it', async () => {
    const site = await createDevSite({ root: dir });
    let servable!: () => void;
    const canServe = new Promise<void>((resolve) => { servable = resolve; });
    const started = site.start({ servable });
    await canServe;
    const host = await hostOf(site);
    try {
      editFile(dir, 'content/notes/n-3.yaml', (t) => t.replace('title: Note 3', 'title: Note three'));
      const applied = site.apply([{ file: path.join(dir, 'content/notes/n-3.yaml'), kind: 'change' }]);
      // Until the edit is applied, the page is the one of the content loaded at start.
      expect(await host.text('/notes/n-3/')).toContain('<h1>Note 3</h1>');
      expect((await started).errors).toEqual([]);
      const report = (await applied)!;
      expect(report.errors).toEqual([]);
      expect(report.changed).toEqual(['/notes/n-3/']);
      expect(await host.text('/notes/n-3/')).toContain('<h1>Note three</h1>');
    } finally {
      editFile(dir, 'content/notes/n-3.yaml', (t) => t.replace('title: Note three', 'title: Note 3'));
      await host.close();
      await site.close();
    }
  });

  it('renders the open page first on a template edit and announces it before the rest has rendered', async () => {
    const dev = await startDevServer({ root: dir });
    const server = http.createServer(dev.handler);
    const url = await listen(server, 0, '127.0.0.1');
    // A page that shows /notes/n-42/ is connected (its dev client says which route it shows).
    const stream = await openEvents(`${url}/__sitegen/events?route=${encodeURIComponent('/notes/n-42/')}&v=1`);
    try {
      await dev.idle();
      const first = stream.next((e) => e.event === 'reload' || e.event === 'rebuilt', 60_000);
      editFile(dir, 'templates/pages.tsx', (t) => t.replace('footer one', 'footer two'));
      const told = await first;
      // The open route, alone, before the rebuild ended; the page served now is the new one.
      expect(told.event).toBe('reload');
      expect(told.data.paths).toEqual(['/notes/n-42/']);
      expect(await (await fetch(`${url}/notes/n-42/`)).text()).toContain('footer two');
      const last = await stream.next((e) => e.event === 'reload' && e.data.paths.includes('*'), 60_000);
      // Then every page, except the one told already (not updated twice).
      expect(last.data.except).toEqual(['/notes/n-42/']);
      const rebuilt = stream.events.filter((e) => e.event === 'rebuilt');
      expect(rebuilt.at(-1)?.data).toMatchObject({ ok: true, rendered: NOTES + 2 });
      expect(await (await fetch(`${url}/notes/n-7/`)).text()).toContain('footer two');
    } finally {
      stream.close();
      await dev.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
