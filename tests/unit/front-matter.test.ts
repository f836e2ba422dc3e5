// One front-matter reader (src/content/frontMatter.ts finds the fences, the YAML reader parses the block).
// Sites' files were written for gray-matter's rules, so the split is held to gray-matter's own on 50,000
// generated files (gray-matter is a dev dependency for this comparison only), and each shape a site meets
// is checked through the engine's parse of a content file: a byte-order mark, CRLF lines, `---` in the
// body, an empty block, a block that never closes, `----`, a language after the fence.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { parse as parseYaml } from 'yaml';
import { splitFrontMatter } from '../../src/content/frontMatter.ts';
import { parseContentFile, type ParsedFile } from '../../src/content/parse.ts';
import type { Message } from '../../src/core/types.ts';
import { prng } from '../helpers/prng.ts';
import { copyOf } from '../helpers/scratch.ts';
import { cpuMs } from '../helpers/cpuTime.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const PIECES = ['---', '----', '---yaml', '--- yaml ', '--- js', '\n', '\r\n', '\r', '\n---', '\n---\n', '\r\n---\r\n', '\n--- x', '\n----',
  'title: x', 'a: 1', '# c', '#', '\uFEFF', 'body', ' ', '\t', '\n\n', '-', '---\n', 'text\n---\nmore'];

function generator(seed: number) {
  const next = prng(seed);
  return () => {
    let s = '';
    const n = 1 + Math.floor(next() * 12);
    for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
    return s;
  };
}

const dataOf = (block: string) => { try { return JSON.stringify(parseYaml(block) ?? {}); } catch { return 'refused'; } };

/** gray-matter's reading: the block it hands its engine (as data), its body, and the language it names. */
function grayMatter(text: string) {
  let block: string | null = null;
  const file = matter(text, { language: 'yaml', engines: { yaml: (b: string) => { block = b; return {}; } } } as never);
  return { data: block === null ? '{}' : dataOf(block), body: file.content, language: (file as { language?: string }).language ?? '' };
}

function ours(text: string) {
  const fm = splitFrontMatter(text);
  return { data: fm.blank ? '{}' : dataOf(fm.block), body: fm.body, language: fm.language || 'yaml' };
}

describe('the front matter split', () => {
  it("cuts every generated file where gray-matter cuts it: same block data, same body", () => {
    const text = generator(30);
    const wrong: string[] = [];
    let fenced = 0;
    for (let i = 0; i < 50_000; i++) {
      const t = text();
      const fm = splitFrontMatter(t);
      // A language other than YAML is refused before anything reads the block (parse.ts); and on a file
      // that is one fence line with no line break gray-matter drops the line's last character as the
      // language ("---yaml" reads as "yam"), where we read the whole line.
      if (fm.language && fm.language !== 'yaml') continue;
      if (fm.fenced && !t.includes('\n')) continue;
      if (fm.fenced) fenced++;
      const a = ours(t), b = grayMatter(t);
      if (a.data !== b.data || a.body !== b.body || a.language !== b.language) wrong.push(`${JSON.stringify(t)}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(fenced).toBeGreaterThan(3_000);
  });

  it('gives the block and body of a usual file, with their lines', () => {
    const text = '---\ntitle: Home\n---\n\nBody *text*.\n\n---\n\nAfter a rule.\n';
    const fm = splitFrontMatter(text);
    expect(fm).toMatchObject({ fenced: true, language: '', block: '\ntitle: Home', blockLine: 0, blank: false, body: '\nBody *text*.\n\n---\n\nAfter a rule.\n', bodyLine: 3 });
    expect(text.slice(fm.bodyStart)).toBe(fm.body);
  });

  it('reads a long file in time linear in its length', () => {
    const lines = '\n'.repeat(400_000);
    expect(cpuMs(() => {
      splitFrontMatter(`---${lines}# c\n`.repeat(2));
      splitFrontMatter(`---${'-'.repeat(400_000)}`);
      splitFrontMatter(`---\n${'#'.repeat(400_000)}`);
    })).toBeLessThan(500);
  });
});

