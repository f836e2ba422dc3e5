// build: `sitegen build` and `sitegen check` over one pipeline session (src/pipeline/session.ts): the
// session loads config, content, client bundle and static files and plans the output; a build renders the
// plan's pages into a staging folder (on worker threads for big sites), writes the rest of the plan beside
// them, checks every link, and swaps the folder in for dist/ only when nothing went wrong. Check is the same
// build minus the writing: the same session, render and link check, with pages rendered for their links and
// dropped, so it reports every error a build would, in the same words. Returns esbuild-style data; printing
// is the CLI's job.
import path from 'node:path';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { BuildResult, Message, PageReport } from './types.ts';
import { sortMessages } from './errors.ts';
import { saveCodeCaches, vendorFile } from './siteModule.ts';
import type { PageLinks } from './check.ts';
import { stageOutput, type Staging } from './write.ts';
import { acquireBuildLock } from './buildLock.ts';
import { pageChunks } from './render/page.ts';
import { configureEngine, engineSettings, type EngineSettings } from './settings.ts';
import { openSession, type Plan, type Session, type StageHook } from './pipeline/session.ts';
import { linkProblems } from './pipeline/links.ts';
import { cspWarnings, type PageMarks } from './cspWarnings.ts';
import { planInput, poolRenders, renderPlan, trackReads, type PageResult, type RenderTarget } from './pipeline/render.ts';
import { buildKey, openIncremental, type Incremental } from './pipeline/incremental.ts';
import { contentVariantPaths, currentImageStore, encodeWhileLoading, resetImageStore, variantBytes, variantLinks } from './images/store.ts';
import { encoderPeakRssMB } from './images/encoder.ts';
import { urlPolicy } from './render/urls.ts';

export interface BuildOptions {
  root: string;
  outDir?: string;
  siteUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Include draft entries (`sitegen build --drafts`); without it they are left out of every output. */
  drafts?: boolean;
  /** How the build runs (caches, workers, writes); unset fields take the defaults. See src/settings.ts. */
  settings?: Partial<EngineSettings>;
  /** Called as each stage ends, for progress output; `note` is e.g. "cached". */
  onStage?: (name: string, ms: number, note?: string) => void;
  /** `check` only: type-check the site when it has a tsconfig.json (src/typecheck.ts). */
  typecheck?: boolean;
  /** Told once whom the build waits for when another build of the root holds its lock (default: stderr). */
  onWait?: (text: string) => void;
}

function emptyResult(outDir: string): BuildResult {
  return { errors: [], warnings: [], pages: 0, aliases: 0, assets: 0, timings: {}, outDir, pageReports: [], notices: [], cached: [] };
}

/** Times each stage into the result (a stage run twice adds up); `extraMs` on a value is time spent on its behalf before. */
function stageTimer(result: BuildResult, opts: BuildOptions): StageHook {
  return async (name, fn) => {
    const t = performance.now();
    let value: Awaited<ReturnType<typeof fn>> | undefined;
    try { return value = await fn(); } finally {
      const v = value as { hit?: boolean; extraMs?: number } | undefined;
      const ms = Math.round((performance.now() - t + (v?.extraMs ?? 0) + (result.timings[name] ?? 0)) * 10) / 10;
      result.timings[name] = ms;
      const hit = !!v?.hit;
      if (hit) result.cached.push(name);
      if (engineSettings().debugMemory) { const m = process.memoryUsage(); process.stderr.write(`mem after ${name}: rss ${(m.rss / 1048576).toFixed(0)} MB, heap ${(m.heapUsed / 1048576).toFixed(0)}/${(m.heapTotal / 1048576).toFixed(0)} MB, external ${(m.external / 1048576).toFixed(0)} MB\n`); }
      opts.onStage?.(name, ms, hit ? 'cached' : undefined);
    }
  };
}

