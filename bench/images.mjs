#!/usr/bin/env node
// `node bench/images.mjs`: the image pipeline (issue #25) on a site of N photos, each shown once in a
// Markdown post: 3000×2000 JPEGs and 2000×2000 PNGs with noise (so they do not compress to nothing), plus
// one 4000×2500 PNG of about 20 MB. Generated once into bench/.work/images/ (not timed).
//
//   node bench/images.mjs [--photos 200] [--runs 1] [--json]
//
// Figures: sitegen's cold build (no build state, no output) and its peak RSS; its warm build with the output
// kept (an author's repeated build: the second of two builds over dist/) and without it (the cache the cold
// one left, a new dist/), each against the same posts without their images; the bytes one page
// ships (the AVIF a 1280 px wide viewport picks) against the original; and "the physical floor": sharp
// called directly, in one process, for the same variants (same widths, formats and encoder options), with
// as many images decoding at once as the machine's cores allow. Each build and the floor is a fresh process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { log, runProcess, fmtS, fmtMB, TMP } from './proc.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.dirname(BENCH);
const CLI = path.join(REPO, 'bin', 'sitegen.js');
const WORK = path.join(BENCH, '.work', 'images');

// The engine's defaults (src/images/model.ts DEFAULT_IMAGE_SETTINGS) and encoder options (src/images/variants.ts
// encoderOptions): the floor makes exactly what sitegen makes. bench keeps its own copy (plain JavaScript).
const WIDTHS = [640, 960, 1280, 1920];
const MAX_WIDTH = 1280;
const QUALITY = 60;
const ENC = { avif: { quality: QUALITY, effort: 2 }, webp: { quality: QUALITY + 10, effort: 3 }, jpeg: { quality: QUALITY + 15, mozjpeg: true }, png: { compressionLevel: 6 } };
const TARGETS = { coldRatio: 1.2, warmAddsMs: 50, peakRssMB: 600, bigAt1280KB: 300 };

function args(argv) {
  const o = { photos: 200, runs: 1, json: false, floor: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--photos') o.photos = Number(argv[++i]);
    else if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--json') o.json = true;
    else if (a === '--floor') o.floor = [argv[++i], argv[++i]];
    else if (a === '-h' || a === '--help') { process.stdout.write('node bench/images.mjs [--photos 200] [--runs 1] [--json]\n'); process.exit(0); }
    else { process.stderr.write(`bench/images: unknown argument ${a}\n`); process.exit(1); }
  }
  if (!Number.isInteger(o.photos) || o.photos < 2) { process.stderr.write('--photos takes an integer ≥ 2\n'); process.exit(1); }
  return o;
}
const opts = args(process.argv.slice(2));

/** The widths a source is published at (src/images/model.ts variantWidths). */
function variantWidths(w) {
  const out = WIDTHS.filter((x) => x < w);
  if (w <= WIDTHS[WIDTHS.length - 1]) out.push(w);
  return out;
}

// ---------- the floor: sharp alone (run in its own process: node bench/images.mjs --floor <dir> <out>) ----------
async function floor([dir, out]) {
  const sharp = (await import('sharp')).default;
  const files = fs.readdirSync(dir).filter((f) => /\.(jpe?g|png)$/.test(f)).map((f) => path.join(dir, f));
  fs.mkdirSync(out, { recursive: true });
  const slots = Math.max(1, Math.min(4, os.availableParallelism()));
  const jobs = [];
  for (const file of files) {
    const meta = await sharp(file).metadata();
    const own = meta.format === 'png' ? 'png' : 'jpeg';
    const ws = variantWidths(meta.width);
    const shown = Math.min(meta.width, MAX_WIDTH, ws[ws.length - 1]);
    const fallback = ws.find((w) => w >= shown) ?? ws[ws.length - 1];
    for (const fmt of ['avif', 'webp']) for (const w of ws) jobs.push([file, w, fmt, meta.width]);
    jobs.push([file, fallback, own, meta.width]);
  }
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const [file, w, fmt, width] = jobs[next++];
      let img = sharp(file, { failOn: 'truncated' }).rotate();
      if (w < width) img = img.resize({ width: w });
      await img[fmt](ENC[fmt]).toFile(path.join(out, `${path.basename(file)}-${w}.${fmt}`));
    }
  };
  await Promise.all(Array.from({ length: slots }, worker));
  process.stdout.write(JSON.stringify({ variants: jobs.length }) + '\n');
}

