// The dev server over HTTP, in process, with its real file watcher: host behaviour like preview (CSP,
// redirects, 404 with status 404), the injected client, and the event stream a page listens to:
// reloads for the routes that changed, errors with file and line, recovery, and coalesced rapid saves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { listen } from '../../src/server/serve.ts';
import { startDevServer, type DevServer, type RebuildReport } from '../../src/dev/index.ts';
import { copyFixture, editFile, openEvents, removeCopy, until } from './dev-fixture.ts';

let dir: string;
let dev: DevServer;
let server: http.Server;
let url: string;
const reports: RebuildReport[] = [];

beforeAll(async () => {
  dir = copyFixture('basic');
  dev = await startDevServer({ root: dir, onReport: (r) => reports.push(r) });
  server = http.createServer(dev.handler);
  url = await listen(server, 0, '127.0.0.1');
});
afterAll(async () => {
  await dev?.close();
  server?.closeAllConnections();
  server?.close();
  removeCopy(dir);
});

describe('sitegen dev server', () => {
  it('serves pages with the CSP of _headers and the dev client as an external script', async () => {
    const res = await fetch(url + '/items/alpha/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const body = await res.text();
    expect(body).toContain('<script src="/__sitegen/client.js" data-route="/items/alpha/"');
    expect(body).not.toMatch(/<script>|<style>|style="/);
    const js = await fetch(url + '/__sitegen/client.js');
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(await js.text()).toContain('EventSource');
    expect((await fetch(url + '/__sitegen/overlay.css')).headers.get('content-type')).toContain('text/css');
  });

  it('answers unknown paths with the 404 page and status 404, and redirects aliases', async () => {
    const res = await fetch(url + '/no/such/page/');
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).toContain('<h1>Page Not Found</h1>');
    expect(body).toContain('data-route="/404"');
    const alias = await fetch(url + '/old/alpha', { redirect: 'manual' });
    expect(alias.status).toBe(301);
    expect(alias.headers.get('location')).toBe('/items/alpha/');
    expect((await fetch(url + '/', { method: 'POST' })).status).toBe(405);
  });

  it('answers as preview does: slash redirect with the query, same-origin Locations, ETags and ranges', async () => {
    const about = await fetch(url + '/about?ref=x', { redirect: 'manual' });
    expect([about.status, about.headers.get('location')]).toEqual([301, '/about/?ref=x']);
    const sneaky = await fetch(url + '/%2F%2Fabout', { redirect: 'manual' });
    expect([sneaky.status, sneaky.headers.get('location')]).toEqual([301, '/about/']);
    const robots = await fetch(url + '/robots.txt');
    const etag = robots.headers.get('etag')!;
    const text = await robots.text();
    expect((await fetch(url + '/robots.txt', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const part = await fetch(url + '/robots.txt', { headers: { Range: 'bytes=0-9' } });
    expect([part.status, await part.text()]).toEqual([206, text.slice(0, 10)]);
    expect((await fetch(url + '/robots.txt', { headers: { Range: 'bytes=9-2' } })).status).toBe(200);
  });

  it('sends a reload for the changed route only, then errors with file and line, then recovery', async () => {
    const stream = await openEvents(url + '/__sitegen/events');
    try {
      const reload = stream.next((e) => e.event === 'reload');
      editFile(dir, 'content/items/beta.yaml', (t) => t.replace('price: 5', 'price: 8'));
      expect((await reload).data).toEqual({ paths: ['/items/beta/'], assets: [], hot: { css: [], islands: {}, reactMoved: false } });
      expect(await (await fetch(url + '/items/beta/')).text()).toContain('$8');

      const broken = stream.next((e) => e.event === 'errors' && e.data.length > 0);
      editFile(dir, 'content/items/beta.yaml', (t) => t.replace('price: 8', 'price: eight'));
      const [err] = (await broken).data;
      expect(err).toMatchObject({ file: 'content/items/beta.yaml', line: 5, title: 'Content does not match its schema' });
      expect(err.frame).toContain('5 | price: eight');
      expect(await (await fetch(url + '/items/beta/')).text()).toContain('$8');

      const cleared = stream.next((e) => e.event === 'errors' && e.data.length === 0);
      const reloaded = stream.next((e) => e.event === 'reload');
      editFile(dir, 'content/items/beta.yaml', (t) => t.replace('price: eight', 'price: 9'));
      await cleared;
      expect((await reloaded).data.paths).toEqual(['/items/beta/']);
      expect(await (await fetch(url + '/items/beta/')).text()).toContain('$9');
    } finally {
      stream.close();
    }
  });

  it('a broken link keeps the last good page served, and undoing the edit serves the page again', async () => {
    // A browser showing /about/ is connected: it is shown a rebuilt page ahead of the link check.
    const stream = await openEvents(`${url}/__sitegen/events?route=${encodeURIComponent('/about/')}&v=${Number.MAX_SAFE_INTEGER}`);
    // (the page's main text: a page served while there are errors also carries them, for the overlay)
    const main = async () => /<main>.*<\/main>/s.exec(await (await fetch(url + '/about/')).text())![0];
    try {
      const good = await main();
      const before = fs.readFileSync(path.join(dir, 'content/pages/about.md'), 'utf8');
      const ahead = stream.next((e) => e.event === 'reload' && !!e.data.html);
      const broken = stream.next((e) => e.event === 'errors' && e.data.length > 0);
      editFile(dir, 'content/pages/about.md', (t) => `${t}\nSee [nowhere](/nowhere/).\n`);
      expect((await ahead).data.paths).toEqual(['/about/']);
      expect((await broken).data[0]).toMatchObject({ file: 'content/pages/about.md' });
      // The last good build: the page as it was before the edit, not the one with the broken link.
      expect(await main()).toBe(good);
      const cleared = stream.next((e) => e.event === 'errors' && e.data.length === 0);
      const told = stream.next((e) => e.event === 'reload');
      fs.writeFileSync(path.join(dir, 'content/pages/about.md'), before);
      await cleared;
      expect(await main()).toBe(good);
      // An open page that was shown the broken one ahead of the check is told the good one again.
      expect((await told).data.paths).toEqual(['/about/']);
      // And an edit after that is served.
      const reload = stream.next((e) => e.event === 'reload');
      editFile(dir, 'content/pages/about.md', (t) => `${t}\nA new line.\n`);
      await reload;
      expect(await main()).toContain('A new line.');
    } finally {
      stream.close();
    }
  });

  it('tells a page that connects late that its route changed since it was served', async () => {
    const version = /data-version="(\d+)"/.exec(await (await fetch(url + '/items/alpha/')).text())![1];
    const first = await openEvents(url + '/__sitegen/events');
    const reload = first.next((e) => e.event === 'reload');
    editFile(dir, 'content/items/alpha.yaml', (t) => t.replace('price: 3', 'price: 30'));
    await reload;
    first.close();
    const late = await openEvents(`${url}/__sitegen/events?route=${encodeURIComponent('/items/alpha/')}&v=${version}`);
    try {
      // The catch-up reload comes right after hello, possibly in the same chunk: look at all events so far.
      const e = await until(() => late.events.find((x) => x.event === 'reload'), 15_000, 'the catch-up reload');
      expect(e.data.paths).toEqual(['/items/alpha/']);
    } finally {
      late.close();
    }
  });

  it('coalesces rapid saves, never rebuilds twice at once, and ends with the last save', async () => {
    await dev.idle();
    const before = reports.length;
    const file = path.join(dir, 'content/pages/about.md');
    const original = fs.readFileSync(file, 'utf8');
    for (let i = 1; i <= 8; i++) {
      // Each save lands whole (temp file + rename, as many editors save): this test is about coalescing, and an
      // in-place write can be read half-done on a loaded machine, which is a broken file for that instant.
      fs.writeFileSync(`${file}.tmp`, original.replace('# Hello', `# Hello ${i}`));
      fs.renameSync(`${file}.tmp`, file);
      await new Promise((r) => setTimeout(r, 4));
    }
    const deadline = Date.now() + 15_000;
    while (!(await (await fetch(url + '/about/')).text()).includes('Hello 8')) {
      if (Date.now() > deadline) throw new Error('the last save was never served');
      await new Promise((r) => setTimeout(r, 20));
    }
    await dev.idle();
    const batches = reports.slice(before);
    expect(batches.length).toBeGreaterThanOrEqual(1);
    expect(batches.length).toBeLessThanOrEqual(4);
    expect(batches.every((r) => r.errors.length === 0)).toBe(true);
  });
});

describe('sitegen dev on a site reached through a link', () => {
  it('sees a save made in the site and serves the new page', async () => {
    const real = copyFixture('basic');
    const link = `${real}-link`;
    fs.symlinkSync(real, link);
    const linked = await startDevServer({ root: link });
    const s = http.createServer(linked.handler);
    try {
      const at = await listen(s, 0, '127.0.0.1');
      expect(await (await fetch(at + '/items/beta/')).text()).toContain('$5');
      const stream = await openEvents(at + '/__sitegen/events');
      try {
        const reload = stream.next((e) => e.event === 'reload');
        editFile(link, 'content/items/beta.yaml', (t) => t.replace('price: 5', 'price: 7'));
        expect((await reload).data.paths).toEqual(['/items/beta/']);
        expect(await (await fetch(at + '/items/beta/')).text()).toContain('$7');
      } finally { stream.close(); }
    } finally {
      await linked.close();
      s.closeAllConnections();
      s.close();
      fs.rmSync(link);
      removeCopy(real);
    }
  });
});
