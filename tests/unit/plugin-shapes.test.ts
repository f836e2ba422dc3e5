// A plugin written in JavaScript (or cast to any) may return the wrong shape from a hook: each is the plugin's
// error, saying what shape is needed, never a crash of sitegen.
import { describe, expect, it } from 'vitest';
import { copyOf } from '../helpers/scratch.ts';

const withPlugin = (plugin: string) => (t: string) => t.replace('  layout: Layout,', `  layout: Layout,\n  plugins: [${plugin} as any],`);

describe('a plugin hook that returns the wrong shape', () => {
  it('outputs: an object rather than a list, or contents that are not text: the plugin\'s error', async () => {
    const site = await copyOf('basic', {});
    try {
      site.edit('sitegen.config.ts', withPlugin("{ name: 'shapes', outputs: () => ({ path: 'n.json', contents: 'x' }) }"));
      const one = await site.build();
      expect(one.code).toBe(1);
      expect(one.errors.map((e) => e.text)).toEqual(['plugin "shapes"\'s outputs hook returned an object, not a list']);
      site.edit('sitegen.config.ts', (t) => t.replace("outputs: () => ({ path: 'n.json', contents: 'x' })", "outputs: () => [{ path: 'n.json', contents: { a: 1 } }]"));
      const two = await site.build();
      expect(two.code).toBe(1);
      expect(two.errors.map((e) => [e.text, e.hint])).toEqual([['plugin "shapes" output n.json: contents is object, not text or bytes', expect.stringContaining('JSON.stringify(data)')]]);
    } finally { site.remove(); }
  });

  it('config: errors that are not whole messages are said, naming the plugin', async () => {
    const site = await copyOf('basic', {});
    try {
      site.edit('sitegen.config.ts', withPlugin("{ name: 'keys', config: () => ({ errors: [{ text: 'API_KEY is missing' }, 'and a plain text'] }) }"));
      const r = await site.build();
      expect(r.code).toBe(1);
      expect(r.errors.map((e) => e.text)).toEqual(['plugin "keys": API_KEY is missing', 'plugin "keys": and a plain text']);
      expect(r.stderr).not.toContain('crashed');
    } finally { site.remove(); }
  });

  it('a key that is no hook (heads, output) is a warning with the hook it likely meant; the build goes on', async () => {
    const site = await copyOf('basic', {});
    try {
      site.edit('sitegen.config.ts', withPlugin("{ name: 'typo', heads: () => [], output: () => [] }"));
      const r = await site.build();
      expect(r.code).toBe(0);
      expect(r.warnings.map((w) => [w.text, w.hint])).toEqual([
        ['plugin "typo" has "heads", which is no hook: the engine never calls it', expect.stringContaining('Did you mean head?')],
        ['plugin "typo" has "output", which is no hook: the engine never calls it', expect.stringContaining('Did you mean outputs?')],
      ]);
      // Each at its key in the config.
      expect(r.warnings.map((w) => [w.location?.file, w.location?.lineText.slice((w.location?.column ?? 1) - 1).split(':')[0]])).toEqual([['sitegen.config.ts', 'heads'], ['sitegen.config.ts', 'output']]);
    } finally { site.remove(); }
  });

  it('a config hook that throws is the plugin\'s error at the line that throws', async () => {
    const site = await copyOf('basic', {});
    try {
      site.edit('sitegen.config.ts', withPlugin("{ name: 'boom', config: () => { throw new Error('no key'); } }"));
      const r = await site.build();
      expect(r.code).toBe(1);
      expect(r.errors.map((e) => [e.text, e.location?.file])).toEqual([['plugin "boom" failed in its config hook: no key', 'sitegen.config.ts']]);
      expect(r.errors[0]!.location?.line).toBeGreaterThan(1);
    } finally { site.remove(); }
  });

  it('a head hook that gives a <script> is refused at render, naming the plugin', async () => {
    const site = await copyOf('basic', {});
    try {
      site.edit('sitegen.config.ts', withPlugin("{ name: 'tags', head: () => [{ tag: 'script', attrs: { src: 'https://evil.example/x.js' } }] }"));
      const r = await site.build();
      expect(r.code).toBe(1);
      expect(r.errors[0]!.text).toContain('plugin "tags"\'s head hook gave a <script> tag; a page\'s head takes meta, link and jsonld tags only');
    } finally { site.remove(); }
  });

  it("a config hook's notices are printed by check too, as build prints them", async () => {
    const site = await copyOf('basic', {});
    try {
      site.edit('sitegen.config.ts', withPlugin("{ name: 'says', config: () => ({ notices: ['says: using the local backend'] }) }"));
      const built = await site.build();
      expect(built.stdout).toContain('note says: using the local backend');
      const checked = await site.check();
      expect(checked.code).toBe(0);
      expect(checked.stdout).toContain('note says: using the local backend');
    } finally { site.remove(); }
  });

  it('an output under assets/ (cached for a year) is refused; a head hook that throws is said as the plugin\'s', async () => {
    const site = await copyOf('basic', {});
    try {
      site.edit('sitegen.config.ts', withPlugin("{ name: 'files', outputs: () => [{ path: 'assets/x.js', contents: 'x' }] }"));
      const r = await site.build();
      expect(r.code).toBe(1);
      expect(r.errors.map((e) => e.text)).toEqual(['plugin "files" output assets/x.js is under assets/, which holds the build\'s fingerprinted files, cached by browsers for a year']);
      site.edit('sitegen.config.ts', (t) => t.replace("{ name: 'files', outputs: () => [{ path: 'assets/x.js', contents: 'x' }] }", "{ name: 'heady', head: () => { throw new Error('no tags'); } }"));
      const h = await site.build();
      expect(h.code).toBe(1);
      expect(h.errors[0]!.text).toContain('plugin "heady" failed in its head hook: no tags');
      expect(h.errors[0]!.location?.file).toBe('sitegen.config.ts');
      // A head hook that gives a <script>: one error, at the plugin in the config, not one at each page's content file.
      site.edit('sitegen.config.ts', (t) => t.replace("{ name: 'heady', head: () => { throw new Error('no tags'); } }", "{ name: 'scripty', head: () => [{ tag: 'script' as 'meta', attrs: {} }] }"));
      const s = await site.build();
      expect(s.code).toBe(1);
      expect(s.errors).toHaveLength(1);
      expect(s.errors[0]!.text).toContain('plugin "scripty"\'s head hook gave a <script> tag');
      expect(s.errors[0]!.location).toMatchObject({ file: 'sitegen.config.ts', lineText: expect.stringContaining("name: 'scripty'") });
    } finally { site.remove(); }
  });
});
