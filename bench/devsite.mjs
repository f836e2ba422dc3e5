// bench/devsite.mjs: the 1,000-page site `sitegen dev` is measured on (bench/dev.mjs): gen.mjs's content plus a
// config with a home page, one index per area, a 404 page and aliases, a layout, page components, CSS,
// site.yaml and a favicon. Written into bench/.work/dev-site by prepareDevSite().
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The shared content generator, ../shared/bench/gen.mjs beside the repository. From a git worktree that is
 * placed elsewhere (e.g. /work/wt/x), the same path beside the main checkout (git's common dir). $BENCH_GEN
 * overrides both. Also used by bench/run.mjs.
 */
function findGen() {
  if (process.env.BENCH_GEN) return path.resolve(process.env.BENCH_GEN);
  const beside = (root) => path.resolve(root, '..', 'shared', 'bench', 'gen.mjs');
  if (fs.existsSync(beside(REPO))) return beside(REPO);
  const common = spawnSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: REPO, encoding: 'utf8' });
  const main = common.status === 0 ? beside(path.dirname(common.stdout.trim())) : null;
  return main && fs.existsSync(main) ? main : beside(REPO);
}
export const GEN = findGen();

// ---- The site. gen.mjs writes content/pages/<area>/page-<n>.md; this adds the config, layout, pages,
// stylesheet, site.yaml and favicon. Pages live at /<area>/page-<n>/, with one index per area. gen.mjs's
// bodies link to /<random area>/page-<n>/ with n up to a few past the last page, and most of those paths
// are not pages: the config declares each as an alias (a redirect) of the page with that number, or of the
// area's index past the last page, so every link resolves and the link check passes as it must.
export const AREAS = ['guides', 'reference', 'blog', 'tutorials', 'news', 'docs', 'community', 'release-notes', 'how-to', 'concepts'];

/** URL and file of page n, where gen.mjs puts it. */
export const pagePath = (n) => `/${AREAS[n % AREAS.length]}/page-${n}/`;
export const pageFile = (site, n) => path.join(site, 'content', 'pages', AREAS[n % AREAS.length], `page-${n}.md`);

const CONFIG = `// Benchmark site for \`sitegen dev\`, written by bench/dev.mjs (changes here are overwritten).
import { z } from 'zod';
import { defineConfig, type Entry, type RouteDef } from 'sitegen-islands';
import { Layout } from './templates/Layout.tsx';
import { Page, AreaIndex, Home, NotFound } from './templates/pages.tsx';

const AREAS = ${JSON.stringify(AREAS)};
const PageSchema = z.strictObject({ title: z.string().min(1), description: z.string(), features: z.array(z.string()).length(4), tagline: z.string() });
const SiteSchema = z.strictObject({ title: z.string(), nav: z.array(z.strictObject({ label: z.string(), href: z.string() })).length(10), footer: z.string() });
// gen.mjs links to page numbers up to 2 × its section count past the page's own: 16 covers them.
const LINK_REACH = 16;

let memo: { key: string; aliases: Map<string, string[]> } | null = null;

/** Route path → the paths that redirect to it. Depends only on which pages exist, so it is kept per file set. */
function aliasTable(pages: Entry[]): Map<string, string[]> {
  const key = pages.map((p) => p.file).join('\\n');
  if (memo?.key === key) return memo.aliases;
  const byNumber = new Map(pages.map((p) => [Number(p.slug.replace('page-', '')), p]));
  const aliases = new Map<string, string[]>();
  const last = Math.max(0, ...byNumber.keys());
  for (let n = 0; n <= last + LINK_REACH; n++) {
    const page = byNumber.get(n);
    for (const area of AREAS) {
      if (page && page.dirs[0] === area) continue;
      const target = page ? \`/\${page.dirs[0]}/\${page.slug}\` : \`/\${area}\`;
      if (!aliases.has(target)) aliases.set(target, []);
      aliases.get(target)!.push(\`/\${area}/page-\${n}\`);
    }
  }
  memo = { key, aliases };
  return aliases;
}

export default defineConfig({
  site: { title: 'Bench', url: 'https://bench.example', titleTemplate: '%s | Bench', favicon: '/favicon.svg' },
  css: ['templates/site.css'],
  layout: Layout,
  collections: {
    site: { pattern: 'site.yaml', schema: SiteSchema, single: true },
    pages: { pattern: 'pages/*/*.md', schema: PageSchema },
  },
  routes: (content) => {
    const pages = content.pages as Entry[];
    const aliases = aliasTable(pages);
    const routes: RouteDef[] = pages.map((p) => {
      const path = \`/\${p.dirs[0]}/\${p.slug}\`;
      return { path, component: Page, props: { ...p.data, html: p.html }, title: p.data.title, description: p.data.description, source: p.file, aliases: aliases.get(path) };
    });
    for (const area of AREAS) {
      const list = pages.filter((p) => p.dirs[0] === area).map((p) => ({ href: \`/\${area}/\${p.slug}/\`, title: p.data.title }));
      routes.push({ path: \`/\${area}\`, component: AreaIndex, props: { area, pages: list }, title: area, aliases: aliases.get(\`/\${area}\`) });
    }
    routes.push({ path: '/', component: Home, props: { areas: AREAS }, title: 'Bench' });
    routes.push({ path: '/404', output: '404.html', component: NotFound, props: {}, title: 'Page Not Found', noindex: true });
    return routes;
  },
});
`;