// ---------- the site ----------
const CONFIG = `import { z } from 'zod';
import { defineConfig } from 'sitegen-islands';
import { Layout, Post, Home } from './templates/pages.tsx';
const Post$ = z.strictObject({ title: z.string() });
export default defineConfig({
  site: { title: 'Photos', url: 'https://photos.example' },
  layout: Layout,
  collections: { posts: { pattern: 'posts/*.md', schema: Post$ } },
  routes: (c) => [
    { path: '/', component: Home, props: { posts: c.posts.map((p) => ({ slug: p.slug, title: p.data.title })) }, title: 'Photos' },
    ...c.posts.map((p) => ({ path: \`/posts/\${p.slug}\`, component: Post, props: { title: p.data.title, html: p.html ?? '' }, title: p.data.title, source: p.file })),
  ],
});
`;
const PAGES = `import type { LayoutProps } from 'sitegen-islands';
export function Layout({ children }: LayoutProps) { return <main>{children}</main>; }
export function Home({ posts }: { posts: { slug: string; title: string }[] }) { return <ul>{posts.map((p) => <li key={p.slug}><a href={\`/posts/\${p.slug}/\`}>{p.title}</a></li>)}</ul>; }
export function Post({ title, html }: { title: string; html: string }) { return <article><h1>{title}</h1><div dangerouslySetInnerHTML={{ __html: html }} /></article>; }
`;

/** A photo-like image: smooth colour fields from a small random grid, plus per-pixel noise of ±amp. */
async function photo(sharp, width, height, seed, amp) {
  let x = (seed * 2654435761) >>> 0;
  const rand = () => { x = (Math.imul(x, 1103515245) + 12345) >>> 0; return x >>> 16; };
  const small = Buffer.alloc(8 * 6 * 3);
  for (let i = 0; i < small.length; i++) small[i] = rand() & 255;
  const base = await sharp(small, { raw: { width: 8, height: 6, channels: 3 } }).resize(width, height, { kernel: 'cubic', fit: 'fill' }).raw().toBuffer();
  for (let i = 0; i < base.length; i++) { const v = base[i] + (rand() % (2 * amp + 1)) - amp; base[i] = v < 0 ? 0 : v > 255 ? 255 : v; }
  return sharp(base, { raw: { width, height, channels: 3 } });
}

async function generate(n) {
  const marker = path.join(WORK, `generated-${n}.json`);
  if (fs.existsSync(marker)) return JSON.parse(fs.readFileSync(marker, 'utf8'));
  const sharp = (await import('sharp')).default;
  fs.rmSync(WORK, { recursive: true, force: true });
  const t0 = performance.now();
  for (const name of ['site', 'plain']) {
    const root = path.join(WORK, name);
    fs.mkdirSync(path.join(root, 'content', 'posts'), { recursive: true });
    fs.mkdirSync(path.join(root, 'templates'), { recursive: true });
    fs.writeFileSync(path.join(root, 'sitegen.config.ts'), CONFIG);
    fs.writeFileSync(path.join(root, 'templates', 'pages.tsx'), PAGES);
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  }
  const images = [];
  for (let i = 0; i <= n; i++) {
    // Photo 0: the issue's 4000×2500 PNG of ~20 MB; then JPEGs and PNGs by turns.
    const [file, w, h, amp] = i === 0 ? ['big.png', 4000, 2500, 40] : i % 2 ? [`photo-${i}.jpg`, 3000, 2000, 12] : [`photo-${i}.png`, 2000, 2000, 6];
    const img = await photo(sharp, w, h, i + 1, amp);
    const out = path.join(WORK, 'site', 'content', 'posts', file);
    await (file.endsWith('.png') ? img.png({ compressionLevel: 6 }) : img.jpeg({ quality: 88 })).toFile(out);
    images.push({ file, bytes: fs.statSync(out).size });
    const text = (withImage) => `---\ntitle: Post ${i}\n---\n\nA post with a photo.\n\n${withImage ? `![Photo number ${i}](./${file})\n\n` : ''}Some words after it.\n`;
    fs.writeFileSync(path.join(WORK, 'site', 'content', 'posts', `post-${i}.md`), text(true));
    fs.writeFileSync(path.join(WORK, 'plain', 'content', 'posts', `post-${i}.md`), text(false));
    if (i % 20 === 0) log(`  generated ${i + 1}/${n + 1} images`);
  }
  const info = { n, images, seconds: (performance.now() - t0) / 1000 };
  fs.writeFileSync(marker, JSON.stringify(info));
  return info;
}

