// A template edit in `sitegen dev`, in process on a copy of the basic fixture: the open page gets its new
// HTML with the early notice, the rest of the site still updates, a schema edit is still validated and
// reported at the entry's line, a broken template is located once for all its pages, and an island renamed
// to another extension is found under the import that named it (the compile's import answers are not kept
// across an added or removed file).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createDevSite, type DevSite, type RebuildReport } from '../../src/dev/devSite.ts';
import type { FileChange } from '../../src/pipeline/session.ts';
import { copyFixture, editFile, removeCopy } from './dev-fixture.ts';
import { hostOf, type DevHostClient } from '../helpers/devHost.ts';

let dir: string;
let site: DevSite;
let host: DevHostClient;

const BADGE = (text: string) => `export default function Badge() {\n  return <b className="badge">${text}</b>;\n}\n`;

async function apply(changes: FileChange[], opts: Parameters<DevSite['apply']>[1] = {}): Promise<RebuildReport> {
  return (await site.apply(changes.map((c) => ({ ...c, file: path.join(dir, c.file) })), opts))!;
}
async function edit(rel: string, fn: (t: string) => string, opts: Parameters<DevSite['apply']>[1] = {}): Promise<RebuildReport> {
  editFile(dir, rel, fn);
  return apply([{ file: rel, kind: 'change' }], opts);
}

beforeAll(async () => {
  dir = copyFixture('basic');
  // An island imported without its extension.
  fs.writeFileSync(path.join(dir, 'templates/islands/Badge.tsx'), BADGE('badge in tsx'));
  editFile(dir, 'templates/pages.tsx', (t) => t
    .replace("import Counter from './islands/Counter.tsx';", "import Counter from './islands/Counter.tsx';\nimport Badge from './islands/Badge';")
    .replace('<Counter start={2} label="Clicks" /></>', '<Counter start={2} label="Clicks" /><Badge /></>'));
  site = await createDevSite({ root: dir });
  host = await hostOf(site);
  const r = await site.start();
  expect(r.errors).toEqual([]);
});
afterAll(async () => {
  await host?.close();
  await site?.close();
  if (dir) removeCopy(dir);
});

describe('a template edit in sitegen dev', () => {
  it('tells the open page its new HTML at once, and the rest of the site updates too', async () => {
    const told: { paths: string[]; html: Record<string, string> }[] = [];
    const r = await edit('templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', '<footer>footer v2</footer>'), {
      first: () => new Set(['/items/alpha/']),
      early: (paths, html) => told.push({ paths, html }),
    });
    expect(r.errors).toEqual([]);
    expect(r.changed).toEqual(['*']);
    expect(told.map((t) => t.paths)).toEqual([['/items/alpha/']]);
    const sent = told[0].html['/items/alpha/'];
    expect(sent).toContain('<footer>footer v2</footer>');
    // What was sent is the page as served (which only adds the dev client's script).
    const served = (await host.text('/items/alpha/'))!;
    expect(served.replace(/<script src="\/__sitegen\/client\.js"[^>]*><\/script>/, '')).toBe(sent);
    for (const p of ['/', '/items/beta/', '/about/']) expect(await host.text(p)).toContain('<footer>footer v2</footer>');
  });

  it('still validates the content against an edited schema, and reports a now-invalid entry at its line', async () => {
    let r = await edit('sitegen.config.ts', (t) => t.replace('price: z.number() })', 'price: z.number().min(10) })'));
    expect(r.committed).toBe(false);
    expect(r.errors.map((e) => [e.id, e.location?.file, e.location?.line, e.location?.column, e.field])).toEqual([
      ['ContentSchemaError', 'content/items/alpha.yaml', 3, 8, 'price'],
      ['ContentSchemaError', 'content/items/beta.yaml', 5, 8, 'price'],
    ]);
    expect(await host.text('/items/alpha/')).toContain('<footer>footer v2</footer>');
    r = await edit('sitegen.config.ts', (t) => t.replace('price: z.number().min(10) })', 'price: z.number() })'));
    expect(r.errors).toEqual([]);
  });

  it('locates a template that an edit broke, once for all the pages it breaks', async () => {
    let r = await edit('templates/pages.tsx', (t) => t.replace('<footer>footer v2</footer>', '<footer>{(null as any).year}</footer>'));
    expect(r.committed).toBe(false);
    expect(r.errors).toHaveLength(1);
    const line = fs.readFileSync(path.join(dir, 'templates/pages.tsx'), 'utf8').split('\n').findIndex((l) => l.includes('(null as any).year')) + 1;
    expect(r.errors[0].location).toMatchObject({ file: 'templates/pages.tsx', line });
    expect(await host.text('/about/')).toContain('<footer>footer v2</footer>');
    r = await edit('templates/pages.tsx', (t) => t.replace('<footer>{(null as any).year}</footer>', '<footer>footer v3</footer>'));
    expect(r.errors).toEqual([]);
    expect(await host.text('/about/')).toContain('<footer>footer v3</footer>');
  });

  it('finds an island renamed to another extension under the import that names it', async () => {
    expect(await host.text('/')).toContain('badge in tsx');
    fs.rmSync(path.join(dir, 'templates/islands/Badge.tsx'));
    fs.writeFileSync(path.join(dir, 'templates/islands/Badge.jsx'), BADGE('badge in jsx'));
    const r = await apply([{ file: 'templates/islands/Badge.tsx', kind: 'unlink' }, { file: 'templates/islands/Badge.jsx', kind: 'add' }]);
    expect(r.errors).toEqual([]);
    expect(await host.text('/')).toContain('badge in jsx');
  });

  it('compiles again when tsconfig.json sends an import elsewhere (its paths), though no source changed', async () => {
    for (const v of ['a', 'b']) { fs.mkdirSync(path.join(dir, `templates/${v}`), { recursive: true }); fs.writeFileSync(path.join(dir, `templates/${v}/label.ts`), `export const LABEL = 'label from ${v}';\n`); }
    const tsconfig = (to: string) => fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { jsx: 'react-jsx', paths: { '@label/*': [`./templates/${to}/*`] } } }));
    tsconfig('a');
    let r = await edit('templates/pages.tsx', (t) => `import { LABEL } from '@label/label.ts';\n${t.replace('<h1>Fixture home', '<h1>{LABEL} Fixture home')}`);
    expect(r.errors).toEqual([]);
    expect(await host.text('/')).toContain('label from a');
    tsconfig('b');
    r = await apply([{ file: 'tsconfig.json', kind: 'change' }]);
    expect(r.errors).toEqual([]);
    expect(await host.text('/')).toContain('label from b');
  });
});
