// The text a page's key is made from (src/pipeline/stableText.ts): equal for equal plain values whatever
// their key order, different whenever a value differs, and a throw (the page renders every time) for what
// cannot be told apart for sure: a function, a class instance, a symbol key, a cycle.
import { describe, expect, it } from 'vitest';
import { stable, Unknown } from '../../src/pipeline/stableText.ts';

describe('stable text of a route\'s data', () => {
  it('is the same for the same data in another key order, and differs for any changed value', () => {
    const html = `<p>${'body '.repeat(100)}</p>`;
    const a = { path: '/a/', props: { title: 'A', tags: ['x', 'y'], html, n: 1, on: true, none: null, gone: undefined } };
    const b = { props: { gone: undefined, none: null, on: true, n: 1, html, tags: ['x', 'y'], title: 'A' }, path: '/a/' };
    expect(stable(a)).toBe(stable(b));
    const variants: unknown[] = [
      { ...a, path: '/b/' },
      { ...a, props: { ...a.props, title: 'B' } },
      { ...a, props: { ...a.props, tags: ['y', 'x'] } },
      { ...a, props: { ...a.props, tags: ['x', 'y', ''] } },
      { ...a, props: { ...a.props, html: html.replace('body', 'bodY') } },
      { ...a, props: { ...a.props, n: -0 } },
      { ...a, props: { ...a.props, n: '1' } },
      { ...a, props: { ...a.props, on: 'true' } },
      { ...a, props: { ...a.props, none: undefined } },
      { ...a, props: { ...a.props, when: new Date(0) } },
      { ...a, props: { ...a.props, map: new Map([['k', 1]]) } },
      { ...a, props: { ...a.props, set: new Set([1]) } },
      { ...a, props: { ...a.props, big: 1n } },
      { ...a, props: { ...a.props, tags: ['x', , 'y'] } },
      { ...a, props: { ...a.props, tags: ['x', undefined, 'y'] } },
    ];
    const texts = new Set([stable(a), ...variants.map((v) => stable(v))]);
    expect(texts.size).toBe(variants.length + 1);
  });

  it('tells apart strings that differ only where JSON escapes (quotes, backslashes, control characters, surrogates)', () => {
    const strings = ['a"}', 'a\\"}', 'a\\', 'a\\\\', 'a\n', 'a\\n', 'a\u0000', 'a\\u0000', '\ud800', '\\ud800', '😀', '\ud83d', '","b":"'];
    const texts = strings.map((s) => stable({ s, t: 'x' }));
    expect(new Set(texts).size).toBe(strings.length);
    // Each text reads back as the value it was made from (a string enters as JSON writes it).
    strings.forEach((s, i) => expect(JSON.parse(texts[i])).toEqual({ s, t: 'x' }));
  });

  it('takes a long string by its digest: a long body does not make a long text', () => {
    const long = 'x'.repeat(100_000);
    expect(stable({ html: long }).length).toBeLessThan(100);
    expect(stable({ html: long })).not.toBe(stable({ html: `${long}y` }));
    // A short string that looks like a digest is still told apart from one.
    expect(stable({ html: long })).not.toBe(stable({ html: stable({ html: long }).slice(9, -1) }));
  });

  it('keys an object shared by many places (a nav list), and refuses a cycle, a function, a class instance, a symbol key', () => {
    const nav = [{ title: 'Home', path: '/' }];
    expect(stable({ header: nav, footer: nav })).toBe(stable({ header: [{ title: 'Home', path: '/' }], footer: [{ path: '/', title: 'Home' }] }));
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { back: cycle };
    class Thing { secret = 1; }
    for (const bad of [cycle, { f: () => 1 }, { t: new Thing() }, { [Symbol('s')]: 1 }, { s: Symbol('s') }]) {
      expect(() => stable(bad)).toThrow(Unknown);
    }
  });

  it('with a memo, walks a list many routes share once, and still tells every value apart', () => {
    const links = (n: number, title = 'Page') => Array.from({ length: n }, (_, i) => ({ path: `/p/${i}`, title: `${title} ${i}` }));
    const nav = links(500);
    const memo = new Map<object, string>();
    const routes = [0, 1, 2].map((i) => ({ path: `/p/${i}`, props: { nav, current: `/p/${i}` } }));
    const texts = routes.map((r) => stable(r, undefined, memo));
    // The sidebar enters every route by one short digest: its 500 links were walked once, not three times.
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThan(200);
    expect(memo.size).toBe(1);
    expect(new Set(texts).size).toBe(3);
    // An equal list (another object) reads the same; a list with one link changed, or in another order, does not.
    const again = new Map<object, string>();
    expect(stable(routes[0], undefined, again)).toBe(texts[0]);
    const changed = links(500); changed[499] = { path: '/p/499', title: 'Renamed' };
    expect(stable({ path: '/p/0', props: { nav: changed, current: '/p/0' } }, undefined, new Map())).not.toBe(texts[0]);
    expect(stable({ path: '/p/0', props: { nav: [...nav].reverse(), current: '/p/0' } }, undefined, new Map())).not.toBe(texts[0]);
    // A small list enters as itself, as without a memo.
    expect(stable({ tags: ['a', 'b'] }, undefined, new Map())).toBe(stable({ tags: ['a', 'b'] }));
  });

  it('with a memo, reads the same as without one: an object of many keys every route shares, long strings, objects made alike', () => {
    // A map of every tag's path, as a blog's routes hand to every page: walked twice, then taken from the memo.
    const tagPath = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`tag-${i}`, `/tags/tag-${i}/`]));
    const excerpt = 'A long excerpt. '.repeat(40);
    const summary = (i: number) => ({ path: `/posts/${i}`, title: `Post ${i}`, excerpt, tags: ['a'], when: new Date(i) });
    const routes = Array.from({ length: 5 }, (_, i) => ({ path: `/posts/${i}`, props: { post: summary(i), tagPath } }));
    const memo = new Map<object | string, string>();
    const texts = routes.map((r) => stable(r, undefined, memo));
    expect(texts).toEqual(routes.map((r) => stable(r)));
    // The shared map and the long string are in the memo; the summaries, made anew for each route, are not.
    expect(memo.get(tagPath)).toBe(stable(tagPath));
    expect(memo.has(excerpt)).toBe(true);
    expect(memo.size).toBe(2);
    // One tag's path changed in a map built the same way: another text.
    const moved = { ...tagPath, 'tag-19': '/topics/tag-19/' };
    expect(stable({ path: '/posts/0', props: { post: summary(0), tagPath: moved } }, undefined, memo)).not.toBe(texts[0]);
    // A map of many keys with a text past 4,096 characters enters by its digest at every sighting, first or not.
    const big = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v'.repeat(200)]));
    const seen = [0, 1, 2].map(() => stable({ big }, undefined, memo));
    expect(new Set(seen).size).toBe(1);
    expect(seen[0].length).toBeLessThan(100);
  });

  it('sorts the keys of objects whatever order and set of keys they come with, one after another', () => {
    // Objects that begin with the same key but hold others, in another order or another number.
    const values = [{ a: 1, b: 2, c: 3 }, { a: 1, c: 3, b: 2 }, { a: 1, b: 2 }, { a: 1, b: 2, d: 3 }, { a: 1, b: 2, c: 3 }, { b: 2, a: 1, c: 3 }];
    const texts = values.map((v) => stable(v));
    expect(texts[0]).toBe('{"a":1,"b":2,"c":3}');
    expect(texts[1]).toBe(texts[0]);
    expect(texts[4]).toBe(texts[0]);
    expect(texts[5]).toBe(texts[0]);
    expect(texts[2]).toBe('{"a":1,"b":2}');
    expect(texts[3]).toBe('{"a":1,"b":2,"d":3}');
    // The keys a route leaves out (its component) are left out of it alone, not of an object made alike inside it.
    const route = { component: 1, path: '/', props: { component: 'x', path: '/' } };
    expect(stable(route, new Set(['component']))).toBe('{"path":"/","props":{"component":"x","path":"/"}}');
  });
});
