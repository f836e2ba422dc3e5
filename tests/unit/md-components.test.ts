// Components in Markdown (issue #26): directives in a Markdown body name components the site registers in
// its config; the engine checks their attributes with each component's schema, renders them on the
// server (islands hydrated) and never evaluates anything the content holds. Run in process through
// build, check and dev like a user's commands; every bad input is a located message.
import { afterAll, describe, expect, it } from 'vitest';
import { siteFrom, type SiteFiles, type TestSite } from '../helpers/site.ts';

const CONFIG = `import { z } from 'zod';
import { defineConfig, component } from 'sitegen-islands';
import { Doc } from './templates/pages.tsx';
import Callout from './templates/components/Callout.tsx';
import Badge from './templates/components/Badge.tsx';
import Tabs from './templates/islands/Tabs.tsx';
import Tab from './templates/components/Tab.tsx';
import Boom from './templates/components/Boom.tsx';

export default defineConfig({
  site: { title: 'Components', url: 'https://components.example' },
  collections: { pages: { pattern: 'pages/*.md', schema: z.strictObject({ title: z.string() }) } },
  routes: (c) => c.pages.map((p) => ({ path: '/' + p.slug, component: Doc, props: { title: p.data.title, html: p.html }, title: p.data.title, source: p.file })),
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

describe('components in Markdown', () => {
  it('renders a block component with its Markdown inside, and an inline one with its label', async () => {
    const s = await site({ a: page('A', 'Intro text.\n\n:::Callout{type="warning" title=\'Careful\'}\nInside **bold** and :Badge[new]{tone=new count=4}.\n:::\n\nAfter.\n') });
    const r = await s.build();
    expect(r.errors).toEqual([]);
    const html = r.read('a/index.html');
    console.log(html);
  });
});