const LAYOUT = `// The bench site's layout: header with a nav of 10 links, the page, a footer. bench/dev.mjs measures a
// template edit by replacing the text of the footer's .mark paragraph.
import type { LayoutProps } from 'sitegen-islands';

interface Site { title: string; nav: { label: string; href: string }[]; footer: string }

export function Layout({ content, children }: LayoutProps) {
  const site = content.site as Site;
  return (
    <>
      <header>
        <a href="/">{site.title}</a>
        <nav aria-label="Areas"><ul>{site.nav.map((l) => <li key={l.href}><a href={l.href}>{l.label}</a></li>)}</ul></nav>
      </header>
      <main>{children}</main>
      <footer><p>{site.footer}</p><p className="mark">layout-mark</p></footer>
    </>
  );
}
`;

const PAGE_COMPONENTS = `// The bench site's page components.
export function Page({ title, tagline, description, features, html }: { title: string; tagline: string; description: string; features: string[]; html: string }) {
  return (
    <article>
      <h1>{title}</h1>
      <p className="tagline">{tagline}</p>
      <p>{description}</p>
      <ul className="features">{features.map((f) => <li key={f}>{f}</li>)}</ul>
      <div className="body" dangerouslySetInnerHTML={{ __html: html }} />
    </article>
  );
}

export function AreaIndex({ area, pages }: { area: string; pages: { href: string; title: string }[] }) {
  return (<><h1>{area}</h1><ul>{pages.map((p) => <li key={p.href}><a href={p.href}>{p.title}</a></li>)}</ul></>);
}

export function Home({ areas }: { areas: string[] }) {
  return (<><h1>Bench</h1><ul>{areas.map((a) => <li key={a}><a href={\`/\${a}/\`}>{a}</a></li>)}</ul></>);
}

export function NotFound() {
  return (<><h1>Page Not Found</h1><a href="/">Back to Home</a></>);
}
`;

const CSS = `body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; }
nav ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; padding: 0; }
.tagline { font-style: italic; }
`;

const SITE_YAML = [
  'title: Bench',
  'footer: A generated site for measuring sitegen dev.',
  'nav:',
  ...AREAS.map((a) => `  - label: ${a}\n    href: /${a}/`),
  '',
].join('\n');

const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#333"/></svg>\n';

/** Writes everything but the pages (gen.mjs writes those into content/pages first). */
function writeBenchSite(site) {
  const files = {
    'sitegen.config.ts': CONFIG,
    'templates/Layout.tsx': LAYOUT,
    'templates/pages.tsx': PAGE_COMPONENTS,
    'templates/site.css': CSS,
    'content/site.yaml': SITE_YAML,
    'static/favicon.svg': FAVICON,
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(site, rel)), { recursive: true });
    fs.writeFileSync(path.join(site, rel), text);
  }
}

/** A fresh dev site of `pages` gen.mjs pages in `site`. */
export function prepareDevSite(site, pages) {
  fs.rmSync(site, { recursive: true, force: true });
  const gen = spawnSync(process.execPath, [GEN, String(pages), path.join(site, 'content', 'pages')], { encoding: 'utf8' });
  if (gen.status !== 0) throw new Error(`gen.mjs failed: ${gen.stderr}`);
  writeBenchSite(site);
}
