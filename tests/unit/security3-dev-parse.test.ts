// One slow content file never freezes `sitegen dev`: a changed file is parsed on a worker thread, so the
// server keeps answering while a Markdown extension takes seconds on it, and a parse that runs past the
// timeout is stopped and reported on the file. The slowness is a plugin's Markdown renderer busy-looping
// on a marker, as a runaway extension would. The timeout is the dev server's setting, set low here (1.5 s)
// so the test burns little CPU: the slow parse (0.8 s) stays well under it, the stuck one (8 s) far over it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { listen } from '../../src/server/serve.ts';
import { startDevServer, type DevServer, type RebuildReport } from '../../src/dev/index.ts';
import { editFile, until } from './dev-fixture.ts';
import { copyFixture, removeCopy } from '../helpers/scratch.ts';

const SLOW_PLUGIN = `plugins: [{ name: 'slow', markdown: [{ renderer: { strong(token) {
    const ms = token.text === 'SLOW' ? 800 : token.text === 'STUCK' ? 8000 : 0;
    const end = Date.now() + ms;
    while (Date.now() < end) { /* a runaway extension */ }
    return '<strong>' + this.parser.parseInline(token.tokens) + '</strong>';
  } } }] }],
  validate:`;

let dir: string;
let dev: DevServer;
let server: http.Server;
let url: string;
const reports: { at: number; report: RebuildReport }[] = [];

beforeAll(async () => {
  dir = copyFixture('basic');
  editFile(dir, 'sitegen.config.ts', (t) => t.replace('validate:', SLOW_PLUGIN));
  dev = await startDevServer({ root: dir, parseTimeoutMs: 1500, onReport: (report) => reports.push({ at: performance.now(), report }) });
  expect(dev.initial.errors).toEqual([]);
  server = http.createServer(dev.handler);
  url = await listen(server, 0, '127.0.0.1');
});
afterAll(async () => {
  await dev?.close();
  server?.closeAllConnections();
  server?.close();
  removeCopy(dir);
});

/** GETs `path` over and over until `done()`, recording when each request started and how long it took. */
async function probe(path: string, done: () => boolean): Promise<{ start: number; ms: number; status: number }[]> {
  const out: { start: number; ms: number; status: number }[] = [];
  while (!done()) {
    const start = performance.now();
    const res = await fetch(url + path);
    await res.arrayBuffer();
    out.push({ start, ms: performance.now() - start, status: res.status });
    await new Promise((r) => setTimeout(r, 20));
  }
  return out;
}

describe('a slow content file in dev', () => {
  it('keeps the server answering while the file is parsed, then serves the new page', async () => {
    // The worker starts beside the first build; until it is ready, a change is parsed in-thread.
    await dev.idle();
    const before = reports.length;
    editFile(dir, 'content/pages/about.md', (t) => t.replace('**Markdown**', '**SLOW**'));
    const requests = await probe('/items/alpha/', () => reports.length > before);
    const { at, report } = reports[before]!;
    expect(report.errors).toEqual([]);
    expect(report.ms).toBeGreaterThanOrEqual(750);
    // The requests sent while the parse ran (well inside the rebuild) were all answered at once.
    const during = requests.filter((r) => r.start > at - report.ms + 200 && r.start + r.ms < at - 100);
    expect(during.length).toBeGreaterThanOrEqual(5);
    expect(during.every((r) => r.status === 200)).toBe(true);
    expect(Math.max(...during.map((r) => r.ms))).toBeLessThan(300);
    expect(await (await fetch(url + '/about/')).text()).toContain('<strong>SLOW</strong>');
  });

  it('stops a parse that runs past the timeout and reports it on the file; a fix parses again', async () => {
    await dev.idle();
    let before = reports.length;
    editFile(dir, 'content/pages/about.md', (t) => t.replace('**SLOW**', '**STUCK**'));
    const requests = await probe('/', () => reports.length > before);
    const { report } = reports[before]!;
    expect(report.ms).toBeLessThan(4000); // stopped at the timeout, long before the extension would end
    expect(report.errors.map((e) => [e.location?.file, e.text])).toEqual([['content/pages/about.md', 'parsing this file took longer than 1.5 s and was stopped']]);
    expect(Math.max(...requests.map((r) => r.ms))).toBeLessThan(300);
    // The last good page is still served; fixing the file brings the new one.
    expect(await (await fetch(url + '/about/')).text()).toContain('<strong>SLOW</strong>');
    await dev.idle(); // the stuck worker was stopped and another started
    before = reports.length;
    editFile(dir, 'content/pages/about.md', (t) => t.replace('**STUCK**', '**fixed**'));
    await until(() => reports.length > before, 20_000, 'the rebuild after the fix');
    expect(reports[before]!.report.errors).toEqual([]);
    expect(await (await fetch(url + '/about/')).text()).toContain('<strong>fixed</strong>');
  });
});
