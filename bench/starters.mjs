#!/usr/bin/env node
// `node bench/starters.mjs`: the sites a new user starts from, grown to many pages. `sitegen init --template
// blog` with N posts and `--template docs` with N pages in its three sections, their text from
// ../shared/bench/gen.mjs (each page's title, description and body; a post's date, author and two of twelve
// tags made from its number; gen.mjs's links to its own areas pointed at the site's home page, as those
// pages do not exist here). Each site is made afresh from the starter in bench/.work/starters/ (untimed),
// then built in fresh processes: a first build (no build state, no output), again with nothing changed, and
// again after one line was added to one page's body (median of --runs), with peak RSS. The bench site of
// run.mjs is one layout over independent pages; a starter's pages share lists (the posts of a list or tag
// page, a docs sidebar on every page, a feed, a search index), so its edit shows what a page's key and the
// link check cost when routes share data.
//
//   node bench/starters.mjs [--posts 10000] [--docs 1000] [--runs 3] [--json]
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { log, runProcess, fmtS, fmtMB, median, setAside, emptyTrash } from './proc.mjs';
import { GEN } from './devsite.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.dirname(BENCH);
const CLI = path.join(REPO, 'bin', 'sitegen.js');
const WORK = path.join(BENCH, '.work', 'starters');

function args(argv) {
  const o = { posts: 10000, docs: 1000, runs: 3, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--posts') o.posts = Number(argv[++i]);
    else if (a === '--docs') o.docs = Number(argv[++i]);
    else if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--json') o.json = true;
    else if (a === '-h' || a === '--help') { process.stdout.write('node bench/starters.mjs [--posts 10000] [--docs 1000] [--runs 3] [--json]\n'); process.exit(0); }
    else { process.stderr.write(`bench/starters: unknown argument ${a}\n`); process.exit(1); }
  }
  for (const k of ['posts', 'docs', 'runs']) if (!Number.isInteger(o[k]) || o[k] < 1) { process.stderr.write(`--${k} takes an integer ≥ 1\n`); process.exit(1); }
  return o;
}
const opts = args(process.argv.slice(2));

