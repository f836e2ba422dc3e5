// The plugins' `markdown` hook: marked extensions from sitegen.config.ts shape every Markdown body, in a
// build (in-process and on render workers), in dev, and through the content cache — a changed extension
// re-parses the Markdown files instead of serving the HTML of the old one.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sitegen } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { editFile } from './dev-fixture.ts';
import { copyFixture, removeCopy } from '../helpers/scratch.ts';
import { expectSameOnWorkersAndInDev } from '../helpers/sameEverywhere.ts';

let dir = '';
afterEach(() => { if (dir) removeCopy(dir); dir = ''; });

/** A plugin whose extension renders **bold** as <strong class="CLASS">. */
const plugin = (cls: string) => `plugins: [{
    name: 'md-bold',
    markdown: [{ renderer: { strong(token) { return '<strong class="${cls}">' + this.parser.parseInline(token.tokens) + '</strong>'; } } }],
  }],
  validate:`;

function siteWithExtension(cls: string): string {
  const root = copyFixture('basic');
  editFile(root, 'sitegen.config.ts', (t) => t.replace('validate:', plugin(cls)));
  return root;
}

const about = (root: string) => fs.readFileSync(path.join(root, 'dist/about/index.html'), 'utf8');

describe('plugin markdown hook', () => {
  it('build (in-process and on workers) and dev render Markdown through the extension', async () => {
    dir = siteWithExtension('loud');
    const r = await siteAt(dir).build({ quiet: true });
    expect(r.stderr).toBe('');
    expect(about(dir)).toContain('This is <strong class="loud">Markdown</strong>');

    const inProcess = about(dir);
    await expectSameOnWorkersAndInDev(dir, 'about/index.html', inProcess);
  }, 90_000);

  it('a changed extension re-parses cached Markdown (build cache and dev)', async () => {
    dir = siteWithExtension('loud');
    expect((await siteAt(dir).build({ quiet: true })).code).toBe(0);
    const site = await createDevSite({ root: dir });
    try {
      await site.start();
      editFile(dir, 'sitegen.config.ts', (t) => t.replace('class="loud"', 'class="quiet"'));
      const report = await site.apply([{ file: 'sitegen.config.ts', kind: 'change' }]);
      expect(report?.errors).toEqual([]);
      expect(site.output.pages.get('about/index.html')?.html).toContain('<strong class="quiet">Markdown</strong>');
    } finally { await site.close(); }
    // The warm build: content/pages/about.md is unchanged, its cached HTML was made by the old extension.
    const r = await siteAt(dir).build({ quiet: true });
    expect(r.stderr).toBe('');
    expect(about(dir)).toContain('<strong class="quiet">Markdown</strong>');
  }, 90_000);

  it("an option the extension keeps in a closure, written in the config, re-parses cached Markdown when it changes", async () => {
    dir = copyFixture('basic');
    const factory = "const bold = (opts: { cls: string }) => ({ name: 'md-bold', markdown: [{ renderer: { strong(this: any, token: any) { return `<strong class=\"${opts.cls}\">` + this.parser.parseInline(token.tokens) + '</strong>'; } } }] });\n";
    editFile(dir, 'sitegen.config.ts', (t) => t.replace('export default defineConfig(', `${factory}export default defineConfig(`).replace('validate:', "plugins: [bold({ cls: 'loud' })],\n  validate:"));
    expect((await siteAt(dir).build({ quiet: true })).code).toBe(0);
    expect(about(dir)).toContain('<strong class="loud">Markdown</strong>');
    editFile(dir, 'sitegen.config.ts', (t) => t.replace("bold({ cls: 'loud' })", "bold({ cls: 'quiet' })"));
    // The function's source is the same; its option is not: the cached HTML is not used.
    expect((await siteAt(dir).build({ quiet: true })).code).toBe(0);
    expect(about(dir)).toContain('<strong class="quiet">Markdown</strong>');
    const site = await createDevSite({ root: dir });
    try {
      await site.start();
      editFile(dir, 'sitegen.config.ts', (t) => t.replace("bold({ cls: 'quiet' })", "bold({ cls: 'soft' })"));
      expect((await site.apply([{ file: 'sitegen.config.ts', kind: 'change' }]))?.errors).toEqual([]);
      expect(site.output.pages.get('about/index.html')?.html).toContain('<strong class="soft">Markdown</strong>');
    } finally { await site.close(); }
  }, 90_000);

  it('an extension that throws is a located error, not a crash', async () => {
    dir = copyFixture('basic');
    editFile(dir, 'sitegen.config.ts', (t) => t.replace('validate:', `plugins: [{ name: 'bad', markdown: [{ renderer: { strong() { throw new Error('nope'); } } }] }],\n  validate:`));
    const r = await siteAt(dir).build();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/content\/pages\/about\.md:\d+:\d+ A Markdown extension from a plugin threw: nope/);
    // Named as the extension's failure, not as content the policy refuses.
    expect(r.errors.map((e) => e.id)).toEqual(['MarkdownExtensionError']);
    expect(r.stderr).toContain('[A Markdown extension failed]');
    expect(r.stderr).not.toContain('Content would run as code');
  }, 60_000);

  it("an extension that writes a <script> is refused, with a hint that points at the extension, not at the content", async () => {
    dir = copyFixture('basic');
    editFile(dir, 'sitegen.config.ts', (t) => t.replace('validate:', `plugins: [{ name: 'sneaky', markdown: [{ renderer: { strong(token) { return '<script>x()</script>' + token.text; } } }] }],\n  validate:`));
    const r = await siteAt(dir).build();
    expect(r.code).toBe(1);
    // Named, and located at the paragraph whose **bold** the extension renders (line 7 of the file), not at line 1.
    expect(r.errors[0]!.text).toContain("has <script>, which the content policy does not allow (the sneaky plugin's Markdown extension wrote it from this block");
    expect(r.errors[0]!.hint).toContain("The sneaky plugin's Markdown extension (its markdown hook) renders it");
    expect(r.errors[0]!.location).toMatchObject({ file: 'content/pages/about.md', line: 7, lineText: expect.stringContaining('**Markdown**') });
  }, 60_000);

  it("with two plugins' extensions, the one whose token the refused block holds is named", async () => {
    dir = copyFixture('basic');
    // ==text== is the mark plugin's own token; its renderer writes an event handler. The quiet plugin renders headings.
    const mark = `{ name: 'mark', markdown: [{ extensions: [{ name: 'mark', level: 'inline', start: (s: string) => s.indexOf('=='), tokenizer(src: string) { const m = /^==([^=]+)==/.exec(src); return m ? { type: 'mark', raw: m[0], text: m[1] } : undefined; }, renderer: (t: any) => '<mark onclick="x()">' + t.text + '</mark>' }] }] }`;
    const quiet = `{ name: 'quiet', markdown: [{ renderer: { heading(t: any) { return '<h2>' + t.text + '</h2>'; } } }] }`;
    editFile(dir, 'sitegen.config.ts', (t) => t.replace('validate:', `plugins: [${quiet}, ${mark}],\n  validate:`));
    editFile(dir, 'content/pages/about.md', (t) => `${t}\n\nA ==marked== word.\n`);
    const r = await siteAt(dir).build();
    expect(r.code).toBe(1);
    expect(r.errors[0]!.text).toContain("(the mark plugin's Markdown extension wrote it from this block");
    expect(r.errors[0]!.location).toMatchObject({ file: 'content/pages/about.md', line: 10, lineText: 'A ==marked== word.' });
  }, 60_000);
});