/** Loads and plans: the problems, or the plan and the session (closed by the caller). */
async function loadAndPlan(opts: BuildOptions, mode: 'build' | 'check', result: BuildResult): Promise<{ session: Session; plan: Plan }> {
  configureEngine(opts.settings);
  resetImageStore(path.resolve(opts.root)); // each build makes its images anew (from the cache)
  // A build starts a Markdown image's variants as soon as its file is parsed; check makes none.
  if (mode === 'build') encodeWhileLoading(path.resolve(opts.root), { drafts: !!opts.drafts });
  const session = await openSession({ root: opts.root, mode, env: opts.env, siteUrl: opts.siteUrl, drafts: opts.drafts, stage: stageTimer(result, opts) });
  try {
    await session.load();
    result.warnings.push(...session.warnings);
    const plan = await session.plan(); // the load's problems, if any, and the refused static files with them
    result.errors.push(...plan.errors);
    return { session, plan };
  } catch (e) {
    await session.close();
    throw e;
  }
}

/** A build that writes nothing: the same problems as `build`, with dist/ and the build state untouched. */
export async function checkSite(opts: BuildOptions): Promise<BuildResult> {
  const result = emptyResult('');
  const t0 = performance.now();
  const { session, plan } = await loadAndPlan(opts, 'check', result);
  const images = currentImageStore(session.root);
  if (images) images.checkOnly = true; // images are checked, not made: check writes nothing
  try {
    if (!plan.errors.length) {
      result.notices.push(...plan.notices ?? []);
      await renderSite(opts, session, plan, result, null, []);
      saveCodeCaches();
    }
  } finally {
    if (session.pool) result.workers = session.pool.stats;
    await session.close();
  }
  // After the rest, whatever it found: a misspelt prop renders an empty element without any other error.
  if (opts.typecheck) {
    const { typeCheck } = await import('./typecheck.ts');
    const checked = await stageTimer(result, opts)('typecheck', async () => typeCheck(session.root, { cache: engineSettings().cache }));
    if (checked && 'skipped' in checked) result.typecheck = checked;
    else if (checked) { result.typecheck = { files: checked.files, ms: checked.ms }; result.errors.push(...checked.errors); }
  }
  return finish(result, t0);
}

export async function build(opts: BuildOptions): Promise<BuildResult> {
  const root = path.resolve(opts.root);
  const outDir = path.resolve(root, opts.outDir ?? 'dist');
  const result = emptyResult(outDir);
  const t0 = performance.now();
  const lock = await acquireBuildLock(root, outDir, opts.onWait); // one build of a root at a time (src/buildLock.ts)
  try {
    const { session, plan } = await loadAndPlan({ ...opts, root }, 'build', result);
    try {
      if (!plan.errors.length) await writePlan(opts, session, plan, result, outDir);
    } finally {
      if (session.pool) result.workers = session.pool.stats;
      await session.close();
    }
    return finish(result, t0);
  } finally {
    // Images started early for a build that stopped: the queued ones dropped, the running ones finished.
    encodeWhileLoading(root, null);
    await currentImageStore(root)?.settle();
    if (engineSettings().debugMemory) { const mb = await encoderPeakRssMB(); if (mb) process.stderr.write(`image encoder: peak RSS ${mb} MB\n`); }
    await lock.release();
  }
}

function finish(result: BuildResult, t0: number): BuildResult {
  result.errors = sortMessages(result.errors);
  result.timings.total = Math.round(performance.now() - t0);
  return result;
}

/** Renders the plan into a staging folder and swaps it in when nothing went wrong. */
async function writePlan(opts: BuildOptions, session: Session, plan: Plan, result: BuildResult, outDir: string): Promise<void> {
  result.notices.push(...plan.notices ?? []);
  const timed = stageTimer(result, opts);
  const others = otherFiles(session, plan);
  // The output this build replaces is kept in the build state for the next build to write over (write.ts),
  // unless the caches are off: then it is deleted, as a build without state would.
  const { outputs } = plan as Required<Plan>;
  // The Markdown images' variants are known now (a template's only once pages render): kept from the last output.
  // (read once, for the staging folder's prune and for the image store: renderSite)
  let found: string[] | undefined;
  const markdownVariants = () => (found ??= contentVariantPaths(session.content, urlPolicy(session.site!.config).base));
  const planned = () => [...outputs.pageFiles, ...others.flatMap((o) => o.files.map(([f]) => f)), ...markdownVariants().map((p) => p.slice(1))];
  const recycle = engineSettings().cache ? { dir: path.join(session.root, '.sitegen', 'cache', 'output'), planned: planned(), root: session.root } : undefined;
  const staging = await timed('staging', () => stageOutput(outDir, recycle));
  try {
    const incremental = await renderSite(opts, session, plan, result, staging, others, markdownVariants);
    if (result.errors.length) { await staging.abort(); return; }
    await timed('write', () => staging.commit());
    await incremental?.save(); // what the output now holds, for the next build
    saveCodeCaches();
  } catch (e) {
    await staging.abort();
    throw e;
  }
}

