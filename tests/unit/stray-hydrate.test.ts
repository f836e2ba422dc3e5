// `hydrate` given to a component that is not an island (a form written in templates/components/ instead of
// templates/islands/) did nothing, with no word: the page shipped no script and the form never ran in the
// browser. On a page with no island it is an error at the template line that wrote it; a wrapper that hands
// `hydrate` on to an island it renders is fine.
import { describe, expect, it } from 'vitest';
import { copyOf } from '../helpers/scratch.ts';

describe('hydrate on a component that is not an island', () => {
  it('is an error at the template line on a page without islands, naming the fix; a wrapper of an island is fine', async () => {
    const site = await copyOf('basic', {
      'templates/components/Form.tsx': 'export default function Form({ label }: { label: string; hydrate?: string }) {\n  return <form><button type="submit">{label}</button></form>;\n}\n',
      'templates/components/Wrap.tsx': "import Counter from '../islands/Counter.tsx';\nexport default function Wrap({ hydrate }: { hydrate?: 'load' | 'idle' | 'visible' }) {\n  return <Counter start={1} label=\"Wrapped\" hydrate={hydrate} />;\n}\n",
    });
    try {
      site.edit('templates/pages.tsx', (t) => `import Form from './components/Form.tsx';\n${t.replace('return (<><h1>{title}</h1><p>{tags', 'return (<><Form label="Send" hydrate="load" /><h1>{title}</h1><p>{tags')}`);
      const build = await site.build();
      expect(build.code).toBe(1);
      const e = build.errors[0]!;
      expect(e.id).toBe('RenderError');
      expect(e.text).toContain('<Form hydrate="load">: Form is not an island, so hydrate does nothing and it never runs in the browser. Make it an island: the default export of a file in templates/islands/');
      expect(e.location?.file).toBe('templates/pages.tsx');
      expect(site.file('templates/pages.tsx').split('\n')[e.location!.line - 1]).toContain('<Form label="Send" hydrate="load" />');
      // Handed on to an island: that page has an island, and builds.
      site.edit('templates/pages.tsx', (t) => t.replace("import Form from './components/Form.tsx';", "import Wrap from './components/Wrap.tsx';").replace('<Form label="Send" hydrate="load" />', '<Wrap hydrate="idle" />'));
      const ok = await site.build();
      expect(ok.errors).toEqual([]);
      expect(ok.read('items/alpha/index.html')).toContain('data-island="Counter"');
    } finally { site.remove(); }
  });
});
