// A template that uses a name it never imported (`href` from 'sitegen-islands', a component from its file)
// fails with React's "x is not defined": the error is located at the template's line, and its hint says
// what is most often wrong, an import left out, instead of the generic "this line threw".
import { afterAll, describe, expect, it } from 'vitest';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';

const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });

/** The basic fixture with its Item template's return line changed; its build fails on an item page. */
async function failedItemPage(before: string) {
  const s = await copyOf('basic');
  sites.push(s);
  s.edit('templates/pages.tsx', (t) => t.replace('  return (<><h1>{title}</h1><p>{tags.join', before));
  const r = await s.build();
  expect(r.code).toBe(1);
  expect(r.errors[0]).toMatchObject({ id: 'RenderError', location: { file: 'templates/pages.tsx', line: 12 } });
  return r.errors[0]!;
}

describe('a template that uses a name it never imported', () => {
  it('fails at that line, with a hint to import or declare the name', async () => {
    const e = await failedItemPage('  return (<><h1><a href={href(`/items/`)}>{title}</a></h1><p>{tags.join');
    expect(e.text).toMatch(/href is not defined/);
    expect(e.hint).toBe("`href` is used but never imported or declared in the file at the location: import it (sitegen's helpers, such as href, paginate or image, from 'sitegen-islands'; a component from the file that exports it) or declare it.");
  });

  it('keeps the generic hint for any other error a template throws', async () => {
    const e = await failedItemPage('  if (title) throw new Error("not defined here");\n  return (<><h1>{title}</h1><p>{tags.join');
    expect(e.hint).toMatch(/^The location is the line of the template/);
  });
});
