#!/usr/bin/env node
// bench/dev.mjs (npm run bench:dev): how fast `sitegen dev` serves a fresh page after an edit.
// Generates a 1,000-page site (shared gen.mjs content + a small config and layout) in bench/.work/dev-site,
// starts `sitegen dev` on it, listens to its event stream, then edits one Markdown page's body N times and
// the layout template N times. Each sample is edit → reload event → GET of the page showing the new text.
// Env: BENCH_PAGES (1000), BENCH_EDITS (20), BENCH_TEMPLATE_EDITS (same as BENCH_EDITS).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SITE = path.join(REPO, 'bench', '.work', 'dev-site');
// The shared generator, beside the repository (../shared from its root); BENCH_GEN overrides (worktrees).
const GEN = process.env.BENCH_GEN ?? path.resolve(REPO, '..', 'shared', 'bench', 'gen.mjs');
const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const EDITS = Number(process.env.BENCH_EDITS ?? 20);
const TEMPLATE_EDITS = Number(process.env.BENCH_TEMPLATE_EDITS ?? EDITS);
const WARMUP = 2;
const TIMEOUT_MS = 30_000;

// ---- The site. gen.mjs writes content/pages/<area>/page-<n>.md; this adds the config, layout, pages,
// stylesheet, site.yaml and favicon. Pages live at /<area>/page-<n>/, with one index per area. gen.mjs's
// bodies link to /<random area>/page-<n>/ with n up to a few past the last page, and most of those paths
// are not pages: the config declares each as an alias (a redirect) of the page with that number, or of the
// area's index past the last page, so every link resolves and the link check passes as it must.
const AREAS = ['guides', 'reference', 'blog', 'tutorials', 'news', 'docs', 'community', 'release-notes', 'how-to', 'concepts'];

/** URL and file of page n, where gen.mjs puts it. */
const pagePath = (n) => `/${AREAS[n % AREAS.length]}/page-${n}/`;
const pageFile = (site, n) => path.join(site, 'content', 'pages', AREAS[n % AREAS.length], `page-${n}.md`);

