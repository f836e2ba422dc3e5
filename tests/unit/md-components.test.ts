// Components in Markdown (issue #26): directives in a Markdown body name components the site registers in
// its config; the engine checks their attributes with each component's schema, renders them on the
// server (islands hydrated) and never evaluates anything the content holds. Run in process through
// build, check and dev like a user's commands; every bad input is a located message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildRun, type SiteFiles, type TestSite } from '../helpers/site.ts';
import { siteFrom } from '../helpers/scratch.ts';
import { until } from './dev-fixture.ts';

const CONFIG = `import { z } from 'zod';
import { defineConfig, component, jsonFeed } from 'sitegen-islands';
import { Doc } from './templates/pages.tsx';
import Callout from './templates/components/Callout.tsx';
import Badge from './templates/components/Badge.tsx';
import Tabs from './templates/islands/Tabs.tsx';
import Tab from './templates/components/Tab.tsx';
import Boom from './templates/components/Boom.tsx';

export default defineConfig({
  site: { title: 'Components', url: 'https://components.example' },
  collections: { pages: { pattern: 'pages/*.md', schema: z.strictObject({ title: z.string() }) } },
  routes: (c) => [
    ...c.pages.map((p) => ({ path: '/' + p.slug, component: Doc, props: { title: p.data.title, html: p.html }, title: p.data.title, source: p.file })),
    { path: '/feed.json', output: 'feed.json', title: 'Feed', props: { items: c.pages.filter((p) => p.slug === 'a').map((p) => ({ title: p.data.title, path: '/' + p.slug, date: '2026-01-01', html: p.html })) },
      body: (props: { items: { title: string; path: string; date: string; html: string }[] }, ctx) => jsonFeed(ctx, { title: 'Feed', self: '/feed.json', items: props.items }) },
  ],
  components: {
    Callout: component(Callout, z.object({ type: z.enum(['note', 'tip', 'warning']).default('note'), title: z.string().optional() })),
    Badge: component(Badge, z.object({ tone: z.enum(['info', 'new']).default('info'), count: z.coerce.number().optional() }), { inline: true }),
    Tabs: component(Tabs, z.object({})),
    Tab: component(Tab, z.object({ label: z.string(), open: z.boolean().optional() }), { parent: 'Tabs' }),
    Boom: component(Boom, z.object({})),
  },
});
`;

const TEMPLATES: SiteFiles = {
  'sitegen.config.ts': CONFIG,
  'templates/pages.tsx': `export function Doc({ title, html }: { title: string; html: string }) {
  return (<main><h1>{title}</h1><article dangerouslySetInnerHTML={{ __html: html }} /></main>);
}
`,
  'templates/components/Callout.tsx': `import type { ReactNode } from 'react';
export default function Callout({ type, title, children }: { type: string; title?: string; children: ReactNode }) {
  return (<aside className={'callout callout-' + type}>{title ? <p className="callout-title">{title}</p> : null}{children}</aside>);
}
`,
  'templates/components/Badge.tsx': `import type { ReactNode } from 'react';
export default function Badge({ tone, count, children }: { tone: string; count?: number; children: ReactNode }) {
  return (<span className={'badge badge-' + tone} data-count={count === undefined ? undefined : String(count + 1)} data-kind={typeof children}>{children}</span>);
}
`,
  'templates/components/Tab.tsx': `import type { ReactNode } from 'react';
export default function Tab({ label, children }: { label: string; children: ReactNode }) {
  return (<section className="tab" data-label={label}>{children}</section>);
}
`,
  'templates/islands/Tabs.tsx': `import { useState, type ReactNode } from 'react';
export default function Tabs({ children }: { children: ReactNode }) {
  const [n, setN] = useState(0);
  return (<div className="tabs" data-n={n}><button type="button" onClick={() => setN(n + 1)}>next</button>{children}</div>);
}
`,
  'templates/components/Boom.tsx': `export default function Boom(): never {
  throw new Error('boom in a component');
}
`,
};

const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });

