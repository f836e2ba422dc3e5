// `cspMeta: true`: the Content-Security-Policy written into the head of every page a route renders as well as
// `_headers`, for hosts that send no headers from a file (GitHub Pages). The policy a page carries is the one
// `_headers` gives its path, less the directives a <meta> policy cannot carry; it follows the environment the
// config's csp() reads and a route's own sources when content changes them, in a build (rendering only the
// page whose policy changed, with the bytes of a clean build) and in dev. Sources that would break a policy or
// a line of _headers are refused where they are written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { siteFrom } from '../helpers/scratch.ts';
import type { TestSite } from '../helpers/site.ts';
import { hostOf } from '../helpers/devHost.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { metaPolicy, parseHeadersFile } from '../../src/output/hostfiles.ts';

const CONFIG = `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Page } from './templates/Page.tsx';

export default defineConfig({
  site: { title: 'Meta', url: 'https://meta.example' },
  cspMeta: true,
  csp: (env) => ({ 'connect-src': [env.API_ORIGIN ?? 'https://api.one.example'] }),
  collections: {
    pages: { pattern: 'pages/*.yaml', schema: z.strictObject({ title: z.string() }) },
    embeds: { pattern: 'embeds/*.yaml', schema: z.strictObject({ host: z.string() }) },
  },
  routes: (c) => [
    ...c.pages.map((p) => ({ path: '/' + p.slug, component: Page, props: { title: p.data.title }, title: p.data.title, source: p.file, aliases: ['/old-' + p.slug] })),
    // Its own sources come from content: an edit of an embed changes its policy, not its props.
    { path: '/terms', component: Page, props: { title: 'Terms' }, title: 'Terms', csp: { 'frame-src': c.embeds.map((e) => e.data.host) } },
    { path: '/data.txt', output: 'data.txt', component: Page, props: {}, title: 'Data', body: () => 'plain text' },
    { path: '/404', output: '404.html', component: Page, props: { title: 'Not found' }, title: 'Not found', noindex: true },
  ],
});
`;
const files = {
  'sitegen.config.ts': CONFIG,
  'templates/Page.tsx': `export function Page({ title }: { title: string }) { return <main><h1>{title}</h1></main>; }\n`,
  'content/pages/a.yaml': 'title: A\n',
  'content/pages/b.yaml': 'title: B\n',
  'content/embeds/video.yaml': 'host: https://policies.example\n',
};

