// preview() and dev() as library functions (src/server/): `{ url, close() }`, the site's server plugins in
// front of the static host, and in dev the plugins following the session — a config edit that adds or
// changes a plugin's server hook takes effect without a restart, and a config that failed to compile at
// start starts them once fixed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { preview, dev, ServerStartError, type DevHandle } from '../../src/server/index.ts';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';
import { request } from '../helpers/http.ts';
import { until } from './dev-fixture.ts';

/** A plugin whose server hook answers /api/hello with its word; its close() is recorded in this process. */
const HELLO = `
type Closed = { __helloClosed?: string[] };
export const hello = (word: string) => ({
  name: 'hello',
  server: () => ({
    handlers: [(req: any, res: any) => {
      if (req.url !== '/api/hello') return false;
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(\`\${word} from v1\`);
      return true;
    }],
    banner: [\`hello says \${word}\`],
    close: async () => { ((globalThis as Closed).__helloClosed ??= []).push(word); },
  }),
});
`;

const closed = () => ((globalThis as { __helloClosed?: string[] }).__helloClosed ??= []);
/** The basic fixture's config with the hello plugin listed. */
const withPlugin = (config: string, word = 'hi') => `import { hello } from './plugins/hello.ts';\n${config.replace('export default defineConfig({', `export default defineConfig({\n  plugins: [hello('${word}')],`)}`;

let site: TestSite;
beforeEach(() => { closed().length = 0; });
afterEach(() => { site?.remove(); });

describe('preview()', () => {
  it('serves the built site under its base with the plugins in front; close() stops both', async () => {
    // A blog served under /blog/, with the hello plugin beside its Markdown one.
    site = await copyOf('base-blog', { 'plugins/hello.ts': HELLO });
    site.edit('sitegen.config.ts', (t) => `import { hello } from './plugins/hello.ts';\n${t.replace('plugins: [markdown(', "plugins: [hello('hi'), markdown(")}`);
    const built = await site.build();
    expect(built.errors).toEqual([]);
    const server = await preview({ root: site.root, port: 0 });
    expect(server.siteUrl).toBe(`${server.url}/blog/`);
    expect(server.banner).toEqual(['hello says hi']);
    expect((await request(server.url, '/')).headers.location).toBe('/blog/');
    const home = await request(server.url, '/blog/');
    expect([home.status, home.body]).toEqual([200, built.read('index.html')]);
    expect((await request(server.url, '/blog/tags')).headers.location).toBe('/blog/tags/');
    expect((await request(server.url, '/api/hello')).body).toBe('hi from v1');
    await server.close();
    expect(closed()).toEqual(['hi']);
    await expect(request(server.url, '/blog/')).rejects.toThrow();
  }, 60_000);

  it('without the backend no plugin starts; with no built site it says so and nothing listens', async () => {
    site = await copyOf('basic', { 'plugins/hello.ts': HELLO });
    site.edit('sitegen.config.ts', (t) => withPlugin(t));
    const missing = await preview({ root: site.root, port: 0 }).catch((e) => e);
    expect(missing).toBeInstanceOf(ServerStartError);
    expect(missing.message).toBe(`${path.join(site.root, 'dist')} has no built site: run \`sitegen build\` first`);
    expect((await site.build()).code).toBe(0);
    const server = await site.preview(); // the helper's: backend off
    try {
      expect(server.banner).toEqual([]);
      expect((await request(server.url, '/api/hello')).status).toBe(404);
    } finally { await server.close(); }
    expect(closed()).toEqual([]);
  }, 60_000);

  it('a build whose routes write no home page: it names the missing route, not a missing build', async () => {
    site = await copyOf('basic');
    expect((await site.build()).code).toBe(0);
    fs.rmSync(path.join(site.root, 'dist', 'index.html'));
    const err = await preview({ root: site.root, port: 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(ServerStartError);
    expect(err.message).toBe(`${path.join(site.root, 'dist')} has no index.html: no route of the site writes its home page; add a route with path "/" (preview opens the site at /)`);
  });
});

describe('a port already taken', () => {
  it('preview() and dev() say so, and stop the plugins they started', async () => {
    site = await copyOf('basic', { 'plugins/hello.ts': HELLO });
    site.edit('sitegen.config.ts', (t) => withPlugin(t));
    expect((await site.build()).errors).toEqual([]);
    const taken = http.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      for (const start of [() => preview({ root: site.root, port }), () => dev({ root: site.root, port })]) {
        closed().length = 0;
        const e = await start().then(() => null, (x) => x);
        expect(e).toBeInstanceOf(ServerStartError);
        expect(e.message).toBe(`cannot listen on 127.0.0.1:${port}: the port is in use (pass another --port, or none for the next free one)`);
        expect(closed()).toEqual(['hi']);
      }
    } finally {
      await new Promise((r) => taken.close(r));
    }
  }, 60_000);
});

describe('dev(): server plugins follow the config', () => {
  let handle: DevHandle | null = null;
  afterEach(async () => { await handle?.close(); handle = null; });
  const hello = async () => (await request(handle!.url, '/api/hello')).body;

  it('a config edit that adds a plugin, then an edit of its code, take effect without a restart', async () => {
    site = await copyOf('basic', { 'plugins/hello.ts': HELLO });
    const reports: { plugins?: { banner: string[]; count: number; stopped: number } }[] = [];
    handle = await dev({ root: site.root, port: 0, onReport: (r) => reports.push(r) });
    expect(handle.initial.errors).toEqual([]);
    expect((await request(handle.url, '/api/hello')).status).toBe(404);
    // The config now lists the plugin: its handler answers, no restart.
    site.edit('sitegen.config.ts', (t) => withPlugin(t));
    expect(await until(async () => (await hello()) === 'hi from v1', 30_000, 'the added plugin to answer')).toBe(true);
    expect(reports.at(-1)?.plugins?.banner).toEqual(['hello says hi']);
    // The plugin's own code changes: the old server is closed and the new one answers.
    site.edit('plugins/hello.ts', (t) => t.replace('from v1', 'from v2'));
    expect(await until(async () => (await hello()) === 'hi from v2', 30_000, 'the changed plugin to answer')).toBe(true);
    expect(closed()).toEqual(['hi']);
    // A template edit recompiles the module too, but leaves the running plugins alone.
    site.edit('templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', '<footer>new footer</footer>'));
    await until(async () => (await request(handle!.url, '/about/')).body.includes('new footer'), 30_000, 'the template edit');
    expect(closed()).toEqual(['hi']);
    // The config no longer lists it: it is stopped, and the report says so (the CLI prints it).
    site.edit('sitegen.config.ts', (t) => t.replace("import { hello } from './plugins/hello.ts';\n", '').replace("\n  plugins: [hello('hi')],", ''));
    expect(await until(async () => (await request(handle!.url, '/api/hello')).status === 404, 30_000, 'the removed plugin to stop')).toBe(true);
    expect(closed()).toEqual(['hi', 'hi']);
    expect(reports.at(-1)?.plugins).toMatchObject({ count: 0, stopped: 1, errors: [] });
    await handle.close();
    handle = null;
    expect(closed()).toEqual(['hi', 'hi']);
  }, 120_000);

  it('a config that failed to compile at start starts its plugins once fixed', async () => {
    site = await copyOf('basic', { 'plugins/hello.ts': HELLO });
    site.edit('sitegen.config.ts', (t) => withPlugin(t, 'fixed').replace('export default defineConfig({', 'export default defineConfig({ oops'));
    handle = await dev({ root: site.root, port: 0 });
    expect(handle.initial.errors.map((m) => m.location?.file)).toEqual(['sitegen.config.ts']);
    expect(handle.banner).toEqual([]);
    expect((await request(handle.url, '/api/hello')).status).toBe(503); // nothing built yet: the placeholder
    site.edit('sitegen.config.ts', (t) => t.replace('defineConfig({ oops', 'defineConfig({'));
    expect(await until(async () => (await hello()) === 'fixed from v1', 30_000, 'the plugin of the fixed config to answer')).toBe(true);
    expect(closed()).toEqual([]);
  }, 120_000);

  it('backend: false starts no plugin, whatever the config says', async () => {
    site = await copyOf('basic', { 'plugins/hello.ts': HELLO });
    site.edit('sitegen.config.ts', (t) => withPlugin(t));
    handle = await dev({ root: site.root, port: 0, backend: false });
    expect(handle.banner).toEqual([]);
    expect((await request(handle.url, '/api/hello')).status).toBe(404);
    expect(handle.siteUrl()).toBe(`${handle.url}/`);
  }, 60_000);
});
