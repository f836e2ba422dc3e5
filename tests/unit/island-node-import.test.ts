// An island's code runs in the browser: a module of Node's it imports, directly or through a helper of the
// site's, is a located bundle error; through a helper, the message names the islands that bring it in.
import { describe, expect, it } from 'vitest';
import { copyOf } from '../helpers/scratch.ts';

describe('a module of Node in an island', () => {
  it('imported by a helper the island uses: located at the helper, with the island that imports it', async () => {
    const site = await copyOf('basic', { 'templates/lib/pkg.ts': "import path from 'node:path';\nexport const name = (p: string) => path.basename(p);\n" });
    try {
      site.edit('templates/islands/Counter.tsx', (t) => `import { name } from '../lib/pkg.ts';\n${t.replace('count is', '{name("a/b")} count is')}`);
      const r = await site.build();
      expect(r.code).toBe(1);
      expect(r.errors.map((e) => [e.id, e.location?.file])).toEqual([['BundleError', 'templates/lib/pkg.ts']]);
      expect(r.errors[0]!.hint).toContain('node:path is part of Node');
      expect(r.errors[0]!.notes.map((n) => n.text)).toEqual(['imported by the island templates/islands/Counter.tsx']);
    } finally { site.remove(); }
  });
});