/** gen.mjs's pages (made once per count into WORK/gen-N), as [title, description, body] in file order. */
function generated(n) {
  const dir = path.join(WORK, `gen-${n}`);
  if (!fs.existsSync(path.join(dir, '.done'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync(process.execPath, [GEN, String(n), dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    fs.writeFileSync(path.join(dir, '.done'), '');
  }
  const files = fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.md')).sort();
  return files.map((f) => {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    const end = text.indexOf('\n---', 4);
    const fm = text.slice(4, end);
    const field = (k) => new RegExp(`^${k}: (.*)$`, 'm').exec(fm)?.[1] ?? '""';
    // gen.mjs links to /<area>/page-<k>/, pages no starter has: pointed at the home page, which every site has.
    return { title: field('title'), description: field('description'), body: text.slice(end + 4).replace(/\]\(\/[a-z-]+\/page-\d+\/\)/g, '](/)') };
  });
}

/** A new site from the starter `template` in WORK/<name>, with `write(dir)` adding its pages. */
function site(name, template, write) {
  const dir = path.join(WORK, name);
  // Renamed aside, deleted after the runs: on this disk a build right after deleting many files pays for each
  // (bench/README.md, "Removing outputs between runs").
  setAside(dir);
  execFileSync(process.execPath, [CLI, 'init', dir, '--template', template], { stdio: 'ignore' });
  // The packages the site imports (sitegen-islands, react, zod) from this repository's install.
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // (the page the edits go to: one the site writes)
  return { dir, file: write(dir) };
}

const TAGS = ['react', 'node', 'css', 'html', 'performance', 'accessibility', 'design', 'testing', 'build', 'deploy', 'security', 'data'];

function blog(n) {
  const pages = generated(n);
  return site(`blog-${n}`, 'blog', (dir) => {
    const posts = path.join(dir, 'content', 'posts');
    pages.forEach((p, i) => {
      const date = new Date(Date.UTC(2020, 0, 1) + i * 7 * 3600e3).toISOString().slice(0, 10);
      fs.writeFileSync(path.join(posts, `post-${i}.md`), `---\ntitle: ${p.title}\ndate: ${date}\nauthor: ${i % 2 ? 'ada' : 'sam'}\ntags: [${TAGS[i % 12]}, ${TAGS[(i * 7 + 3) % 12]}]\ndescription: ${p.description}\n---\n${p.body}`);
    });
    return path.join(posts, `post-${Math.min(5, pages.length - 1)}.md`);
  });
}

function docs(n) {
  const pages = generated(n);
  return site(`docs-${n}`, 'docs', (dir) => {
    const sections = ['getting-started', 'guides', 'reference'];
    pages.forEach((p, i) => {
      fs.writeFileSync(path.join(dir, 'content', 'docs', sections[i % 3], `page-${i}.md`), `---\ntitle: ${p.title}\ndescription: ${p.description}\norder: ${i + 10}\n---\n${p.body}`);
    });
    return path.join(dir, 'content', 'docs', sections[0], 'page-0.md');
  });
}

const build = (dir) => runProcess([CLI, 'build', '--root', dir, '--quiet'], { cwd: REPO, timeoutS: 1800 });

/** A first build, then `runs` builds with nothing changed and `runs` after a line added to `file`. */
async function measure(label, dir, file) {
  const fail = (what, r) => { throw new Error(`${label}: ${what} failed (exit ${r.code})\n${(r.stderr || r.stdout).trim().split('\n').slice(-10).join('\n')}`); };
  const first = await build(dir);
  if (first.code !== 0) fail('the first build', first);
  log(`  ${label} first build: ${fmtS(first.seconds)} s, ${fmtMB(first.rssMB)} MB`);
  const unchanged = [], oneFile = [];
  for (let i = 0; i < opts.runs; i++) {
    const u = await build(dir);
    if (u.code !== 0) fail('a build with nothing changed', u);
    unchanged.push(u);
    fs.appendFileSync(file, `\nA line added by bench run ${i + 1}.\n`);
    const o = await build(dir);
    if (o.code !== 0) fail('a build after one file changed', o);
    oneFile.push(o);
    log(`  ${label} ${i + 1}/${opts.runs}: nothing changed ${fmtS(u.seconds)} s, one file ${fmtS(o.seconds)} s, ${fmtMB(o.rssMB)} MB`);
  }
  const m = (rs, k) => median(rs.map((r) => r[k]).filter((x) => x != null));
  return { first: { seconds: first.seconds, rssMB: first.rssMB }, unchanged: { seconds: m(unchanged, 'seconds') }, oneFile: { seconds: m(oneFile, 'seconds'), rssMB: m(oneFile, 'rssMB') } };
}

async function main() {
  fs.mkdirSync(WORK, { recursive: true });
  const out = {};
  log(`blog starter, ${opts.posts} posts (bench/.work/starters/blog-${opts.posts})`);
  const b = blog(opts.posts);
  out.blog = { posts: opts.posts, ...await measure('blog', b.dir, b.file) };
  log(`docs starter, ${opts.docs} pages (bench/.work/starters/docs-${opts.docs})`);
  const d = docs(opts.docs);
  out.docs = { pages: opts.docs, ...await measure('docs', d.dir, d.file) };
  emptyTrash();
  if (opts.json) process.stdout.write(`${JSON.stringify(out)}\n`);
  else for (const [k, v] of Object.entries(out)) log(`${k}: first ${fmtS(v.first.seconds)} s (${fmtMB(v.first.rssMB)} MB), nothing changed ${fmtS(v.unchanged.seconds)} s, one file ${fmtS(v.oneFile.seconds)} s (${fmtMB(v.oneFile.rssMB)} MB)`);
}

main().catch((e) => { process.stderr.write(`${e.message}\n`); process.exit(1); });
