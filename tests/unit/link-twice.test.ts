// A fragment link to an id two elements of its page have lands on the first, by chance where it means to:
// the link check says so, at the link, with what to rename. Ids alone, linked by nothing, are left alone.
import { afterAll, describe, expect, it } from 'vitest';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';

const sites: TestSite[] = [];
afterAll(() => { for (const s of sites) s.remove(); });

describe('an id two elements have', () => {
  it('fails the link to it, and not a page that only has it twice', async () => {
    const s = await copyOf('basic');
    sites.push(s);
    s.edit('templates/pages.tsx', (t) => t.replace('return (<><h1>{title}</h1><div dangerouslySetInnerHTML={{ __html: html }} /></>);', 'return (<><h1 id="top-of-page">{title}</h1><div dangerouslySetInnerHTML={{ __html: html }} /><p id="top-of-page">again</p></>);'));
    expect((await s.build()).code).toBe(0);
    s.edit('templates/pages.tsx', (t) => t.replace('<p id="top-of-page">again</p>', '<p id="top-of-page">again</p><a href="#top-of-page">up</a>'));
    for (const command of ['build', 'check']) {
      const r = await s.run(command);
      expect(r.code, command).toBe(1);
      expect(r.errors[0]!.text, command).toBe('page /about/ links to #top-of-page, but the page has more than one element with id "top-of-page" (a browser goes to the first)');
      expect(r.errors[0]!.location, command).toMatchObject({ file: 'templates/pages.tsx' });
      expect(r.errors[0]!.hint, command).toMatch(/Rename the heading, or the template's id/);
    }
  });
});
