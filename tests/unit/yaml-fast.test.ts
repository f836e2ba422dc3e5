// The fast YAML reader (src/content/yamlFast.ts) against the `yaml` package it stands in for: on every
// YAML file and front matter of the repository, on edge cases of the core schema and on thousands of
// generated documents, it either gives exactly the value `yaml` gives (toJS) or declines; it never accepts
// a text `yaml` refuses. A file it reads still gets located schema errors (positions made on demand).
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseDocument } from 'yaml';
import { fastYaml } from '../../src/content/yamlFast.ts';
import { parseContentFile } from '../../src/content/parse.ts';
import { validateData } from '../../src/content/validate.ts';
import { z } from 'zod';
import { REPO } from '../helpers/cli.ts';

/** What the `yaml` package makes of a text: its value, or that it refuses it. */
function reference(text: string): { value: unknown } | { refused: true } {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) return { refused: true };
  try { return { value: structuredClone(doc.toJS({ maxAliasCount: 100 })) ?? null }; } catch { return { refused: true }; }
}

/** 'same' | 'declined', or a description of the disagreement. */
function compare(text: string): string {
  const fast = fastYaml(text);
  if (!fast) return 'declined';
  const ref = reference(text);
  if ('refused' in ref) return `accepted what yaml refuses: ${JSON.stringify(text)}`;
  return isDeepStrictEqual(fast.value, ref.value) ? 'same' : `${JSON.stringify(text)}: ${JSON.stringify(fast.value)} ≠ yaml's ${JSON.stringify(ref.value)}`;
}

function repositoryYaml(): string[] {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) { if (!['node_modules', 'dist', '.sitegen', '.git', '.work'].includes(e.name)) walk(p); continue; }
      if (!e.isFile()) continue; // fixtures' symlinks (some lead out of their site on purpose)
      const t = fs.readFileSync(p, 'utf8');
      if (/\.ya?ml$/.test(e.name)) texts.push(t);
      else if (e.name.endsWith('.md') && t.startsWith('---\n')) { const end = t.indexOf('\n---', 3); if (end > 0) texts.push(t.slice(4, end + 1)); }
    }
  };
  for (const d of ['content', 'tests/fixtures', 'init-template']) walk(path.join(REPO, d));
  return texts;
}

const EDGE = [
  '', '~', 'a:', 'a: ~', 'a: null', 'a: Null', 'a: NULL', 'a: nUll', 'a: yes', 'a: no', 'a: on', 'a: True', 'a: TRUE', 'a: tRue',
  'a: 0b101', 'a: 0o17', 'a: 017', 'a: 0x1F', 'a: -0x1F', 'a: 1_000', 'a: +12', 'a: -0', 'a: 1.', 'a: .5', 'a: 1e3', 'a: 1E-3',
  'a: 1.5e+3', 'a: .inf', 'a: -.Inf', 'a: +.INF', 'a: .nan', 'a: .NaN', 'a: -.nan', 'a: 2024-01-01', 'a: 2024-01-01T10:00:00Z',
  'a: 12:30', 'a: 123456789012345678901234', 'a: 0.1e', 'a: =', 'a: !!str 12', 'a: !!int "12"', 'a: !!float 1', 'a: !foo bar',
  'a: !!binary aGVsbG8=', '<<: {b: 1}', 'null: 1', '~: 1', ': 1', 'true: 1', '1: a', '1.5: a', '__proto__: {x: 1}', 'constructor: 1',
  'a: |\n  x\n  y\n', 'a: >\n  x\n  y\n\n  z\n', 'a: |-\n  x\n', 'a: |+\n  x\n\n', 'a: "x\\ty\\u00e9\\x41"', "a: 'it''s'",
  'a: "line\n  folded"', 'a: plain\n  folded more', 'a: [1, two, "3", {b: c}]', 'a: {b: 1, c: [x, y]}', 'a:\n- 1\n- - 2\n  - 3',
  'a: b\na: c', 'a: &x 1\nb: *x', '? a\n: b', '[a, b]: c', '{a: 1}: b', 'a:\tb', 'a:\n\tb: 1', '- a\n- b', 'just a string',
  'a: b # comment', 'a: b#not', 'a: "#x"', 'a: @x', 'a: `x', '%YAML 1.2\n---\na: 1', 'a: 1\n---\nb: 2', 'a: 1\n...\n', 'a: - b',
  'a: x: y', 'a: [x: y]', 'a: {x}', 'a: "\\N\\_\\L\\P"', 'é: ü', 'a: 😀', 'a: 00', 'a: 0o', 'a: 0x', 'a: [1,2,]', 'a: b\n  c: d',
  'a:\n  - b\n  c: d', 'a: [null, ~, true, 1, 1.5]', 'a: !!null ""', 'a: !!bool true', 'a: !!map {}', 'a: \\x', 'a:\n- -\n- b', '- - a\n- b', 'a:\n  - - x\n    - y\n  - z',
  // an alias bomb: `yaml` refuses it (maxAliasCount); a shared-object reading would hand a schema a huge walk
  'a: &a ["x","x"]\nb: &b [*a,*a]\nc: &c [*b,*b]\nd: &d [*c,*c]\ne: &e [*d,*d]\nf: &f [*e,*e]\ng: &g [*f,*f]\nh: [*g,*g]',
];

