// The basic fixture's pages collection with a `cover: imageFile()` field, given to the Doc template's props
// (tests of imageFile(): tests/unit/images-field.test.ts, tests/e2e/images.test.ts).
import type { TestSite } from './site.ts';

export function addCoverField(site: TestSite, opts: { optional?: boolean; og?: boolean } = {}): void {
  site.edit('sitegen.config.ts', (t) => t
    .replace("import { defineConfig, href } from 'sitegen-islands';", "import { defineConfig, href, imageFile } from 'sitegen-islands';")
    .replace('description: z.string().optional() });', `description: z.string().optional(), cover: imageFile()${opts.optional ? '.optional()' : ''} });`)
    .replace('props: { title: p.data.title, html: p.html }', `props: { title: p.data.title, html: p.html, cover: p.data.cover }${opts.og ? ', ogImage: p.data.cover' : ''}`));
}