async function site(pages: Record<string, string>): Promise<TestSite> {
  const files: SiteFiles = { ...TEMPLATES };
  for (const [name, body] of Object.entries(pages)) files[`content/pages/${name}.md`] = body;
  const s = await siteFrom(files);
  sites.push(s);
  return s;
}

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n${body}`;

const GOOD = {
  a: page('A', 'Intro text.\n\n:::Callout{type="warning" title=\'Careful\'}\nInside **bold** and :Badge[new]{tone=new count=4}.\n:::\n\nA :Badge[**hot**] label with markup, a leaf:\n\n::Callout{type="tip"}\n'),
  tabs: page('Tabs', '::::Tabs\n:::Tab{label="One"}\nFirst *tab*.\n:::\n:::Tab{label="Two" open}\n- a list\n:::\n::::\n'),
  data: page('Data', ':::Callout{title="{alert(1)}" type=note}\n:Badge[${process.exit(1)}]{tone="info"}\n:::\n\n:::Callout{title="<script>alert(1)</script>"}\n\\{{ constructor.constructor("return process")() }}\n:::\n'),
  text: page('Text', 'Code:\n\n```\n:::Callout{type="tip"}\n```\n\nEscaped \\:Badge[x]{tone="info"}, at 10:30[am], std::vector[0], `:Badge[code]`.\n'),
};

describe('components in Markdown', () => {
  // One build of the good pages serves every test of this group.
  let s: TestSite;
  let r: BuildRun;
  beforeAll(async () => { s = await site(GOOD); r = await s.build(); });

  it('renders a block with its Markdown inside, inline ones with their label, a leaf; build and check agree', async () => {
    expect(r.errors).toEqual([]);
    const a = r.read('a/index.html');
    expect(a).toContain('<p>Intro text.</p>\n<aside class="callout callout-warning"><p class="callout-title">Careful</p><p>Inside <strong>bold</strong> and <span class="badge badge-new" data-count="5" data-kind="string">new</span>.</p>\n</aside>');
    // A label with markup is HTML (an element), a plain one a string; a leaf has no children.
    expect(a).toContain('A <span class="badge badge-info" data-kind="object"><strong>hot</strong></span> label');
    expect(a).toContain('<aside class="callout callout-tip"></aside>');
    expect(a).not.toContain('sitegen-');
    // A feed of the entry carries the components' HTML too.
    const feed = JSON.parse(r.read('feed.json')) as { items: { content_html: string }[] };
    expect(feed.items[0]!.content_html).toContain('<aside class="callout callout-warning"><p class="callout-title">Careful</p><p>Inside <strong>bold</strong>');
    expect(feed.items[0]!.content_html).not.toContain('sitegen-');
    expect((await s.check()).errors).toEqual([]);
  });

  it('hydrates an island component: its props and its children (nested components) travel as HTML', async () => {
    const html = r.read('tabs/index.html');
    const island = /<sitegen-island data-island="Tabs" data-props="([^"]*)"[^>]*>([\s\S]*?)<\/sitegen-island>/.exec(html)!;
    expect(island).not.toBeNull();
    const inner = '<section class="tab" data-label="One"><p>First <em>tab</em>.</p>\n</section>\n<section class="tab" data-label="Two"><ul>\n<li>a list</li>\n</ul>\n</section>\n';
    expect(island[2]).toBe(`<div class="tabs" data-n="0"><button type="button">next</button><sitegen-children>${inner}</sitegen-children></div>`);
    const props = JSON.parse(island[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
    expect(props).toEqual({ children: { sitegenHtml: inner } });
    // The page loads the island runtime, as for an island a template uses.
    expect(html).toMatch(/<script type="module" src="\/assets\/[^"]+\.js"><\/script>/);
  });

  it('evaluates nothing: attributes and labels holding code are text, escaped in the page', async () => {
    const html = r.read('data/index.html');
    expect(html).toContain('<p class="callout-title">{alert(1)}</p>');
    expect(html).toContain('<span class="badge badge-info" data-kind="string">${process.exit(1)}</span>');
    expect(html).toContain('<p class="callout-title">&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html).toContain('{{ constructor.constructor(&quot;return process&quot;)() }}');
    expect(html).not.toContain('<script>alert');
  });

  it('leaves directives in code, escaped ones and colons in words as text', async () => {
    const html = r.read('text/index.html');
    expect(html).toContain('<pre><code>:::Callout{type=&quot;tip&quot;}\n</code></pre>');
    expect(html).toContain('Escaped :Badge[x]{tone=&quot;info&quot;}, at 10:30[am], std::vector[0], <code>:Badge[code]</code>.');
  });

  it('parsed and rendered on worker threads, the pages are the same', async () => {
    const env = { SITEGEN_WORKERS: '2', SITEGEN_PARALLEL_MIN: '1', SITEGEN_POOL_MAIN: '0', SITEGEN_POOL_RENDER: '1', SITEGEN_NO_CACHE: '1' };
    const pooled = await s.build({ env });
    expect(pooled.errors).toEqual([]);
    expect(pooled.result.workers?.workers).toBe(2);
    for (const f of ['a/index.html', 'tabs/index.html', 'data/index.html', 'feed.json']) expect(pooled.read(f), f).toBe(r.read(f));
  });

  it('checks bodies the content cache answers against the config as it is now', async () => {
    const again = await s.build();
    expect(again.errors).toEqual([]);
    expect(again.read('a/index.html')).toBe(r.read('a/index.html'));
    // Badge renamed in the config: the cached bodies still name Badge, located where they were parsed.
    s.edit('sitegen.config.ts', (t) => t.replace('    Badge: component(Badge,', '    Pill: component(Badge,'));
    try {
      const renamed = await s.check();
      expect(located(renamed.errors)).toEqual([
        ['ComponentError', 'content/pages/a.md:7:21', 'Unknown component "Badge" in :Badge[…]'],
        ['ComponentError', 'content/pages/a.md:10:3', 'Unknown component "Badge" in :Badge[…]'],
        ['ComponentError', 'content/pages/data.md:5:1', 'Unknown component "Badge" in :Badge[…]'],
      ]);
    } finally {
      s.edit('sitegen.config.ts', (t) => t.replace('    Pill: component(Badge,', '    Badge: component(Badge,'));
    }
  });
});

describe('the config\'s components', () => {
  it('a parent that is no component, an unknown option, a name Markdown cannot write: located config errors', async () => {
    const s = await site({ a: page('A', 'x\n') });
    s.edit('sitegen.config.ts', (t) => t.replace("{ parent: 'Tabs' }", "{ parent: 'Tbas' }"));
    const r = await s.check();
    expect(r.errors.map((e) => [e.id, e.text, e.location?.line])).toEqual([['ConfigError', 'Config "components.Tab.parent" names "Tbas", which is not a registered component (did you mean Tabs?)', 22]]);
    s.edit('sitegen.config.ts', (t) => t.replace("{ parent: 'Tbas' }", "{ paren: 'Tabs' }"));
    const o = await s.check();
    expect(o.errors.map((e) => [e.id, e.text])).toEqual([['ConfigError', expect.stringContaining('component(): unknown option "paren" (known: parent, inline)')]]);
    s.edit('sitegen.config.ts', (t) => t.replace("{ paren: 'Tabs' }", "{ parent: 'Tabs' }").replace('    Boom: component(', "    'Not a name': component("));
    const n = await s.check();
    expect(n.errors.map((e) => [e.id, e.text])).toEqual([['ConfigError', 'Config "components.Not a name" is not a name Markdown can write: a letter, then up to 63 letters, digits, "-" or "_" (:::Name)']]);
  });
});

/** The messages of a command as [id, file:line:col, text] (plus the hint when asked). */
const schemaHint = (component: string, key: string) => `The schema of ${component} in sitegen.config.ts (components) decides what "${key}" may be: write a value it accepts, or change the schema.`;
const CATALOGUE_HINT = 'Use a component registered under `components` in sitegen.config.ts, with the attributes its schema takes.';
const located = (errors: { id: string; text: string; location: { file: string; line: number; column: number } | null; hint?: string }[], hint = false) =>
  errors.map((e) => [e.id, `${e.location?.file}:${e.location?.line}:${e.location?.column}`, e.text, ...hint ? [e.hint] : []]);

describe('bad input is a located error, the same in build, check and dev', () => {
  it('a malformed directive: not closed, attributes not closed, text after them, a stray closing fence', async () => {
    const s = await site({
      unclosed: page('U', 'Text.\n\n:::Callout{type="tip"}\nnever closed\n'),
      quote: page('Q', ':::Callout{type="warning}\nx\n:::\n'),
      after: page('T', '::Callout{type="tip"} trailing words\n'),
      stray: page('S', 'para\n\n:::\n'),
      // A paragraph's ":::" is text; the stray closing line is the one in the list in the quote.
      deep: page('D', 'Text with ::: in it.\n\n> A quote\n>\n> - item\n>   :::\n'),
      inline: page('I', 'A :Badge[label]{tone="info" and more\n'),
    });
    const expected = [
      ['DirectiveSyntaxError', 'content/pages/after.md:4:1', 'Directive ::Callout: unexpected text after the directive: "trailing words"'],
      ['DirectiveSyntaxError', 'content/pages/deep.md:9:5', 'Directive ":::" closes a directive block, but none is open here'],
      ['DirectiveSyntaxError', 'content/pages/inline.md:4:3', 'Directive :Badge: its attributes are not closed with "}"'],
      ['DirectiveSyntaxError', 'content/pages/quote.md:4:1', 'Directive :::Callout: the value of "type" has no closing quote'],
      ['DirectiveSyntaxError', 'content/pages/stray.md:6:1', 'Directive ":::" closes a directive block, but none is open here'],
      ['DirectiveSyntaxError', 'content/pages/unclosed.md:6:1', 'Directive :::Callout is not closed: end it with a line of :::'],
    ];
    for (const command of ['build', 'check']) {
      const r = await s.run(command);
      expect(r.code, command).toBe(1);
      expect(located(r.errors), command).toEqual(expected);
      expect(r.stderr).toContain('  6 | :::Callout{type="tip"}\n    | ^');
    }
    const dev = await s.dev();
    try {
      for (const [, where, text] of expected) expect(dev.output()).toContain(`${where} ${text}`);
    } finally { await dev.close(); }
  });

  it('a mistake shown first as an example in a code block is located at the real one, and a stray fence at itself', async () => {
    const example = (real: string) => `Write it like this:\n\n\`\`\`md\n${real}\n\`\`\`\n\n${real}\n`;
    const s = await site({
      component: page('C', example(':::Callout{type="danger"}\nText\n:::')),
      image: page('I', example('![A photo](./nope.png)')),
      stray: page('S', ':::Callout\nx\n:::\n\n:::\nstray\n'),
      // (an example in a list item's code block, whose text has lost the item's indent, and one in a code span)
      listed: page('L', '- Write it like this:\n\n  ```md\n  :::Callout{type="danger"}\n  x\n  :::\n  ```\n\n:::Callout{type="danger"}\nx\n:::\n'),
      span: page('P', 'Like `:::Callout{type="danger"}` here.\n\n:::Callout{type="danger"}\nx\n:::\n'),
    });
    const r = await s.check();
    expect(located(r.errors).map(([id, where]) => [id, where])).toEqual([
      ['ComponentError', 'content/pages/component.md:12:12'],
      ['ImageError', 'content/pages/image.md:10:1'],
      ['ComponentError', 'content/pages/listed.md:12:12'],
      ['ComponentError', 'content/pages/span.md:6:12'],
      ['DirectiveSyntaxError', 'content/pages/stray.md:8:1'],
    ]);
    // (links are checked once the content and pages have no problem)
    const l = await site({ link: page('L', example('[gone](/nowhere/)')) });
    expect(located((await l.check()).errors).map(([id, where]) => [id, where])).toEqual([['BrokenLink', 'content/pages/link.md:10:8']]);
  });

  it('an unknown component or attribute (with a did-you-mean), a bad value, the wrong form or place', async () => {
    const s = await site({
      names: page('N', ':::Calout{type="tip"}\nx\n:::\n\n:::Callout{tpye="tip"}\nx\n:::\n\n:::Callout{type="danger"}\nx\n:::\n\nA :Badge[x]{count="many"} and :Badge[y]{count="1e999"}\n\n:::Callout{titel="x" type="danger"}\nx\n:::\n\n:::Callout{title="say type=x" type="danger"}\nx\n:::\n'),
      forms: page('F', 'Text :Callout[x] and\n\n::Badge{tone="info"}\n'),
      places: page('P', ':::Tab{label="alone"}\nx\n:::\n\n::::Callout\n:::Tab{label="in a callout"}\nx\n:::\n::::\n\n::::Tabs\n:::Tab\nno label\n:::\n::::\n'),
    });
    const expected = [
      ['ComponentError', 'content/pages/forms.md:4:6', 'Callout is a block component: write it on lines of its own, :::Callout{…} … :::', CATALOGUE_HINT],
      ['ComponentError', 'content/pages/forms.md:6:1', 'Badge is an inline component: write it in running text as :Badge[label]{…}', CATALOGUE_HINT],
      ['ComponentError', 'content/pages/names.md:4:1', 'Unknown component "Calout" in :::Calout', 'Did you mean Callout? Components this site registers: Callout, Badge, Tabs, Tab, Boom.'],
      ['ComponentError', 'content/pages/names.md:8:12', 'Unknown attribute "tpye" of Callout', 'Did you mean "type"? Callout takes: type, title.'],
      ['ComponentError', 'content/pages/names.md:12:12', 'Attribute "type" of Callout: Must be one of: "note", "tip", "warning"', schemaHint('Callout', 'type')],
      // (z.coerce.number() made NaN of the text: what was written is named)
      ['ComponentError', 'content/pages/names.md:16:13', 'Attribute "count" of Badge: Expected number, received string "many"', schemaHint('Badge', 'count')],
      ['ComponentError', 'content/pages/names.md:16:41', 'Attribute "count" of Badge: Expected number, received string "1e999"', schemaHint('Badge', 'count')],
      // An unknown attribute and a bad value on one directive: both, each at its attribute.
      ['ComponentError', 'content/pages/names.md:18:12', 'Unknown attribute "titel" of Callout', 'Did you mean "title"? Callout takes: type, title.'],
      ['ComponentError', 'content/pages/names.md:18:22', 'Attribute "type" of Callout: Must be one of: "note", "tip", "warning"', schemaHint('Callout', 'type')],
      // (at the attribute, not at the words "type=" inside the quoted title before it)
      ['ComponentError', 'content/pages/names.md:22:31', 'Attribute "type" of Callout: Must be one of: "note", "tip", "warning"', schemaHint('Callout', 'type')],
      ['ComponentError', 'content/pages/places.md:4:1', 'Tab can only be nested directly in Tabs, but it is not inside one', 'Put it between ::::Tabs and :::: (a longer fence around the :::Tab blocks).'],
      ['ComponentError', 'content/pages/places.md:9:1', 'Tab can only be nested directly in Tabs, but it is in Callout', 'Put it between ::::Tabs and :::: (a longer fence around the :::Tab blocks).'],
      ['ComponentError', 'content/pages/places.md:15:1', 'Attribute "label" of Tab: Required', 'Add the attribute: :::Tab{label="…"} (the schema of Tab in sitegen.config.ts, components, requires it).'],
    ];
    for (const command of ['build', 'check']) {
      const r = await s.run(command);
      expect(r.code, command).toBe(1);
      expect(located(r.errors, true), command).toEqual(expected);
    }
    const dev = await s.dev();
    try {
      for (const [, where, text] of expected) expect(dev.output()).toContain(`${where} ${text}`);
    } finally { await dev.close(); }
  });

  it('a component that throws: located at its directive, with the line that threw; dist/ untouched', async () => {
    const s = await site(GOOD);
    const good = await s.build();
    expect(good.errors).toEqual([]);
    const before = good.output();
    s.write('content/pages/boom.md', page('Boom', 'Before.\n\n  ::Boom\n'));
    for (const command of ['build', 'check']) {
      const r = await s.run(command);
      expect(r.code, command).toBe(1);
      expect(located(r.errors), command).toEqual([['ComponentRenderError', 'content/pages/boom.md:6:3', 'rendering component Boom on /boom/ failed: boom in a component']]);
      expect(r.errors[0]!.notes[0]).toMatchObject({ text: 'Boom threw here', location: { file: 'templates/components/Boom.tsx', line: 2 } });
    }
    await expect(s.build().then((r) => r.output())).resolves.toEqual(before);
    const dev = await s.dev();
    try {
      expect(dev.output()).toContain('content/pages/boom.md:6:3 rendering component Boom on /boom/ failed: boom in a component');
    } finally { await dev.close(); }
  });

  it('dev reports a directive broken while it runs, and serves the page again once it is fixed', async () => {
    const s = await site({ a: page('A', ':::Callout{type="tip"}\nHello.\n:::\n') });
    const dev = await s.dev();
    try {
      await expect((await fetch(dev.url + '/a/')).text()).resolves.toContain('<aside class="callout callout-tip"><p>Hello.</p>');
      s.edit('content/pages/a.md', (t) => t.replace(':::Callout{type="tip"}', ':::Callout{tipe="tip"}'));
      await until(() => dev.output().includes('content/pages/a.md:4:12 Unknown attribute "tipe" of Callout'), 15_000, 'the error in dev');
      s.edit('content/pages/a.md', (t) => t.replace(':::Callout{tipe="tip"}', ':::Callout{type="warning"}\n:Badge[hi]'));
      await until(async () => (await (await fetch(dev.url + '/a/')).text()).includes('<aside class="callout callout-warning"><p><span class="badge badge-info" data-kind="string">hi</span>'), 15_000, 'the fixed page');
    } finally { await dev.close(); }
  });

  it('dev checks the bodies no edit touched again when the config\'s components change, and only then', async () => {
    const s = await site({ a: page('A', 'A :Badge[hi] here.\n'), b: page('B', 'Plain text.\n') });
    const dev = await s.dev();
    try {
      // An edit of another page leaves a's body as it was checked: no error.
      s.edit('content/pages/b.md', (t) => t.replace('Plain text.', 'Plain text, edited.'));
      await until(async () => (await (await fetch(dev.url + '/b/')).text()).includes('Plain text, edited.'), 15_000, 'the edit');
      expect(dev.output()).not.toContain('Unknown component');
      // Badge renamed in the config: a's body, unchanged, now names an unknown component.
      s.edit('sitegen.config.ts', (t) => t.replace('    Badge: component(Badge,', '    Pill: component(Badge,'));
      await until(() => dev.output().includes('content/pages/a.md:4:3 Unknown component "Badge" in :Badge[…]'), 15_000, 'the error in dev');
    } finally { await dev.close(); }
  });

  it('the content policy holds inside a block', async () => {
    const s = await site({ p: page('P', ':::Callout\nSafe, then <img src=x onerror=alert(1)>\n\n[link](javascript:alert(1))\n:::\n\nA :Badge[<b>label</b>]{tone="info"}\n') });
    const r = await s.build();
    expect(located(r.errors)).toEqual([
      ['ContentPolicyError', 'content/pages/p.md:5:12', 'Raw HTML is not allowed in Markdown: <img src=x onerror=alert(1)>'],
      ['ContentPolicyError', 'content/pages/p.md:7:1', 'Link to a javascript: URL is not allowed'],
      ['ContentPolicyError', 'content/pages/p.md:10:10', 'Raw HTML is not allowed in Markdown: <b>'],
    ]);
  });
});