const root = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-front-matter-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
async function parse(text: string): Promise<ParsedFile> {
  const rel = `content/pages/p${n++}.md`;
  fs.mkdirSync(path.join(root, 'content/pages'), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
  const parsed = await parseContentFile(root, rel);
  if (!('source' in parsed)) throw new Error(`not parsed: ${JSON.stringify(parsed.errors)}`);
  return parsed;
}
const where = (m: Message) => `${m.location?.line}:${m.location?.column}`;

describe('a Markdown file read by the engine', () => {
  it('skips a byte-order mark before the fence', async () => {
    const p = await parse('\uFEFF---\ntitle: Hello\n---\n# Heading\n');
    expect(p.errors).toEqual([]);
    expect(p.data).toEqual({ title: 'Hello' });
    expect(p.html).toContain('<h1');
    expect(p.html).toContain('Heading</h1>');
  });

  it('reads CRLF files, and locates a YAML error on its own line', async () => {
    const p = await parse('---\r\ntitle: Hello\r\ntags: [a, b]\r\n---\r\nSome *text*.\r\n');
    expect(p.errors).toEqual([]);
    expect(p.data).toEqual({ title: 'Hello', tags: ['a', 'b'] });
    expect(p.body).toBe('Some *text*.\r\n');
    const bad = await parse('---\r\ntitle: Hello\r\ntags: [a, b\r\n---\r\nBody\r\n');
    expect(bad.errors.length).toBeGreaterThan(0);
    expect(bad.errors[0].id).toBe('YamlSyntaxError');
    expect(bad.errors[0].location?.line).toBeGreaterThanOrEqual(3);
    expect(bad.errors[0].location?.line).toBeLessThanOrEqual(4);
  });

  it('keeps a `---` in the body as a thematic break, and locates the body after the front matter', async () => {
    expect((await parse('---\ntitle: Rule\n---\nAbove\n\n---\n\nBelow\n')).data).toEqual({ title: 'Rule' });
    const p = await parse('---\ntitle: Rule\n---\nAbove\n\n---\n\nBelow <b>raw</b>\n');
    expect(p.body).toBe('Above\n\n---\n\nBelow <b>raw</b>\n');
    // The raw HTML is refused at its line in the file: 3 front matter lines before the body (its end tag is the same mistake).
    expect(p.errors.map(where)).toEqual(['8:7']);
  });

  it('gives `{}` for an empty or comment-only front matter', async () => {
    for (const text of ['---\n---\nBody\n', '---\n\n# only a comment\n   \n---\nBody\n']) {
      const p = await parse(text);
      expect(p.errors).toEqual([]);
      expect(p.data).toEqual({});
      expect(p.body).toBe('Body\n');
    }
  });

  it('reads a front matter that never closes as all front matter, with an empty body', async () => {
    const p = await parse('---\ntitle: Open\nsummary: never closed\n');
    expect(p.errors).toEqual([]);
    expect(p.data).toEqual({ title: 'Open', summary: 'never closed' });
    expect(p.body).toBe('');
  });

  it('says so when a front matter that never closes fails as YAML (the body read as YAML is what fails)', async () => {
    const p = await parse('---\ntitle: Open\n\nSome text: with a colon.\nAnd another line\n');
    expect(p.errors.map((e) => [where(e), e.notes.map((n) => [n.text, n.location?.line])])).toEqual([
      ['5:1', [['the front matter opened here has no closing "---" line, so the whole file was read as YAML', 1]]],
    ]);
    // A closed block with the same error has no such note.
    expect((await parse('---\ntitle: Open\nAnd another line\n---\nBody\n')).errors[0]!.notes).toEqual([]);
  });

  it('treats a file opening with `----` as having no front matter', async () => {
    const p = await parse('----\ntitle: not data\n');
    expect(p.errors).toEqual([]);
    expect(p.data).toEqual({});
    expect(p.body).toBe('----\ntitle: not data\n');
    expect(p.html).toContain('<hr');
  });

  it('reads `---yaml` and refuses any other language at its column, whatever follows', async () => {
    expect((await parse('--- yaml\ntitle: Tagged\n---\nBody\n')).data).toEqual({ title: 'Tagged' });
    for (const [text, at] of [['---js\nmodule.exports = {}\n---\n', '1:4'], ['\uFEFF---  toml\nx = 1\n---\n', '1:6'], ['---json', '1:4']] as const) {
      const p = await parse(text);
      expect(p.data).toBeUndefined();
      expect(p.errors.map((m) => [m.id, where(m)])).toEqual([['ContentPolicyError', at]]);
    }
  });

  it('refuses Hugo\'s TOML front matter between "+++" lines, saying what it is (not each schema field as missing)', async () => {
    for (const text of ['+++\ntitle = "A post"\ndate = 2022-11-11T11:11:11+01:00\n+++\nBody\n', '\uFEFF+++\r\ntitle = "A"\r\n+++\r\n']) {
      const p = await parse(text);
      expect(p.data).toBeUndefined();
      expect(p.errors.map((m) => [m.id, where(m), m.text])).toEqual([['FrontMatterNotYaml', '1:1', 'Front matter must be YAML; this file\'s is TOML, between "+++" lines (as Hugo writes it), which sitegen does not read']]);
      expect(p.errors[0]!.hint).toContain('title: "A post"');
    }
    // A "+++" line that nothing closes is Markdown text.
    expect((await parse('+++\nJust text.\n')).errors).toEqual([]);
  });
});

describe('a Markdown file with no front matter', () => {
  it("is one problem naming the fields its schema requires, in build and dev, not a Required for each", async () => {
    const site = await copyOf('basic', { 'content/pages/about.md': '# About\n\nJust text.\n' });
    try {
      const r = await site.check();
      expect(r.errors.map((e) => [e.id, e.location?.file, e.location?.line, e.text])).toEqual([['ContentSchemaError', 'content/pages/about.md', 1, "This file has no front matter, and its collection's schema requires title"]]);
      expect(r.errors[0]!.hint).toBe('Start the file with its front matter: a line "---", the fields (title: …), one a line, then a line "---".');
      const dev = await site.dev();
      try {
        await expect.poll(() => dev.output(), { timeout: 10_000 }).toContain('This file has no front matter');
      } finally { await dev.close(); }
    } finally { site.remove(); }
  });

  it('says the same when its body fails the content policy too, in check and in dev', async () => {
    const site = await copyOf('basic', { 'content/pages/about.md': '# About\n\nHello <b>x</b>\n' });
    try {
      const r = await site.check();
      expect(r.errors.map((e) => [e.id, e.location?.line]).slice(0, 2)).toEqual([['ContentSchemaError', 1], ['ContentPolicyError', 3]]);
      expect(r.errors[0]!.text).toBe("This file has no front matter, and its collection's schema requires title");
      const dev = await site.dev();
      try {
        await expect.poll(() => dev.output(), { timeout: 10_000 }).toContain('This file has no front matter');
        expect(dev.output()).not.toContain('title: Required');
      } finally { await dev.close(); }
    } finally { site.remove(); }
  });
});
