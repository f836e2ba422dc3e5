// `sitegen preview` and `sitegen dev`, run as a user runs them on the same site, answer the same requests
// the same way (one host: src/server/host/): slash redirect, 404 page, _headers, _redirects, and no open
// redirect. Preview serves dist/ as it is now (a rebuild while it runs is served whole), starts beside a
// symlink loop in dist/, and never follows a symlink out of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sitegen, startServer } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { request, isSameOrigin } from '../helpers/http.ts';
import { copyFixture, removeCopy } from './dev-fixture.ts';

let dir: string;
let preview: Awaited<ReturnType<typeof startServer>>;
let dev: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  dir = copyFixture('basic');
  const built = await siteAt(dir).build({ quiet: true });
  expect(built.code, built.stderr).toBe(0);
  // A symlink loop and a symlink out of dist/ are there when preview starts.
  fs.writeFileSync(path.join(dir, 'outside.txt'), 'OUTSIDE-SECRET');
  fs.symlinkSync('loop', path.join(dir, 'dist/loop'));
  fs.symlinkSync('../outside.txt', path.join(dir, 'dist/leak.txt'));
  [preview, dev] = await Promise.all([
    startServer(['preview', '--root', dir, '--port', '0', '--no-backend']),
    startServer(['dev', '--root', dir, '--port', '0', '--no-backend']),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([preview?.stop(), dev?.stop()]);
  if (dir) removeCopy(dir);
});

describe('preview and dev: one host', () => {
  const cases: [string, number, string | undefined][] = [
    ['/about', 301, '/about/'],
    ['/about?ref=mail', 301, '/about/?ref=mail'],
    ['/about/', 200, undefined],
    ['/old/alpha', 301, '/items/alpha/'],
    ['/old/alpha/', 301, '/items/alpha/'],
    ['/no/such/page', 404, undefined],
    ['/%2F%2Fabout', 301, '/about/'],
    ['//about', 301, '/about/'],
    ['/\\about', 301, '/about/'],
    ['/%5C%5Cabout', 301, '/about/'],
    ['//evil.com', 404, undefined],
    ['/\\evil.com', 404, undefined],
    ['/%5C%5Cevil.com', 404, undefined],
  ];

  it.each(cases)('GET %s → %d %s in both', async (p, status, location) => {
    for (const [name, server] of [['preview', preview], ['dev', dev]] as const) {
      const res = await request(server.url, p);
      expect([res.status, res.headers.location], `${name} ${p}`).toEqual([status, location]);
      expect(isSameOrigin(res.headers.location), `${name} ${p}`).toBe(true);
      expect(res.headers['content-security-policy'], `${name} ${p}`).toContain("script-src 'self'");
      if (status === 404) expect(res.body, `${name} ${p}`).toContain('<h1>Page Not Found</h1>');
    }
  });

  it('answers the symlink loop and the symlink out of dist/ with the 404 page, and started without a stack', async () => {
    for (const p of ['/loop', '/leak.txt']) {
      const res = await request(preview.url, p);
      expect([res.status, res.body.includes('OUTSIDE-SECRET')], p).toEqual([404, false]);
    }
    expect(preview.output()).not.toMatch(/ELOOP|Error|\n\s+at /);
  });

  it('serves a rebuild made while preview runs: the new page whole, and the new hashed asset', async () => {
    const before = await request(preview.url, '/about/');
    const oldCss = /href="(\/assets\/[^"]+\.css)"/.exec(before.body)?.[1];
    expect(oldCss).toBeTruthy();
    fs.appendFileSync(path.join(dir, 'templates/site.css'), '\nmain { max-width: 40rem; }\n');
    const about = path.join(dir, 'content/pages/about.md');
    fs.writeFileSync(about, fs.readFileSync(about, 'utf8') + '\n' + 'A much longer page after the rebuild. '.repeat(200) + '\n');
    const rebuilt = await siteAt(dir).build({ quiet: true });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const after = await request(preview.url, '/about/');
    expect(after.status).toBe(200);
    expect(after.body).toContain('A much longer page after the rebuild.');
    expect(after.body.trimEnd()).toMatch(/<\/html>$/);
    expect(Number(after.headers['content-length'])).toBe(Buffer.byteLength(after.body));
    const newCss = /href="(\/assets\/[^"]+\.css)"/.exec(after.body)?.[1];
    expect(newCss).not.toBe(oldCss);
    const css = await request(preview.url, newCss!);
    expect([css.status, css.body]).toEqual([200, fs.readFileSync(path.join(dir, 'dist', newCss!), 'utf8')]);
  });
});
