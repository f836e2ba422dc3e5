// `sitegen dev` under 50 random edits of a fixture copy, half of them broken (invalid YAML, schema
// violations, broken links, a template that throws, a template that does not compile). After each edit the
// test waits (bounded, on the event stream) until the server reports exactly the problems the files now
// have; the server must never fail, and at the end it must serve the correct site. In process (the CLI's own
// dev command, tests/helpers/site.ts): an error the server does not handle fails the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { openEvents, type SseEvent } from './dev-fixture.ts';
import { prng } from '../helpers/prng.ts';
import { type DevRun, type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';

const ITEM_TEMPLATE_GOOD = (m: string) => `export function Item({ title, tags, price }: { title: string; tags: string[]; price: number }) {\n  return (<><h1>{title}</h1><p>{tags.join(', ')} — \${price}</p><p>item ${m}</p></>);\n}`;
const ITEM_TEMPLATE_THROWS = (m: string) => `export function Item({ title }: { title: string }) {\n  if (title) throw new Error('boom ${m}');\n  return <h1>{title}</h1>;\n}`;
const ITEM_TEMPLATE_SYNTAX = (m: string) => `export function Item() {\n  const ${m} = ;\n  return null;\n}`;

/**
 * What a broken version breaks, in the order a build meets problems: a template that does not compile
 * hides everything else, content errors hide render errors, and links are checked only in a rendered site.
 */
const LAYERS = ['compile', 'content', 'render', 'link'] as const;
type Layer = typeof LAYERS[number];
type Make = (m: string, src: string) => string;

/** Each file, a good version (the marker shows on `page`) and broken versions (the marker shows in the error). */
const FILES: { rel: string; page: string; good: Make; broken: [Layer, Make][] }[] = [
  {
    rel: 'content/items/alpha.yaml', page: '/items/alpha/',
    good: (m) => `title: Alpha ${m}\ntags: [a, b]\nprice: 3\n`,
    broken: [['content', (m) => `title: Alpha\ntags: [a, b]\nprice: 3\n${m}: : x\n`], ['content', (m) => `title: Alpha\ntags: [a, b]\nprice: "${m}"\n`]],
  },
  {
    rel: 'content/items/beta.yaml', page: '/items/beta/',
    good: (m) => `title: Beta ${m}\ntags:\n  - c\n  - d\nprice: 5\n`,
    broken: [['content', (m) => `title: Beta\ntags:\n  - c\n  - d\nprice: 5\ncolour: ${m}\n`], ['content', (m) => `title: Beta\ntags: [${m}]\nprice: 5\n`]],
  },
  {
    rel: 'content/pages/about.md', page: '/about/',
    good: (m) => `---\ntitle: About\ndescription: About the fixture.\n---\n# Hello ${m}\n\nA [link home](/) and [an item](/items/alpha/).\n`,
    broken: [['link', (m) => `---\ntitle: About\n---\n# Hello\n\nA [broken link](/missing-${m}/).\n`], ['content', (m) => `---\ntitle: About\ncolour: ${m}\n---\n# Hello\n`]],
  },
  {
    rel: 'templates/pages.tsx', page: '/items/beta/',
    good: (m, src) => src.replace(/export function Item[\s\S]*?\n}\n/, `${ITEM_TEMPLATE_GOOD(m)}\n`),
    broken: [['render', (m, src) => src.replace(/export function Item[\s\S]*?\n}\n/, `${ITEM_TEMPLATE_THROWS(m)}\n`)], ['compile', (m, src) => src.replace(/export function Item[\s\S]*?\n}\n/, `${ITEM_TEMPLATE_SYNTAX(m)}\n`)]],
  },
];

let site: TestSite;
let dev: DevRun;
let dir: string;

beforeAll(async () => {
  site = await copyOf('basic');
  dir = site.root;
  dev = await site.dev();
  if (dev.code !== 0) throw new Error(dev.output());
});
afterAll(async () => { await dev?.close(); site?.remove(); });

describe('sitegen dev under 50 random edits, half of them broken', () => {
  it('never exits, reports each problem, and ends serving the correct site', async () => {
    const seed = Number(process.env.DEV_ENDURANCE_SEED ?? 20251123);
    const rnd = prng(seed);
    const stream = await openEvents(dev.url + '/__sitegen/events');
    const originals = new Map(FILES.map((f) => [f.rel, fs.readFileSync(path.join(dir, f.rel), 'utf8')]));
    /** Per file: its current marker and what its current version breaks, if anything. */
    const state = new Map<string, { marker: string; broken: Layer | null }>();
    let errors: { text: string; frame: string }[] = [];
    stream.events.length = 0;

    const matches = async (): Promise<boolean> => {
      const broken = [...state.values()].filter((s) => s.broken);
      if (broken.length) {
        const all = errors.map((e) => e.frame).join('\n');
        const stale = [...state.values()].filter((s) => !s.broken).some((s) => all.includes(s.marker));
        const layer = LAYERS.find((l) => broken.some((s) => s.broken === l));
        const expected = broken.filter((s) => s.broken === layer);
        return errors.length > 0 && !stale && expected.every((s) => all.includes(s.marker));
      }
      if (errors.length) return false;
      for (const f of FILES) {
        const s = state.get(f.rel);
        if (s && !(await (await fetch(dev.url + f.page)).text()).includes(s.marker)) return false;
      }
      return true;
    };
    const settle = async (step: string) => {
      const end = Date.now() + 30_000;
      let seen = 0;
      for (;;) {
        for (const e of stream.events.slice(seen) as SseEvent[]) if (e.event === 'errors') errors = e.data;
        seen = stream.events.length;
        if (/internal error|crashed/.test(dev.stderr())) throw new Error(`the dev server failed after ${step}:\n${dev.output()}`);
        if (await matches()) return;
        if (Date.now() > end) throw new Error(`after ${step} the server never reported the expected state; errors: ${JSON.stringify(errors)}\n${dev.output().slice(-3000)}`);
        await stream.next(() => true, 1000).catch(() => null); // the next event, or a re-check after a second
      }
    };

    let brokenEdits = 0;
    for (let k = 1; k <= 50; k++) {
      const f = FILES[Math.floor(rnd() * FILES.length)];
      const marker = `m${k}x${Math.floor(rnd() * 1e6)}`;
      const broken = rnd() < 0.5;
      const src = originals.get(f.rel)!;
      const [layer, make] = broken ? f.broken[Math.floor(rnd() * f.broken.length)] : [null, f.good];
      fs.writeFileSync(path.join(dir, f.rel), make(marker, src));
      state.set(f.rel, { marker, broken: layer });
      if (broken) brokenEdits++;
      await settle(`edit ${k} (${broken ? 'broken' : 'good'} ${f.rel}, seed ${seed})`);
    }
    expect(brokenEdits).toBeGreaterThanOrEqual(15);

    // Fix everything that is still broken; the last good state must be served in full.
    for (const f of FILES) {
      if (!state.get(f.rel)?.broken) continue;
      const marker = `final${f.rel.length}`;
      fs.writeFileSync(path.join(dir, f.rel), f.good(marker, originals.get(f.rel)!));
      state.set(f.rel, { marker, broken: null });
      await settle(`fixing ${f.rel}`);
    }
    stream.close();
    const home = await fetch(dev.url + '/');
    expect(home.status).toBe(200);
    expect((await fetch(dev.url + '/no/such/page')).status).toBe(404);
    for (const f of FILES) {
      const s = state.get(f.rel);
      if (s) expect(await (await fetch(dev.url + f.page)).text()).toContain(s.marker);
    }
  });
});
