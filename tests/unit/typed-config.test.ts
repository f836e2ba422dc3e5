// Typed content (issue 14): unknown config keys are located errors in build, check and dev, and YAML dates
// work with z.coerce.date() while a wrong type names what it got. (tsc on the config's types:
// authoring-types.test.ts, in the one tsc run over tests/types/.)
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { SCRATCH, copyOf } from '../helpers/scratch.ts';

const work = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-typed-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A copy of a fixture (links resolved, no build output) that a test may edit. */
function copy(name: string, as: string): string {
  const dir = path.join(work, as);
  fs.cpSync(fixture(name), dir, { recursive: true, dereference: true, filter: (src) => !/[/\\](dist|\.sitegen)([/\\]|$)/.test(src) });
  return dir;
}

function edit(file: string, from: string | RegExp, to: string): void {
  const text = fs.readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${from} not found in ${file}`);
  fs.writeFileSync(file, next);
}

describe('unknown config keys', () => {
  const site = copy('basic', 'unknown-keys');
  const config = path.join(site, 'sitegen.config.ts');
  edit(config, "site: { title: 'Fixture',", "site: { basePath: '/blog', title: 'Fixture',");
  edit(config, '  collections: {', '  colections: {');
  edit(config, '  layout: Layout,', '  layout: Layout,\n  images: { width: [480], quality: 70 },');

  for (const command of ['build', 'check']) {
    it(`${command} exits 1 naming each key at its line, with the valid keys and a did-you-mean`, async () => {
      const r = await siteAt(site).run(command);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('sitegen.config.ts:9:11 Unknown config key "site.basePath"');
      expect(r.stderr).toContain('Valid keys in site: title, url, lang');
      // Two problems, each with its own did-you-mean.
      // Three problems, each with its own did-you-mean; a nested object's keys too (images).
      expect(r.stderr.match(/✗ sitegen\.config\.ts:\d+:\d+ Unknown config key/g)).toHaveLength(3);
      expect(r.stderr).toMatch(/✗ sitegen\.config\.ts:13:3 Unknown config key "colections"[^✗]*hint: Did you mean collections\?/);
      expect(r.stderr).toMatch(/✗ sitegen\.config\.ts:12:\d+ Unknown config key "images\.width"[^✗]*hint: Did you mean widths\? Valid keys in images: fingerprint, widths, formats, quality, maxWidth, sizes, maxPixels, remote\./);
      // The misspelt key is the one problem of `collections`: not a second one saying it is missing.
      expect(r.stderr).not.toContain('"collections" is required');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(fs.existsSync(path.join(site, 'dist'))).toBe(false);
    }, 120_000);
  }

  it('a key written beside the object it belongs in is pointed inside it (base beside site)', async () => {
    const other = copy('basic', 'unknown-keys-base');
    edit(path.join(other, 'sitegen.config.ts'), '  layout: Layout,', "  layout: Layout,\n  base: '/repo/',");
    const r = await siteAt(other).check();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Unknown config key "base"[^✗]*hint: Did you mean site\.base\? It goes inside site: \{ base: … \}\./);
    // `title` beside `site`: pointed inside it (not "did you mean site?"), at its own line (not a schema's title: above).
    edit(path.join(other, 'sitegen.config.ts'), "  base: '/repo/',", "  title: 'Mine',");
    const t = await siteAt(other).check();
    const line = fs.readFileSync(path.join(other, 'sitegen.config.ts'), 'utf8').split('\n').findIndex((l) => l === "  title: 'Mine',") + 1;
    expect(t.stderr).toContain(`sitegen.config.ts:${line}:3 Unknown config key "title"`);
    expect(t.stderr).toMatch(/Unknown config key "title"[^✗]*hint: Did you mean site\.title\? It goes inside site/);
  });

  it('a misspelt key of a collection is one problem, not a second about the key it meant', async () => {
    const other = copy('basic', 'unknown-keys-pattern');
    edit(path.join(other, 'sitegen.config.ts'), "pages: { pattern: 'pages/*.md'", "pages: { patern: 'pages/*.md'");
    const r = await siteAt(other).check();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Unknown config key "collections\.pages\.patern"[^✗]*hint: Did you mean pattern\?/);
    expect(r.stderr).not.toContain('collections.pages.pattern"');
  });

  it('dev reports the key in the terminal and the overlay', async () => {
    const server = await siteAt(site).dev({ backend: true });
    try {
      // The overlay's errors come over the event stream: read it until the error shows (or time out).
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), 30_000);
      const res = await fetch(`${server.url}/__sitegen/events`, { signal: ac.signal });
      const reader = res.body!.getReader();
      let stream = '';
      while (!stream.includes('Unknown config key')) {
        const { value, done } = await reader.read();
        if (done) break;
        stream += Buffer.from(value).toString('utf8');
      }
      clearTimeout(timer);
      ac.abort();
      expect(stream).toContain('Unknown config key \\"site.basePath\\"');
      expect(server.output()).toContain('sitegen.config.ts:9:11 Unknown config key "site.basePath"');
    } finally { await server.close(); }
  }, 120_000);
});

describe('dates', () => {
  it('a YAML date and a front-matter date build with z.coerce.date(), cold and from the content cache', async () => {
    const site = copy('dates', 'dates');
    const pages = () => ['index.html', 'posts/launch/index.html'].map((f) => fs.readFileSync(path.join(site, 'dist', f), 'utf8'));
    for (let i = 0; i < 2; i++) {
      const r = await siteAt(site).build({ quiet: true });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const [home, post] = pages();
      expect(home).toContain('2024-05-01</time> Meetup');
      expect(post).toContain('Posted <time');
      expect(post).toContain('2024-06-15</time>');
    }
  }, 120_000);

  it('z.date() given a YAML date says it received a string, where, and how to accept it', async () => {
    const site = copy('dates', 'strict-date');
    edit(path.join(site, 'sitegen.config.ts'), 'const Event$ = z.strictObject({ title: z.string(), date: z.coerce.date() });', 'const Event$ = z.strictObject({ title: z.string(), date: z.date() });');
    const r = await siteAt(site).build();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('content/events/meetup.yaml:2:7 date: Expected date, received string "2024-05-01"');
    expect(r.stderr).toContain("hint: YAML dates are strings: declare the field with date() from sitegen-islands (import { date } from 'sitegen-islands'; date: date())");
  }, 120_000);

  it('a value that is not a date names what was written, not "a map"', async () => {
    const site = copy('dates', 'bad-date');
    fs.writeFileSync(path.join(site, 'content/posts/launch.md'), '---\ntitle: Launch\ndate: next tuesday\n---\n\nWe launched.\n');
    const r = await siteAt(site).build();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('content/posts/launch.md:3:7 date: Expected date, received string "next tuesday"');
    expect(r.stderr).toContain('hint: Write the date as YYYY-MM-DD');
    expect(r.stderr).not.toContain('received a map');
  }, 120_000);
});

describe('an empty --site-url', () => {
  it('is unset, as an empty SITE_URL is: the config\'s site.url is the origin', async () => {
    const site = await copyOf('basic', {});
    try {
      const r = await site.build({ siteUrl: '', env: { SITE_URL: '' } });
      expect(r.errors).toEqual([]);
      expect(r.read('about/index.html')).toContain('<link rel="canonical" href="https://fixture.example/about/"/>');
    } finally { site.remove(); }
  });
});


describe('csp of the wrong shape', () => {
  it('names the directive whose sources are not a list, at its line, with how to write it', async () => {
    const site = await copyOf('basic', {});
    try {
      site.edit('sitegen.config.ts', (t) => t.replace('  css:', "  csp: {\n    'script-src': \"'self'\",\n  },\n  css:"));
      const r = await site.build();
      const line = site.file('sitegen.config.ts').split('\n').findIndex((l) => l.includes("'script-src'")) + 1;
      expect(r.errors.map((e) => [e.text, e.location?.line])).toEqual([[`Config "csp.script-src" must be a list of sources, such as ["'self'"]`, line]]);
      // A Map (whose entries a plain object's reading would not see) is refused, not taken as no additions.
      site.edit('sitegen.config.ts', (t) => t.replace("  csp: {\n    'script-src': \"'self'\",\n  },", '  csp: new Map([["script-src", ["https://x.example"]]]) as never,'));
      expect((await site.build()).errors.map((e) => e.text)).toEqual([expect.stringMatching(/^Config "csp" must be an object of sources by directive/)]);
    } finally { site.remove(); }
  });
});