/** The output's files besides the pages, by the stage that writes them, in order. */
function otherFiles(session: Session, plan: Plan): { stage: string; files: [string, string | Uint8Array][] }[] {
  const { manifest, outputs } = plan as Required<Plan>;
  const statics = session.statics.files;
  return [
    // Static files, and the fingerprinted copies of static images (output/images.ts).
    { stage: 'static', files: [...statics, ...outputs.images.copies] },
    { stage: 'assets', files: [...manifest.files] },
    // A static file of the same name wins over a generated host file.
    { stage: 'host files', files: Object.entries(outputs.hostFiles).filter(([f]) => !statics.has(f)) },
    // Plugin outputs: a stage of their own only when there are any.
    ...(outputs.extra.size ? [{ stage: 'outputs', files: [...outputs.extra] }] : []),
  ];
}

/**
 * Renders every page, writes the plan's other files and checks every link. Into `staging` for a build;
 * with none (check), the pages are rendered for their links and reports and nothing is written.
 */
async function renderSite(opts: BuildOptions, session: Session, plan: Plan, result: BuildResult, staging: Staging | null, others: ReturnType<typeof otherFiles>, markdownVariants?: () => string[]): Promise<Incremental | null> {
  const timed = stageTimer(result, opts);
  const site = session.site!;
  const { routing, manifest, outputs } = plan as Required<Plan>;
  const table = routing.table;
  const gz = new Map<string, number>();
  const gzipSize = (url: string) => {
    if (!gz.has(url)) gz.set(url, gzipSync(manifest.files.get(url.slice(1)) ?? new Uint8Array()).length);
    return gz.get(url)!;
  };
  const rawSize = (url: string) => manifest.files.get(url.slice(1))?.length ?? 0;
  const pageLinks: PageLinks[] = [];
  const marks: PageMarks[] = [];
  let incremental: Incremental | null = null;
  // Markdown images start now, on sharp's threads, while this thread renders (images/store.ts).
  const images = currentImageStore(session.root);
  const base = urlPolicy(site.config).base;
  if (images) void images.variants(markdownVariants?.() ?? contentVariantPaths(session.content, base));
  await timed('render', async () => {
    const target: RenderTarget = staging ? { kind: 'folder', dir: staging.dir, fresh: staging.fresh } : { kind: 'links' };
    // With the build caches, pages rendered on this thread: only what changed since the kept output
    // (pipeline/incremental.ts); on the workers, or without the caches, every page.
    const pooled = session.pool && poolRenders(session.pool);
    let pages: PageResult[];
    if (staging && engineSettings().cache && !pooled) {
      const links = planInput(session, plan).setup.manifest;
      const key = buildKey({ moduleFile: site.file, vendorFile: vendorFile(), manifest: links, siteUrl: session.siteUrl() });
      incremental = await openIncremental(session.root, result.outDir, staging.dir, key, session.content, !staging.fresh);
      pages = await renderChanged(session, plan, target, incremental);
    } else pages = await renderPlan(planInput(session, plan), target);
    pages.forEach((page, i) => {
      const route = table.routes[i];
      if (page.error) { result.errors.push(page.error); return; }
      pageLinks.push({ page: route.path, source: route.source, links: page.links });
      marks.push({ route, links: page.links });
      const js = page.islands.length && manifest.runtime ? [manifest.runtime, ...pageChunks(manifest, page.islands)] : [];
      const report: PageReport = { path: route.path, type: route.component.displayName || route.component.name || 'Page', output: route.output, islands: page.islands, jsBytes: js.reduce((s, u) => s + rawSize(u), 0), jsGzipBytes: js.reduce((s, u) => s + gzipSize(u), 0) };
      result.pageReports.push(report);
    });
  });
  result.pages = result.pageReports.length;
  result.aliases = table.aliases.length;
  if (result.errors.length) return incremental;

  // Every image variant a page links, made (or taken from the cache): an image that cannot be published is
  // an error located where it is used, and the build stops before anything is swapped in.
  if (images) {
    const made = await timed('images', async () => images.variants(pageLinks.flatMap((p) => variantLinks(p.links, base))));
    result.images = { files: made.files.length, processed: images.stats.processed, cached: images.stats.cached };
    if (made.errors.length) { result.errors.push(...made.errors); return incremental; }
    // Read from the build cache as they are written: never all of them in memory at once.
    // A variant the last output had is the same file (its name is its content): only new ones are written.
    if (staging && made.files.length) {
      // Over a kept output, the variants it has (the same name, the same size) stay: checked with plain
      // stat calls (thousands of promise-wrapped ones cost the main thread more than the calls themselves).
      const size = (file: string) => { try { const st = fs.statSync(file); return st.isFile() ? st.size : -1; } catch { return -1; } };
      const toWrite = staging.fresh ? made.files : made.files.filter((f) => {
        if (!f.file) return true;
        const had = size(path.join(staging.dir, f.path));
        return had < 0 || had !== size(f.file);
      });
      await timed('image files', () => Promise.all(toWrite.map(async (f) => {
        const dest = path.join(staging.dir, f.path);
        // From the build cache: copied by the kernel (a clone where the disk can), never linked, so nothing
        // done to dist/ afterwards can change the cache.
        if (f.cached) {
          await fsp.mkdir(path.dirname(dest), { recursive: true });
          if (await fsp.copyFile(f.file!, dest, fs.constants.COPYFILE_FICLONE).then(() => true, () => false)) return;
        }
        await staging.write(f.path, await variantBytes(f));
      })));
    }
  }
  if (staging) for (const o of others) await timed(o.stage, async () => { for (const [f, data] of o.files) await staging.write(f, data); });
  result.assets = manifest.files.size + session.statics.files.size + outputs.images.copies.size + (result.images?.files ?? 0);
  await timed('links', async () => {
    result.errors.push(...plan.deferred ?? [], ...await linkProblems(session.root, pageLinks, outputs.targets));
    result.warnings.push(...await cspWarnings(session.root, site.config, session.env, marks, session.sourceFiles(), manifest));
  });
  return incremental;
}