describe('fast YAML reading', () => {
  it('gives the value yaml gives, or declines, on every YAML file and front matter of the repository', () => {
    const texts = repositoryYaml();
    expect(texts.length).toBeGreaterThan(60);
    const results = texts.map(compare);
    expect(results.filter((r) => r !== 'same' && r !== 'declined')).toEqual([]);
    // It is worth having: it reads most of them.
    expect(results.filter((r) => r === 'same').length).toBeGreaterThan(texts.length * 0.8);
  });

  it('agrees with yaml on the edge cases of the core schema, keys, tags, anchors and syntax errors', () => {
    expect(EDGE.map(compare).filter((r) => r !== 'same' && r !== 'declined')).toEqual([]);
    // The ones that matter most are declined, not guessed.
    for (const t of ['a: &x 1\nb: *x', 'a:\n- -\n- b', 'null: 1', '~: 1', 'a: !!float 1', '[a, b]: c', '? a\n: b', EDGE.at(-1)!]) expect(compare(t), t).toBe('declined');
    // YAML 1.1 readings are never used: these stay strings, as in yaml.
    for (const [t, v] of [['a: yes', 'yes'], ['a: 0b101', '0b101'], ['a: 1_000', '1_000'], ['a: 2024-01-01', '2024-01-01'], ['a: 017', 17]] as const) {
      expect(fastYaml(t)?.value).toEqual({ a: v });
    }
  });

  it('agrees with yaml on 5,000 generated documents', () => {
    let seed = 7;
    const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
    const pick = <T,>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
    const scalars = ['a', 'b c', '1', '-2', '+3', '0o7', '0x1f', '1.5', '.5', '1e3', '.inf', '-.inf', '.nan', 'true', 'False', 'null', '~', '', 'yes',
      '2024-01-01', '"x"', "'y'", '"a: b"', '"#"', 'x # c', '0b1', '1_0', '12:30', '"\\u00e9"', "'it''s'", 'é', '-', '"- x"', '[1, 2]', '{k: v}',
      '[]', '{}', '"multi\n  line"', 'plain\n  cont', '|\n  lit\n', '>\n  fold\n  ed\n', '|-\n  x\n', 'a:b', 'http://x.y/z', '"\\\\"', '%', '@', ',', '[a, {b: c}]'];
    const keys = ['a', 'b', 'title', 'k1', '"q"', "'s'", '1', 'true', 'x y', 'é', 'a-b', '_c'];
    const doc = (depth: number, indent: string): string => {
      const used = new Set<string>();
      let out = '';
      for (let i = 0, n = 1 + Math.floor(rnd() * 4); i < n; i++) {
        const k = pick(keys);
        if (used.has(k)) continue;
        used.add(k);
        const r = rnd();
        const v = (s: string) => s.replace(/\n/g, `\n${indent}  `);
        if (r < 0.2 && depth < 3) out += `${indent}${k}:\n${doc(depth + 1, indent + pick(['  ', '    ']))}`;
        else if (r < 0.35 && depth < 3) { out += `${indent}${k}:\n`; for (let j = 0, m = 1 + Math.floor(rnd() * 3); j < m; j++) out += `${indent}- ${v(pick(scalars))}\n`; }
        else out += `${indent}${k}: ${v(pick(scalars))}\n`;
      }
      return out;
    };
    const results = Array.from({ length: 5000 }, () => compare(doc(0, '')));
    expect(results.filter((r) => r !== 'same' && r !== 'declined')).toEqual([]);
    expect(results.filter((r) => r === 'same').length).toBeGreaterThan(2500);
  });

  it('still locates a schema error in a file it read, at the field\'s line and column', async () => {
    const dir = fs.mkdtempSync(path.join(REPO, 'tests', '.tmp-yaml-fast-'));
    try {
      fs.mkdirSync(path.join(dir, 'content'));
      fs.writeFileSync(path.join(dir, 'content', 'a.yaml'), 'title: Fine\nprice: "three"\ntags:\n  - one\n');
      const parsed = await parseContentFile(dir, 'content/a.yaml');
      expect('source' in parsed && parsed.errors).toEqual([]);
      if (!('source' in parsed)) return;
      expect(fastYaml(fs.readFileSync(path.join(dir, 'content', 'a.yaml'), 'utf8'))).toBeTruthy(); // read by the fast path
      const v = validateData(z.strictObject({ title: z.string(), price: z.number(), tags: z.array(z.string()), }), parsed.data, parsed.source);
      expect(v.errors.map((e) => [e.location?.line, e.location?.column, e.text])).toEqual([[2, 8, 'Expected number, received string "three"']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
