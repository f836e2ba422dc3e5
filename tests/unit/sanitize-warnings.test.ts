// markdown({ html: 'sanitize' }) removes the raw HTML the content policy does not allow; the build says so, at
// the place in the file, every time (from the content cache too), and goes on.
import { afterAll, describe, expect, it } from 'vitest';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';

const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });

const ABOUT = '---\ntitle: About\ndescription: About the fixture.\n---\n# Hello\n\nA video:\n\n<iframe src="https://www.youtube.com/embed/abc"></iframe>\n\nAnd <kbd>Ctrl</kbd> stays.\n';

async function sanitizing(): Promise<TestSite> {
  const s = await copyOf('basic', { 'content/pages/about.md': ABOUT });
  sites.push(s);
  s.edit('sitegen.config.ts', (t) => t
    .replace("import { defineConfig, href } from 'sitegen-islands';", "import { defineConfig, href, markdown } from 'sitegen-islands';")
    .replace("  layout: Layout,", "  layout: Layout,\n  plugins: [markdown({ html: 'sanitize' })],"));
  return s;
}

describe("html: 'sanitize' warns of what it removes", () => {
  it('build and check name the element at its line, the page is published without it, and a cached build says it again', async () => {
    const s = await sanitizing();
    const r = await s.build();
    expect(r.code, r.stderr).toBe(0);
    expect(r.warnings).toEqual([expect.objectContaining({ id: 'HtmlSanitized', text: "html: 'sanitize' removes <iframe> from this body", location: expect.objectContaining({ file: 'content/pages/about.md', line: 9, column: 1 }) })]);
    expect(r.stderr).toContain("content/pages/about.md:9:1 html: 'sanitize' removes <iframe> from this body");
    const page = r.read('about/index.html');
    expect(page).not.toContain('iframe');
    expect(page).toContain('<kbd>Ctrl</kbd>');
    // The content cache answers the file now: the warning comes with it.
    s.edit('templates/pages.tsx', (t) => t.replace('Fixture home', 'Fixture home page'));
    const again = await s.build();
    expect(again.code).toBe(0);
    expect(again.warnings.map((w) => [w.id, w.location?.line])).toEqual([['HtmlSanitized', 9]]);
    // Nothing changed: the build is up to date, and still says it.
    const same = await s.build();
    expect(same.warnings.map((w) => [w.id, w.location?.line])).toEqual([['HtmlSanitized', 9]]);
    const checked = await s.check();
    expect(checked.code).toBe(0);
    expect(checked.stderr).toContain("removes <iframe>");
  });

  it('sitegen dev says it too, once, then what an edit adds, and when they no longer apply', async () => {
    const s = await sanitizing();
    const dev = await s.dev();
    try {
      expect(dev.code, dev.output()).toBe(0);
      await expect.poll(() => dev.output(), { timeout: 10_000 }).toContain("content/pages/about.md:9:1 html: 'sanitize' removes <iframe> from this body");
      const page = await (await fetch(`${dev.url}/about/`)).text();
      expect(page).not.toContain('<iframe');
      s.edit('content/pages/about.md', (t) => t.replace('And <kbd>Ctrl</kbd> stays.', 'And <kbd>Ctrl</kbd> stays.\n\n<object data="x.swf"></object>'));
      await expect.poll(() => dev.output(), { timeout: 10_000 }).toContain("content/pages/about.md:13:1 html: 'sanitize' removes <object> from this body");
      // Only the new warning is printed: the one the terminal shows already is not repeated.
      const iframe = "about.md:9:1 html: 'sanitize' removes <iframe>";
      expect(dev.stderr().split(iframe).length - 1).toBe(1);
      // A line added above them moves both: nothing new to say, and nothing gone.
      const said = dev.stderr().length;
      const rebuilds = () => dev.stdout().split('about.md → 1 route re-rendered').length;
      const before = rebuilds();
      s.edit('content/pages/about.md', (t) => t.replace('# Hello\n', '# Hello\n\nA new first paragraph.\n'));
      await expect.poll(rebuilds, { timeout: 10_000 }).toBeGreaterThan(before);
      expect(dev.stderr().slice(said)).not.toMatch(/removes <|no longer appl/);
      // Both removed from the file: the terminal says the shown ones no longer apply.
      s.edit('content/pages/about.md', (t) => t.replace('<iframe src="https://www.youtube.com/embed/abc"></iframe>', 'A link instead.').replace('<object data="x.swf"></object>', 'No object.'));
      await expect.poll(() => dev.stderr(), { timeout: 10_000 }).toContain('2 warnings shown before no longer apply');
      expect(dev.stderr().split(iframe).length - 1).toBe(1);
    } finally { await dev.close(); }
  });

  it('parsed on worker threads, from their cache, and left out with a draft', async () => {
    const s = await sanitizing();
    const pool = { SITEGEN_PARALLEL_MIN: '1', SITEGEN_WORKERS: '2', SITEGEN_POOL_MAIN: '0' };
    for (let i = 0; i < 2; i++) {
      const r = await s.build({ env: pool });
      expect(r.warnings.map((w) => [w.id, w.location?.line]), `build ${i + 1}`).toEqual([['HtmlSanitized', 9]]);
      s.edit('templates/pages.tsx', (t) => t.replace('Fixture home', `Fixture home ${i}`));
    }
  });

  it('says a few removals of a body at their places, and that there are more', async () => {
    const s = await sanitizing();
    const tags = ['iframe', 'object', 'embed', 'form', 'style', 'script', 'select', 'textarea'];
    s.edit('content/pages/about.md', (t) => t + '\n' + tags.map((tag) => `<${tag}>x</${tag}>\n`).join('\n'));
    const r = await s.build();
    expect(r.code, r.stderr).toBe(0);
    // (the second <iframe> is the first one's removal again: said once)
    expect(r.warnings.map((w) => w.text)).toEqual([
      ...['iframe', 'object', 'embed', 'form', 'style'].map((t) => `html: 'sanitize' removes <${t}> from this body`),
      "html: 'sanitize' removes more from this body than is listed here",
    ]);
  });

  it('says nothing once the body holds only HTML the policy allows', async () => {
    const s = await sanitizing();
    s.edit('content/pages/about.md', (t) => t.replace('<iframe src="https://www.youtube.com/embed/abc"></iframe>', '<details><summary>More</summary>\n\nText.\n\n</details>'));
    const r = await s.build();
    expect(r.code, r.stderr).toBe(0);
    expect(r.warnings).toEqual([]);
  });

  it("says so of what a plugin's Markdown extension wrote too, naming the plugin, at the block it rendered", async () => {
    const s = await sanitizing();
    // (a body without raw HTML of its own: one with some is sanitized whole, its raw HTML warned of at its lines)
    s.edit('content/pages/about.md', (t) => t.replace('<iframe src="https://www.youtube.com/embed/abc"></iframe>', 'Some **bold** words.').replace('And <kbd>Ctrl</kbd> stays.', 'The end.'));
    s.edit('sitegen.config.ts', (t) => t.replace("plugins: [markdown({ html: 'sanitize' })],", "plugins: [markdown({ html: 'sanitize' }), { name: 'loud', markdown: [{ renderer: { strong(token) { return '<strong onclick=\"go()\">' + token.text + '</strong>'; } } }] }],"));
    const r = await s.build();
    expect(r.code, r.stderr).toBe(0);
    expect(r.warnings).toEqual([expect.objectContaining({ id: 'HtmlSanitized', text: expect.stringMatching(/^html: 'sanitize' removes .*onclick.* from this body, which the loud plugin's Markdown extension wrote$/), location: expect.objectContaining({ file: 'content/pages/about.md', line: 9 }) })]);
    const page = r.read('about/index.html');
    expect(page).toContain('<strong>bold</strong>');
    expect(page).not.toContain('onclick');
  });
});
