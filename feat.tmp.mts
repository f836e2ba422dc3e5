import fs from 'node:fs'; import path from 'node:path';
import matter from 'gray-matter';
import { compileMarkdown, prepareMarkdown } from './src/content/markdown.ts';
import { markdown } from './src/markdown/options.ts';
const dir = process.argv[2];
const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
const bodies = walk(dir).map((f) => matter(fs.readFileSync(f, 'utf8')).content);
const variants: [string, any][] = [['off', undefined], ['headingIds', { headingIds: true }], ['footnotes', { footnotes: true }], ['smartQuotes', { smartQuotes: true }], ['highlight', { highlight: true }], ['sanitize', { html: 'sanitize' }], ['all', { headingIds: true, footnotes: true, smartQuotes: true, highlight: true, html: 'sanitize' }]];
for (const round of [1, 2]) for (const [name, o] of variants) {
  const ext = o ? markdown(o).markdown : undefined;
  const t0 = performance.now(); await prepareMarkdown(ext); const t1 = performance.now();
  for (const b of bodies) compileMarkdown(b, ext);
  const t2 = performance.now();
  if (round === 2) console.log(`${name.padEnd(12)} load ${(t1 - t0).toFixed(0).padStart(4)} ms  ${bodies.length} bodies ${(t2 - t1).toFixed(0).padStart(5)} ms`);
}