const CONFIG = `// Benchmark site for \`sitegen dev\`, written by bench/dev.mjs (changes here are overwritten).
import { z } from 'zod';
import { defineConfig, type Entry, type RouteDef } from 'sitegen';
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
import type { LayoutProps } from 'sitegen';

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

// ---- The measurement.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `sitegen dev` and resolves with its URL; collects its output for the server-side timings. */
function startDev() {
  const proc = spawn(process.execPath, [path.join(REPO, 'bin/sitegen.js'), 'dev', '--root', SITE, '--port', '0', '--no-backend'], { cwd: REPO, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill(); reject(new Error(`dev server did not start:\n${out}`)); }, 120_000);
    const onData = (d) => {
      out += d;
      const m = out.match(/at (http:\/\/\S+?)\/?\s/);
      if (m) { clearTimeout(timer); resolve({ url: m[1], proc, output: () => out, startMs: performance.now() - t0 }); }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`dev server exited with ${code}:\n${out}`)); });
  });
}

/** Opens the SSE stream; `next(pred)` resolves with the first later `reload` event matching pred. */
function events(url) {
  const waiters = [];
  const errors = [];
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/__sitegen/events`, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event || !data) continue;
          const payload = JSON.parse(data);
          if (event === 'errors' && payload.length) errors.push(...payload.map((e) => e.text));
          if (process.env.BENCH_DEBUG) process.stderr.write(`[sse] ${event} ${data.slice(0, 200)}\n`);
          if (event !== 'reload') continue;
          for (const w of waiters.splice(0)) if (!w.pred(payload)) waiters.push(w); else w.resolve(payload);
        }
      });
      resolve({
        next: (pred) => new Promise((res2, rej2) => {
          const timer = setTimeout(() => rej2(new Error(`no reload event within ${TIMEOUT_MS} ms; errors: ${errors.join('\n') || 'none'}`)), TIMEOUT_MS);
          waiters.push({ pred, resolve: (p) => { clearTimeout(timer); res2(p); } });
        }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

async function measure(label, count, edit, route, url, stream) {
  const samples = [];
  for (let k = -WARMUP; k < count; k++) {
    const marker = `bench-${label.replace(/\W/g, '')}-${k + WARMUP}-${Date.now().toString(36)}`;
    const t0 = performance.now();
    const reloaded = stream.next((p) => p.paths.includes('*') || p.paths.includes(route));
    edit(marker);
    await reloaded;
    const html = await (await fetch(url + route)).text();
    const ms = performance.now() - t0;
    if (!html.includes(marker)) throw new Error(`${label}: ${route} was reloaded but does not show the edit ${marker}`);
    if (k >= 0) samples.push(ms);
    await sleep(120); // apart from each other, as a person's saves are
  }
  return samples;
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { n: s.length, median: s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2, p95: at(0.95), min: s[0], max: s[s.length - 1] };
};

/** The server's own "→ N routes re-rendered in X ms" lines after `from` characters of its output. */
function serverLines(output, from) {
  const lines = [...output.slice(from).matchAll(/→ (\d+) routes? re-rendered in (\d+) ms/g)].map((m) => ({ routes: Number(m[1]), ms: Number(m[2]) }));
  return lines.slice(WARMUP);
}

async function main() {
  const load = os.loadavg()[0];
  process.stdout.write(`sitegen dev benchmark: ${PAGES} pages, ${EDITS} edits each (+${WARMUP} warm-up), load average ${load.toFixed(2)} on ${os.cpus().length} cores\n`);
  fs.rmSync(SITE, { recursive: true, force: true });
  const gen = spawnSync(process.execPath, [GEN, String(PAGES), path.join(SITE, 'content', 'pages')], { encoding: 'utf8' });
  if (gen.status !== 0) throw new Error(`gen.mjs failed: ${gen.stderr}`);
  writeBenchSite(SITE);
  const dev = await startDev();
  const stream = await events(dev.url);
  const built = /built (\d+) pages in memory in (\d+) ms/.exec(dev.output());
  process.stdout.write(`  started in ${dev.startMs.toFixed(0)} ms (first build: ${built ? `${built[1]} pages in ${built[2]} ms` : 'see output'})\n`);
  const rows = [];
  try {
    const md = pageFile(SITE, 0);
    const original = fs.readFileSync(md, 'utf8');
    let from = dev.output().length;
    const content = await measure('content', EDITS, (marker) => fs.writeFileSync(md, `${original}\nEdited paragraph ${marker}.\n`), pagePath(0), dev.url, stream);
    rows.push(['content edit (one .md body)', stats(content), serverLines(dev.output(), from)]);
    fs.writeFileSync(md, original);
    await sleep(200);

    const layout = path.join(SITE, 'templates', 'Layout.tsx');
    const layoutSource = fs.readFileSync(layout, 'utf8');
    from = dev.output().length;
    const template = await measure('template', TEMPLATE_EDITS, (marker) => fs.writeFileSync(layout, layoutSource.replace('>layout-mark<', `>${marker}<`)), pagePath(0), dev.url, stream);
    rows.push(['template edit (layout)', stats(template), serverLines(dev.output(), from)]);
    fs.writeFileSync(layout, layoutSource);
  } catch (e) {
    process.stderr.write(`server output:\n${dev.output()}\n`);
    throw e;
  } finally {
    stream.close();
    dev.proc.kill('SIGTERM');
  }
  const f = (n) => `${n.toFixed(1)} ms`.padStart(10);
  process.stdout.write('\n  edit                          n     median        p95        min        max   routes re-rendered   server rebuild (median)\n');
  for (const [name, s, lines] of rows) {
    const routes = [...new Set(lines.map((l) => l.routes))].join('/') || '?';
    const server = lines.length ? stats(lines.map((l) => l.ms)).median : NaN;
    process.stdout.write(`  ${name.padEnd(28)} ${String(s.n).padStart(3)} ${f(s.median)} ${f(s.p95)} ${f(s.min)} ${f(s.max)}   ${routes.padStart(18)}   ${Number.isNaN(server) ? '?' : `${server} ms`}\n`);
  }
  process.stdout.write(`\n  (edit → reload event on the event stream → GET shows the edit; wall clock, includes the 10 ms debounce; load average now ${os.loadavg()[0].toFixed(2)})\n`);
}

main().catch((e) => { process.stderr.write(`${e?.stack ?? e}\n`); process.exit(1); });