/**
 * Renders the routes and alias pages whose staged file is not already what they would render to (see
 * pipeline/incremental.ts), recording what each render read; the results of every route, in route order.
 */
async function renderChanged(session: Session, plan: Plan, target: RenderTarget, inc: Incremental): Promise<PageResult[]> {
  const { routing } = plan as Required<Plan>;
  const { routes, aliases } = routing.table;
  const results: (PageResult | undefined)[] = new Array(routes.length);
  const toRender: number[] = [];
  routes.forEach((route, i) => {
    const kept = inc.reusable(route);
    if (kept) results[i] = { path: route.path, islands: kept.islands, links: kept.links };
    else toRender.push(i);
  });
  const aliasPages = session.site!.config.aliasPages === false ? [] : aliases;
  const aliasesToRender = aliasPages.flatMap((a, i) => (inc.reusableAlias(a) ? [] : [i]));
  const tracker = trackReads(session.content);
  const reads = new Map<string, string[]>();
  const rendered = await renderPlan(planInput(session, plan, tracker.proxy), target, {
    routes: toRender,
    aliases: aliasesToRender,
    observe: { before: () => tracker.reset(), after: (route) => reads.set(route.path, [...tracker.reads()]) },
  });
  for (const [k, r] of rendered.entries()) {
    const route = routes[toRender[k]];
    results[toRender[k]] = r;
    if (!r.error) await inc.rendered(route, reads.get(route.path) ?? [], r);
  }
  for (const i of aliasesToRender) await inc.renderedAlias(aliasPages[i]);
  return results as PageResult[];
}

export type { Message };
