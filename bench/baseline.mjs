// The naive pipeline the brief compares against: one Node process, gray-matter + marked +
// react-dom/server renderToStaticMarkup over the same generated files, HTML written to a folder.
// No schema validation, no aliases, no link check, no atomic swap, no CSS bundle: just the three libraries.
//
//   node bench/baseline.mjs <content/pages dir> <out dir>
import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { marked } from 'marked';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

const [srcDir, outDir] = process.argv.slice(2);
if (!srcDir || !outDir) {
  process.stderr.write('usage: node bench/baseline.mjs <content/pages dir> <out dir>\n');
  process.exit(1);
}

const AREAS = ['guides', 'reference', 'blog', 'tutorials', 'news', 'docs', 'community', 'release-notes', 'how-to', 'concepts'];
const NAV = AREAS.map((area, i) => ({ href: `/${area}/page-${i}/`, label: area }));

// Same markup as bench/site/templates/Layout.tsx, plus the head tags sitegen writes for such a page.
function Document({ title, tagline, description, features, html, canonical }) {
  return h('html', { lang: 'en' },
    h('head', null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', null, `${title} | Bench`),
      h('meta', { name: 'description', content: description }),
      h('link', { rel: 'canonical', href: canonical })),
    h('body', null,
      h('header', null, h('a', { href: NAV[0].href }, 'Bench site')),
      h('nav', { 'aria-label': 'Areas' }, h('ul', null, NAV.map((n) => h('li', { key: n.href }, h('a', { href: n.href }, n.label))))),
      h('main', null,
        h('article', null,
          h('h1', null, title),
          h('p', { className: 'tagline' }, tagline),
          h('p', { className: 'description' }, description),
          h('ul', { className: 'features' }, features.map((f, i) => h('li', { key: i }, f))),
          h('div', { className: 'body', dangerouslySetInnerHTML: { __html: html } }))),
      h('footer', null, h('p', null, '© Bench site. Generated for benchmarking.'))));
}

function walk(dir, rel = '') {
  const out = [];
  for (const it of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${it.name}` : it.name;
    if (it.isDirectory()) out.push(...walk(dir, r));
    else if (it.name.endsWith('.md')) out.push(r);
  }
  return out;
}

const t0 = performance.now();
fs.rmSync(outDir, { recursive: true, force: true });
let pages = 0;
for (const rel of walk(srcDir).sort()) {
  const { data, content } = matter(fs.readFileSync(path.join(srcDir, rel), 'utf8'));
  const html = marked.parse(content, { async: false });
  const urlPath = `/${rel.replace(/\.md$/, '')}/`;
  const doc = '<!doctype html>' + renderToStaticMarkup(h(Document, { ...data, html, canonical: `https://bench.example${urlPath}` }));
  const dir = path.join(outDir, urlPath);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), doc);
  pages++;
}
process.stdout.write(`baseline: ${pages} pages → ${outDir} in ${Math.round(performance.now() - t0)} ms\n`);