const META = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g;
/** The policies a page carries, unescaped. */
const metas = (html: string) => [...html.matchAll(META)].map((m) => m[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&'));
/** The policy `_headers` sends for a path (the last matching rule's, as hosts apply them). */
function headerPolicy(headers: string, pathname: string): string {
  let policy = '';
  for (const rule of parseHeadersFile(headers)) if (rule.pattern.test(pathname)) for (const [k, v] of rule.headers) if (k === 'Content-Security-Policy') policy = v;
  return policy;
}
const withoutFrameAncestors = (p: string) => p.split('; ').filter((d) => !d.startsWith('frame-ancestors ')).join('; ');

let site: TestSite;
beforeAll(async () => { site = await siteFrom(files); });
afterAll(() => site?.remove());

describe('cspMeta', () => {
  it("puts each page's policy first in its head: the one _headers gives its path, without frame-ancestors", async () => {
    const r = await site.build({ out: 'clean', cache: false });
    expect(r.errors).toEqual([]);
    const out = r.output();
    for (const [page, url] of [['a/index.html', '/a/'], ['terms/index.html', '/terms/'], ['404.html', '/nowhere/']]) {
      const html = out[page];
      expect(html.startsWith('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy"'), page).toBe(true);
      const [policy, ...more] = metas(html);
      expect(more, page).toEqual([]);
      expect(policy, page).toBe(withoutFrameAncestors(headerPolicy(out._headers, url)));
      expect(policy).not.toContain('frame-ancestors');
      expect(policy).toContain("script-src 'self';");
      expect(policy).toContain('connect-src \'self\' https://api.one.example');
    }
    expect(metas(out['terms/index.html'])[0]).toContain('frame-src https://policies.example');
    expect(metas(out['a/index.html'])[0]).toContain("frame-src 'none'");
    // The header keeps what a page cannot set itself.
    expect(headerPolicy(out._headers, '/a/')).toContain("frame-ancestors 'none'");
    // Not in a file that is not a page, nor in an alias's redirect page (no content of its own).
    expect(out['data.txt']).toBe('plain text');
    expect(metas(out['old-a/index.html'])).toEqual([]);
  });

  it('is off by default', async () => {
    site.edit('sitegen.config.ts', (t) => t.replace('  cspMeta: true,\n', ''));
    try {
      const r = await site.build({ out: 'off', cache: false });
      expect(r.errors).toEqual([]);
      expect(Object.values(r.output()).some((f) => f.includes('http-equiv="Content-Security-Policy"'))).toBe(false);
    } finally { site.edit('sitegen.config.ts', (t) => t.replace("  csp: (env)", "  cspMeta: true,\n  csp: (env)")); }
  });

  it('follows the environment the csp() reads, as a clean build does', async () => {
    const clean = (env: NodeJS.ProcessEnv) => site.build({ out: 'reference', cache: false, env }).then((r) => r.output());
    const first = await site.build({ env: { API_ORIGIN: 'https://api.one.example' } });
    expect(first.errors).toEqual([]);
    expect(first.output()).toEqual(await clean({ API_ORIGIN: 'https://api.one.example' }));
    const second = await site.build({ env: { API_ORIGIN: 'https://api.two.example' } });
    expect(second.output()).toEqual(await clean({ API_ORIGIN: 'https://api.two.example' }));
    expect(metas(second.read('a/index.html'))[0]).toContain('https://api.two.example');
  });

  it("renders again only the page whose own sources an edit of content changed, with a clean build's bytes", async () => {
    const env = { API_ORIGIN: 'https://api.one.example' };
    expect((await site.build({ env })).errors).toEqual([]);
    site.edit('content/embeds/video.yaml', () => 'host: https://videos.example\n');
    try {
      const after = await site.build({ env });
      expect(after.result.rendered).toBe(1);
      expect(metas(after.read('terms/index.html'))[0]).toContain('frame-src https://videos.example;');
      expect(after.output()).toEqual((await site.build({ out: 'reference', cache: false, env })).output());
    } finally { site.edit('content/embeds/video.yaml', () => 'host: https://policies.example\n'); }
  });

  it('in dev, a page carries the policy its route has after an edit of content', async () => {
    const dev = await createDevSite({ root: site.root, env: { ...process.env, API_ORIGIN: 'https://api.one.example' } });
    const started = dev.start();
    const host = await hostOf(dev);
    try {
      expect((await started).errors).toEqual([]);
      const before = await host.get('/terms/');
      expect(metas(before.body)[0]).toBe(withoutFrameAncestors(before.headers['content-security-policy'] as string));
      site.edit('content/embeds/video.yaml', () => 'host: https://videos.example\n');
      const report = (await dev.apply([{ file: path.join(site.root, 'content/embeds/video.yaml'), kind: 'change' }]))!;
      expect(report.errors).toEqual([]);
      const after = await host.get('/terms/');
      expect(after.headers['content-security-policy']).toContain('frame-src https://videos.example;');
      expect(metas(after.body)[0]).toBe(withoutFrameAncestors(after.headers['content-security-policy'] as string));
    } finally {
      site.edit('content/embeds/video.yaml', () => 'host: https://policies.example\n');
      await host.close();
      await dev.close();
    }
  });

  it('leaves out every directive a <meta> policy cannot carry, and only those', () => {
    expect(metaPolicy("default-src 'self'; sandbox ; report-uri https://r.example/csp; frame-ancestors 'none'; report-to csp; img-src data:"))
      .toBe("default-src 'self'; img-src data:");
  });

  it('refuses a source that would break the policy or a line of _headers, where it is written', async () => {
    const config = site.file('sitegen.config.ts');
    try {
      site.edit('sitegen.config.ts', (t) => t.replace("csp: (env) => ({ 'connect-src'", "csp: (env) => ({ 'Connect-Src'"));
      let r = await site.build({ out: 'refused', cache: false });
      expect(r.errors.map((e) => [e.text, e.location?.file])).toEqual([[`csp() returned "Connect-Src" is not written as a directive's name: write it in lowercase, as 'img-src' or 'frame-src'`, 'sitegen.config.ts']]);
      site.write('sitegen.config.ts', config);
      r = await site.build({ out: 'refused', cache: false, env: { API_ORIGIN: 'https://api.example\nX-Injected: 1' } });
      expect(r.errors.map((e) => e.text)).toEqual([`csp() returned "connect-src" has the source "https://api.example\\nX-Injected: 1", which holds a space, a ";", a "," or a control character: each source is one word of its own, such as 'https://cdn.example' or "'unsafe-inline'"`]);
      site.write('content/embeds/video.yaml', 'host: "https://a.example; script-src *"\n');
      r = await site.build({ out: 'refused', cache: false });
      expect(r.errors.map((e) => e.text)).toEqual([`route /terms csp: "frame-src" has the source "https://a.example; script-src *", which holds a space, a ";", a "," or a control character: each source is one word of its own, such as 'https://cdn.example' or "'unsafe-inline'"`]);
    } finally {
      site.write('sitegen.config.ts', config);
      site.write('content/embeds/video.yaml', 'host: https://policies.example\n');
    }
  });
});