const rm = (p) => fs.rmSync(p, { recursive: true, force: true });
// The install's image store (every site's variants, node_modules/.cache/sitegen/images/): a cold build has none.
const IMAGE_STORE = path.join(REPO, 'node_modules', '.cache', 'sitegen', 'images');
/** state: 'cold' (no build state, no variants made, no output), 'warm' (the build state and the variants, no output), 'kept' (all kept). */
async function build(root, state) {
  if (state !== 'kept') rm(path.join(root, 'dist'));
  if (state === 'cold') { rm(path.join(root, '.sitegen')); rm(IMAGE_STORE); }
  // SITEGEN_DEBUG_MEM: the build prints its image encoder's peak RSS (a process of its own, src/images/encoder.ts).
  const r = await runProcess([CLI, 'build', '--root', root, '--json'], { cwd: REPO, timeoutS: 3600, env: { SITEGEN_DEBUG_MEM: '1' } });
  if (r.code !== 0) throw new Error(`sitegen build ${root} (${state}) failed:\n${(r.stdout + r.stderr).slice(-2000)}`);
  const json = JSON.parse(r.stdout);
  const encoder = r.stderr.match(/image encoder: peak RSS (\d+) MB/);
  return { seconds: r.seconds, rssMB: r.rssMB, encoderRssMB: encoder ? Number(encoder[1]) : null, images: json.images, timings: json.timings };
}

