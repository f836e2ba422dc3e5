// `cspMeta: true`: the Content-Security-Policy written into every page's head as well as `_headers`, for hosts
// that send no headers from a file (GitHub Pages). The policy a page carries is the one `_headers` gives its
// path, less the directives a <meta> policy cannot carry; it follows the config, a route's own sources and the
// environment the config's csp() reads, and an incremental build gives the bytes a clean one does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteFrom } from '../helpers/scratch.ts';
import type { TestSite } from '../helpers/site.ts';
import { parseHeadersFile } from '../../src/output/hostfiles.ts';

const CONFIG = `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Page } from './templates/Page.tsx';

export default defineConfig({
  site: { title: 'Meta', url: 'https://meta.example' },
  cspMeta: true,
  csp: (env) => ({ 'connect-src': [env.API_ORIGIN ?? 'https://api.one.example'] }),
  collections: { pages: { pattern: 'pages/*.yaml', schema: z.strictObject({ title: z.string() }) } },
  routes: (c) => [
    ...c.pages.map((p) => ({ path: '/' + p.slug, component: Page, props: { title: p.data.title }, title: p.data.title, source: p.file, aliases: ['/old-' + p.slug] })),
    { path: '/terms', component: Page, props: { title: 'Terms' }, title: 'Terms', csp: { 'frame-src': ['https://policies.example'] } },
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

  it('follows the environment the csp() reads and a route that changes its own, as a clean build does', async () => {
    const clean = (env: NodeJS.ProcessEnv) => site.build({ out: 'reference', cache: false, env }).then((r) => r.output());
    const first = await site.build({ env: { API_ORIGIN: 'https://api.one.example' } });
    expect(first.errors).toEqual([]);
    expect(first.output()).toEqual(await clean({ API_ORIGIN: 'https://api.one.example' }));
    // Another value of the variable the policy reads: every page carries the new policy.
    const second = await site.build({ env: { API_ORIGIN: 'https://api.two.example' } });
    expect(second.output()).toEqual(await clean({ API_ORIGIN: 'https://api.two.example' }));
    expect(metas(second.read('a/index.html'))[0]).toContain('https://api.two.example');
    // A route's own sources edited: its page follows.
    site.edit('sitegen.config.ts', (t) => t.replace('https://policies.example', 'https://policies.other.example'));
    const third = await site.build({ env: { API_ORIGIN: 'https://api.two.example' } });
    expect(third.output()).toEqual(await clean({ API_ORIGIN: 'https://api.two.example' }));
    expect(metas(third.read('terms/index.html'))[0]).toContain('frame-src https://policies.other.example');
  });
});