describe('an attribute the schema requires, not written', () => {
  it('is said to be missing, with the values it takes, whatever the schema says of a wrong value', async () => {
    const { z } = await import('zod');
    const { directiveProblems } = await import('../../src/markdown/components.ts');
    const Level = { component: () => null, schema: z.object({ level: z.enum(['low', 'high']), note: z.string().optional() }) };
    const d = { n: 'Level', k: 'leaf' as const, a: {}, f: 'content/pages/a.md', l: 6, c: 1, t: '::Level' };
    const [p] = directiveProblems({ Level } as never, d, null);
    expect(p.text).toBe('Attribute "level" of Level: Required (must be one of: "low", "high")');
    expect(p.hint).toBe('Add the attribute: ::Level{level="…"} (the schema of Level in sitegen.config.ts, components, requires it).');
    // Written with a wrong value: the schema's words, as before.
    const [w] = directiveProblems({ Level } as never, { ...d, a: { level: 'mid' }, t: '::Level{level="mid"}' }, null);
    expect(w.text).toBe('Attribute "level" of Level: Must be one of: "low", "high"');
    // Located at its name, also when it follows a quoted value with no space.
    const [tight] = directiveProblems({ Level } as never, { ...d, a: { note: 'x', level: 'mid' }, t: '::Level{note="x"level="mid"}' }, null);
    expect(tight.location).toMatchObject({ line: 6, column: 17 });
  });
});
