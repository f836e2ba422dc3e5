// Big sites in little memory: what a 100,000-page build holds per page is kept compact. An entry whose body
// waits on disk (content/diskBody.ts) costs no closure of its own, reads the same as an eager entry, and
// survives copies and the trip to a worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { bodyOf, closeBodies, defineBody, unwireEntry, wireEntry } from '../../src/content/diskBody.ts';
import { writeBodies } from '../../src/content/bodyStore.ts';
import type { Entry } from '../../src/core/types.ts';
import { SCRATCH } from '../helpers/scratch.ts';

let root: string;
beforeAll(() => { root = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-scale-more-')); });
afterAll(() => { closeBodies(); fs.rmSync(root, { recursive: true, force: true }); });

const eager = (i: number): Entry => ({ id: `p${i}`, slug: `p${i}`, dirs: [], file: `content/p${i}.md`, data: { title: `P ${i}` }, html: '', headings: [], excerpt: '', words: 2, readingMinutes: 1, links: [] });

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapUsed = () => { gc(); gc(); return v8.getHeapStatistics().used_heap_size; };

describe('an entry whose body is on disk', () => {
  it('has the fields of an eager entry, in the same order, read from its file', () => {
    const text = { headings: [{ depth: 2, text: 'Ä', id: 'a' }], excerpt: 'ex ✓', words: 2, links: ['/a/', 'https://x.example/ü'] };
    const [ref] = writeBodies(root, [{ html: '<p>body ✓</p>', text }]);
    const e = defineBody(eager(1), root, ref);
    expect(Object.keys(e)).toEqual(Object.keys(eager(1)));
    expect({ ...e }).toEqual({ ...eager(1), html: '<p>body ✓</p>', headings: text.headings, excerpt: 'ex ✓', links: text.links });
    expect(JSON.parse(JSON.stringify(e)).html).toBe('<p>body ✓</p>');
    // A copy of its property descriptors still knows where its body is and reads it.
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(e)) as Entry;
    expect(bodyOf(copy)).toEqual(ref);
    expect(copy.excerpt).toBe('ex ✓');
    // Across threads: the place travels, the entry comes back with its fields in their order.
    const back = unwireEntry(structuredClone(wireEntry(e)), root);
    expect({ ...back }).toEqual({ ...e });
    expect(Object.keys(back)).not.toContain('bodyAt');
    // Read-only, as every entry handed to a site's code is (content/readOnly.ts): a write throws, the body stays.
    expect(() => { back.html = '<p>other</p>'; }).toThrow(TypeError);
    expect([back.html, e.html, bodyOf(back)]).toEqual(['<p>body ✓</p>', '<p>body ✓</p>', ref]);
  });

  it('two bodies read in turn each give their own text', () => {
    const [a, b] = writeBodies(root, [{ html: '<p>a</p>', text: { headings: [], excerpt: 'A', words: 1, links: ['/a/'] } }, { html: '<p>b</p>', text: { headings: [], excerpt: 'B', words: 1, links: [] } }]);
    const ea = defineBody(eager(2), root, a), eb = defineBody(eager(3), root, b);
    expect([ea.html, eb.html, ea.html, ea.excerpt, eb.excerpt, eb.html]).toEqual(['<p>a</p>', '<p>b</p>', '<p>a</p>', 'A', 'B', '<p>b</p>']);
    expect([ea.links, eb.links, ea.links, eb.excerpt]).toEqual([['/a/'], [], ['/a/'], 'B']);
    // Frozen, as an entry's links are wherever they come from: no read can change what the next one gives.
    expect(Object.isFrozen(ea.links)).toBe(true);
    expect(() => (ea.links as string[]).push('/b/')).toThrow(TypeError);
    expect(ea.links).toEqual(['/a/']);
  });

  it('costs little memory beyond an eager entry with empty texts (20,000 entries)', () => {
    const N = 20_000;
    const refs = writeBodies(root, Array.from({ length: N }, (_, i) => ({ html: `<p>${i}</p>` })));
    const base = heapUsed();
    const plain = Array.from({ length: N }, (_, i) => eager(i));
    const plainBytes = heapUsed() - base;
    const onDisk = plain.map((e, i) => defineBody(e, root, refs[i]));
    plain.length = 0;
    const diskBytes = heapUsed() - base;
    // An entry's own place object and fields, no closures: measured no more than an eager entry (six closures per entry were ~1,330 B).
    expect((diskBytes - plainBytes) / N).toBeLessThan(250);
    expect(onDisk[N - 1].html).toBe(`<p>${N - 1}</p>`);
  });
});