async function main() {
  log(`image bench: ${opts.photos} photos + one 20 MB PNG, each in one Markdown post (bench/.work/images/)`);
  const gen = await generate(opts.photos);
  const site = path.join(WORK, 'site');
  const plain = path.join(WORK, 'plain');
  const res = { photos: opts.photos, runs: [], floor: [] };
  for (let run = 0; run < opts.runs; run++) {
    const floorOut = path.join(TMP, `floor-${run}`);
    const f = await runProcess([fileURLToPath(import.meta.url), '--floor', path.join(site, 'content', 'posts'), floorOut], { cwd: REPO, timeoutS: 3600 });
    if (f.code !== 0) throw new Error(`floor failed: ${f.stderr.slice(-1000)}`);
    rm(floorOut);
    res.floor.push({ seconds: f.seconds, rssMB: f.rssMB, variants: JSON.parse(f.stdout).variants });
    log(`  floor (sharp alone): ${fmtS(f.seconds)} s, ${JSON.parse(f.stdout).variants} variants, peak RSS ${fmtMB(f.rssMB)} MB`);
    const cold = await build(site, 'cold');
    log(`  sitegen cold: ${fmtS(cold.seconds)} s, peak RSS ${fmtMB(cold.rssMB)} MB (its image encoder process: ${cold.encoderRssMB ?? 'none'} MB), ${cold.images?.processed} variants encoded`);
    const warm = await build(site, 'warm');
    log(`  sitegen warm: ${fmtS(warm.seconds)} s, ${warm.images?.processed} encoded, ${warm.images?.cached} from the cache`);
    // A rebuild with the output in place: the build after keeps the one it replaces and writes over it
    // (only what changed), so the second of two such builds is what an author's repeated build costs.
    await build(site, 'kept');
    const kept = await build(site, 'kept');
    log(`  sitegen warm, output kept: ${fmtS(kept.seconds)} s (images ${kept.timings?.images ?? '?'} ms, image files ${kept.timings?.['image files'] ?? '?'} ms)`);
    await build(plain, 'cold');
    const plainWarm = await build(plain, 'warm');
    await build(plain, 'kept');
    const plainKept = await build(plain, 'kept');
    log(`  same posts without images, warm: ${fmtS(plainWarm.seconds)} s; output kept: ${fmtS(plainKept.seconds)} s`);
    res.runs.push({ cold, warm, kept, plainWarm, plainKept });
  }
  // Bytes one page ships: the AVIF a 1280 px wide viewport picks, against the original file.
  const page = fs.readFileSync(path.join(site, 'dist', 'posts', 'post-1', 'index.html'), 'utf8');
  const avif1280 = (html) => html.match(/\/(assets\/img\/[0-9a-f]{22}\/[\w-]+-1280\.avif)/)?.[1];
  const sizeOf = (rel) => fs.statSync(path.join(site, 'dist', rel)).size;
  const one = { original: gen.images[1].bytes, shipped: sizeOf(avif1280(page)) };
  const bigPage = fs.readFileSync(path.join(site, 'dist', 'posts', 'post-0', 'index.html'), 'utf8');
  const bigAvif = avif1280(bigPage);
  const big = { original: gen.images[0].bytes, avif1280: sizeOf(bigAvif), webp1280: sizeOf(bigAvif.replace(/\.avif$/, '.webp')), lazy: /loading="lazy"/.test(bigPage), sized: /width="1280" height="800"/.test(bigPage) };
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const coldS = med(res.runs.map((r) => r.cold.seconds));
  const floorS = med(res.floor.map((r) => r.seconds));
  const warmAddsMs = (med(res.runs.map((r) => r.warm.seconds)) - med(res.runs.map((r) => r.plainWarm.seconds))) * 1000;
  const keptAddsMs = (med(res.runs.map((r) => r.kept.seconds)) - med(res.runs.map((r) => r.plainKept.seconds))) * 1000;
  // The largest process (what /usr/bin/time reports), and the build's process and its encoder together.
  const peak = Math.max(...res.runs.map((r) => r.cold.rssMB ?? 0));
  const peakBoth = Math.max(...res.runs.map((r) => (r.cold.rssMB ?? 0) + (r.cold.encoderRssMB ?? 0)));
  const figures = { coldS, floorS, ratio: coldS / floorS, warmS: med(res.runs.map((r) => r.warm.seconds)), warmAddsMs, keptS: med(res.runs.map((r) => r.kept.seconds)), keptAddsMs, peakRssMB: peak, peakBothMB: peakBoth, floorRssMB: Math.max(...res.floor.map((f) => f.rssMB ?? 0)), onePage: one, big };
  const met = (ok) => (ok ? 'met' : 'NOT MET');
  const lines = [
    `images (${opts.photos} photos + the 20 MB PNG, ${res.floor[0].variants} variants)`,
    `  sharp alone (floor)      ${fmtS(floorS)} s`,
    `  sitegen cold             ${fmtS(coldS)} s = ${figures.ratio.toFixed(2)}× the floor      target ≤ ${TARGETS.coldRatio}×: ${met(figures.ratio <= TARGETS.coldRatio)}`,
    `  sitegen warm, output kept ${fmtS(figures.keptS)} s, +${keptAddsMs.toFixed(0)} ms over the same posts without images      target ≤ ${TARGETS.warmAddsMs} ms: ${met(keptAddsMs <= TARGETS.warmAddsMs)}`,
    `  sitegen warm, no output  ${fmtS(figures.warmS)} s, +${warmAddsMs.toFixed(0)} ms (every variant copied from the cache into a new dist/)`,
    `  peak RSS (cold)          ${fmtMB(peak)} MB, the largest process; the build and its encoder together ≤ ${fmtMB(peakBoth)} MB (sharp alone: ${fmtMB(figures.floorRssMB)} MB)      target ≤ ${TARGETS.peakRssMB} MB: ${met(peakBoth <= TARGETS.peakRssMB)}`,
    `  one page ships           ${(one.shipped / 1024).toFixed(0)} KB (AVIF at 1280 px) for a ${(one.original / 1048576).toFixed(1)} MB original`,
    `  the 20 MB PNG            ${(big.original / 1048576).toFixed(1)} MB → AVIF ${(big.avif1280 / 1024).toFixed(0)} KB, WebP ${(big.webp1280 / 1024).toFixed(0)} KB at 1280 px, width/height ${big.sized ? 'set' : 'MISSING'}, lazy ${big.lazy ? 'yes' : 'NO'}      target ≤ ${TARGETS.bigAt1280KB} KB: ${met(Math.max(big.avif1280, big.webp1280) <= TARGETS.bigAt1280KB * 1024 && big.sized && big.lazy)}`,
  ];
  process.stdout.write(opts.json ? JSON.stringify({ ...res, figures, targets: TARGETS }, null, 2) + '\n' : lines.join('\n') + '\n');
}

if (opts.floor) await floor(opts.floor);
else {
  try { await main(); } finally { fs.rmSync(TMP, { recursive: true, force: true }); }
}
