// build: `sitegen build` and `sitegen check` over one pipeline session (src/pipeline/session.ts): the
// session loads config, content, client bundle and static files and plans the output; a build renders the
// plan's pages into a staging folder (on worker threads for big sites), writes the rest of the plan beside
// them, checks every link, and swaps the folder in for dist/ only when nothing went wrong. Check is the same
// build minus the writing: the same session, render and link check, with pages rendered for their links and
// dropped, so it reports every error a build would, in the same words. Returns esbuild-style data; printing
// is the CLI's job.
import type { FileStamp } from '../content/parse.ts';
import path from 'node:path';
import fsp from 'node:fs/promises';
import type { BuildResult, Message, PageReport } from '../core/types.ts';
import { sortMessages } from '../core/errors.ts';
import { saveCodeCaches, vendorFile } from '../site/index.ts';
import type { PageLinks } from './linkScan.ts';
import { stageOutput, writeOther, writeVariants, type Recycling, type Staging } from '../output/write.ts';
import { otherFiles } from './otherFiles.ts';
import { acquireBuildLock } from './buildLock.ts';
import { pageChunks } from '../render/page.ts';
import { configureEngine, engineSettings, type EngineSettings } from '../core/settings.ts';
import { openSession, type Plan, type ReadyPlan, type Session } from './session.ts';
import { linkProblems } from './links.ts';
import { cspWarnings, type PageMarks } from './cspWarnings.ts';
import { ownRedirectWarnings } from './ownRedirects.ts';
import { aliasPagesOf, memoryTarget, planInput, renderChanged, renderPlan, type RenderTarget } from './render.ts';
import { targetsDigest } from './plan.ts';
import { patchOutput } from '../output/patch.ts';
import { buildKey, openIncremental, type Incremental, type Meanwhile, type OutputStamps } from './incremental.ts';
import { currentImageStore, encodeWhileLoading, resetImageStore } from '../images/store.ts';
import { contentVariantPaths, variantLinks } from '../images/variants.ts';
import { encoderPeakRssMB } from '../images/encoder.ts';
import { bigOriginals } from '../images/originals.ts';
import { urlPolicy } from '../render/urls.ts';
import { skippable, upToDate, type UpToDate } from './upToDate.ts';
import { trackEnv, wholeEnv, type EnvRecord } from './envRecord.ts';
import { siteCachePath } from '../cache/registry.ts';
import { keptLister } from '../output/keptListing.ts';
import { pruneCaches } from '../cache/prune.ts';
import { stageTimer } from './stageTimer.ts';
import { routeType } from './routeTable.ts';
import { gzipSize as gzipSizeOf } from '../islands/gzipSizes.ts';
import { endBuildHeap, heapAfter, wholeOutputHeap, withCacheHeap } from '../core/heap.ts';
import { dropReplay, saveReplay } from './replay.ts';
import { replayEdit } from './replayBuild.ts';
import { listenProgress, type ProgressListener, type StageListener } from '../core/progress.ts';

export interface BuildOptions {
  root: string; outDir?: string; siteUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Include draft entries (`sitegen build --drafts`); without it they are left out of every output. */
  drafts?: boolean;
  /** How the build runs (caches, workers, writes); unset fields take the defaults. See src/core/settings.ts. */
  settings?: Partial<EngineSettings>;
  /** Called as each stage ends, for progress output; `note` is e.g. "cached". */
  onStage?: StageListener;
  /** Called as content files are parsed and pages rendered, with how many of how many (core/progress.ts). */
  onProgress?: ProgressListener;
  /** `check` only: type-check the site when it has a tsconfig.json (src/site/typecheck.ts). */
  typecheck?: boolean;
  /** Told once whom the build waits for when another build of the root holds its lock (default: stderr). */
  onWait?: (text: string) => void;
  /** The up-to-date check the caller made already (upToDate.ts probeBuild), with its inputs' stamps. */
  probe?: UpToDate;
}

const emptyResult = (outDir: string): BuildResult => ({ errors: [], warnings: [], pages: 0, aliases: 0, assets: 0, timings: {}, outDir, pageReports: [], notices: [], cached: [] });

/** Loads and plans: the problems, or the plan and the session (closed by the caller). */
async function loadAndPlan(opts: BuildOptions, mode: 'build' | 'check', result: BuildResult, known?: { stamps: ReadonlyMap<string, FileStamp> | null; context: string }): Promise<{ session: Session; plan: Plan }> {
  configureEngine(opts.settings);
  resetImageStore(path.resolve(opts.root)); // each build makes its images anew (from the cache)
  if (mode === 'build') encodeWhileLoading(path.resolve(opts.root), { drafts: !!opts.drafts }); // (as each file is parsed; check makes none)
  const session = await openSession({ root: opts.root, mode, env: opts.env, siteUrl: opts.siteUrl, drafts: opts.drafts, stage: stageTimer(result, opts), known });
  try {
    listenProgress(opts.onProgress ?? null); // (until the build or check ends, thrown or not)
    await session.load();
    result.warnings.push(...session.warnings);
    const plan = await session.plan(); // the load's problems, if any, and the refused static files with them
    result.errors.push(...plan.errors);
    return { session, plan };
  } catch (e) {
    listenProgress(null);
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
    if (plan.ok) {
      result.notices.push(...plan.notices);
      await renderSite(opts, session, plan, result, null, []);
      saveCodeCaches();
    }
  } finally {
    if (session.pool) result.workers = session.pool.stats;
    listenProgress(null);
    await session.close();
  }
  // After the rest, whatever it found: a misspelt prop renders an empty element without any other error.
  if (opts.typecheck) {
    const { typeCheck, besideRenderErrors } = await import('../site/typecheck.ts');
    const checked = await stageTimer(result, opts)('typecheck', async () => typeCheck(session.root, { cache: engineSettings().cache }));
    if (checked && 'skipped' in checked) result.typecheck = checked;
    else if (checked) { result.typecheck = { files: checked.files, ms: checked.ms, ...(checked.tsc !== undefined ? { tsc: checked.tsc } : {}) }; result.errors.push(...besideRenderErrors(checked.errors, result.errors)); }
  }
  return finish(result, t0);
}

export async function build(opts: BuildOptions): Promise<BuildResult> {
  const root = path.resolve(opts.root);
  const outDir = path.resolve(root, opts.outDir ?? 'dist');
  const result = emptyResult(outDir);
  const t0 = performance.now();
  const lock = await acquireBuildLock(root, outDir, opts.onWait); // one build of a root at a time (src/pipeline/buildLock.ts)
  try {
    // Nothing changed since the last build, whose output is still as it wrote it: its result, at once.
    configureEngine(opts.settings);
    const s = engineSettings();
    const memo = !skippable(s) ? null : opts.probe
      ?? await stageTimer(result, opts)('up to date', async () => { const u = await upToDate(root, { outDir, drafts: opts.drafts, siteUrl: opts.siteUrl, env: opts.env ?? process.env }); return Object.assign(u, { hit: !!u.result }); });
    if (memo?.result) return finish({ ...memo.result, timings: result.timings, cached: result.cached }, t0);
    // Only Markdown bodies changed: the pages that show them, without routes() and the rest (replay.ts).
    if (memo && s.replay) {
      // (a replay that fails for a reason of its own leaves the record of the output unknown: the build below stages a whole one)
      const replayed = await replayEdit(root, outDir, memo, opts, t0).catch(() => null);
      if (replayed) return finish(replayed, t0);
    }
    if (s.cache) await dropReplay(root); // (this build's output is not the one the record describes)
    const kept = keptLister(s.cache && !memo?.sameSite ? siteCachePath(root, 'output') : null, 'content'); // (a build that will likely stage a whole output: output/keptListing.ts)
    // Which environment variables the build reads, through the env it hands the site and process.env
    // (the site's code may read either): the memo holds their values, not the whole environment's.
    const env = opts.env ?? process.env, realEnv = process.env, tracked = trackEnv(env);
    const processEnv = env === realEnv ? tracked : trackEnv(realEnv);
    if (memo) process.env = processEnv.proxy;
    try {
      const envKey = memo?.envKey ?? wholeEnv(env);
      const known = memo ? { stamps: memo.contentStamps(), context: `${envKey}\n${new Date().toISOString().slice(0, 10)}` } : undefined;
      // A record of a live output and the content's size (sources.ts) set the heap's growth: a big content grows by 40 % while the build will likely patch dist/, else slowly; a small one keeps V8's own (core/heap.ts).
      const onStage = kept.after(heapAfter('config', !!memo && await isFolder(outDir), opts.onStage));
      const { session, plan } = await loadAndPlan({ ...opts, root, env: tracked.proxy, onStage }, 'build', result, known);
      try {
        // The variables read, when the build could see every read (process.env itself, tracked): else null.
        const envReads = () => (memo && env === realEnv && tracked.reads() && processEnv.reads() ? new Set([...tracked.reads()!, ...processEnv.reads()!]) : null);
        // (the replay's record is written while the output is stamped: incremental.ts save)
        const replay = memo ? (read: Set<string>) => saveReplay(root, session, plan as ReadyPlan, planInput(session, plan as ReadyPlan).setup.manifest, read).catch(() => dropReplay(root).catch(() => {})) : undefined; // (a record not written: no replay)
        const output = plan.ok ? await writePlan(opts, session, plan, result, outDir, { values: env, reads: envReads }, memo?.output, kept.listed(), replay) : null;
        if (memo && output && !result.errors.length && session.site) await memo.save(result, session.site.file, output, output.env);
      } finally {
        if (session.pool) result.workers = session.pool.stats;
        await session.close();
      }
    } finally { process.env = realEnv; }
    return finish(result, t0);
  } finally {
    endBuildHeap();
    // Images started early for a build that stopped: the queued ones dropped, the running ones finished.
    encodeWhileLoading(root, null);
    await currentImageStore(root)?.settle();
    if (engineSettings().debugMemory) { const mb = await encoderPeakRssMB(); if (mb) process.stderr.write(`image encoder: peak RSS ${mb} MB\n`); }
    listenProgress(null);
    await lock.release();
  }
}

/** The result with its errors sorted and grouped (core/errors.ts), and the whole time. */
const finish = (result: BuildResult, t0: number): BuildResult => { result.errors = sortMessages(result.errors); result.timings.total = Math.round(performance.now() - t0); return result; };

/**
 * Renders the plan and makes it the output when nothing went wrong: written into the live output in place when
 * the build caches know it and few pages changed (output/patch.ts), else into a staging folder swapped in.
 */
async function writePlan(opts: BuildOptions, session: Session, plan: ReadyPlan, result: BuildResult, outDir: string, env: { values: NodeJS.ProcessEnv; reads: () => Set<string> | null }, probe?: UpToDate['output'], listed?: Recycling['listed'], meanwhile?: Meanwhile): Promise<(OutputStamps & { env: EnvRecord; read: Set<string> }) | null> {
  result.notices.push(...plan.notices);
  const timed = stageTimer(result, opts);
  const others = otherFiles(session, plan);
  // The output this build replaces is kept in the build state for the next build to write over (write.ts),
  // unless the caches are off: then it is deleted, as a build without state would.
  const { outputs, routing } = plan;
  // The Markdown images' variants, known now (a template's once pages render), read once: for the prune and renderSite.
  let found: string[] | undefined;
  const markdownVariants = () => (found ??= contentVariantPaths(session.content, urlPolicy(session.site!.config).base));
  const planned = () => [...outputs.pageFiles, ...others.flatMap((o) => o.files.map(([f]) => f)), ...markdownVariants().map((p) => p.slice(1))];
  const cache = engineSettings().cache;
  // imageFiles: the variants a template links, known once the pages render; `all`: every file of the output then
  const imageFiles: string[] = []; let all: string[] | undefined; // (one list: a patch's commit, then the record)
  let patch: string[] | null = null; // the live output's files, when the build patches it in place
  const incremental = !cache ? null : await timed('changes', async () => {
    const key = buildKey({ moduleFile: session.site!.file, vendorFile: vendorFile(), manifest: planInput(session, plan).setup.manifest, siteUrl: session.siteUrl() });
    const inc = await openIncremental(session.root, outDir, key, session.content, env.values, await probe);
    // Fewer than patchMax pages render (their HTML waits in memory until the build knows it has no error),
    // counted by keys first (a template edit stops there, before a look at every folder of the output), and
    // the record knows every file of the live output, its folders as recorded: the build patches it in place.
    if (await isFolder(outDir)) {
      inc.at(outDir, true);
      if (inc.fewerThan(engineSettings().patchMax, routing.table.routes, aliasPagesOf(session, plan))) patch = inc.previousFiles();
    }
    return inc;
  });
  let staging: Staging;
  if (patch) staging = patchOutput(outDir, patch, () => (all ??= [...planned(), ...imageFiles]));
  else {
    wholeOutputHeap(); // a whole output renders: no patch's growth (core/heap.ts)
    const recycle = cache ? { dir: siteCachePath(session.root, 'output'), planned: planned(), root: session.root, listed } : undefined;
    staging = await timed('staging', () => stageOutput(outDir, recycle));
    incremental?.at(staging.dir, !staging.fresh);
  }
  try {
    const targets = targetsDigest(routing.shape, session.site!.config, outputs, plan.manifest, session.statics.files);
    await renderSite(opts, session, plan, result, staging, others, markdownVariants, incremental, imageFiles, targets);
    if (result.errors.length) { await staging.abort(); return null; }
    if (staging.inPlace) await incremental!.invalidate(); // a patch that stops half-way is never trusted
    await timed('write', () => staging.commit());
    const stamps = await incremental?.save(all ??= [...planned(), ...imageFiles], staging.touched, env.reads(), targets, meanwhile); // what the output now holds, for the next build
    if (engineSettings().cache) await pruneCaches({ root: session.root, output: outDir }, ['clientStore', 'images', 'imageStore', 'vendor', 'worker']);
    withCacheHeap(saveCodeCaches);
    return stamps ?? null;
  } catch (e) {
    await staging.abort();
    throw e;
  }
}

const isFolder = (dir: string) => fsp.lstat(dir).then((s) => s.isDirectory(), () => false);
/**
 * Renders every page, writes the plan's other files and checks every link. Into `staging` for a build;
 * with none (check), the pages are rendered for their links and reports and nothing is written.
 */
async function renderSite(opts: BuildOptions, session: Session, plan: ReadyPlan, result: BuildResult, staging: Staging | null, others: ReturnType<typeof otherFiles>, markdownVariants?: () => string[], incremental: Incremental | null = null, imageFiles: string[] = [], targets?: string): Promise<void> {
  const timed = stageTimer(result, opts);
  const site = session.site!;
  const { routing, manifest, outputs } = plan;
  const table = routing.table;
  // Counted with the bundle; a bundle cached before the sizes were stored gets each counted here, once.
  const gzip: Record<string, number> = { ...manifest.gzipBytes };
  const gzipSize = (url: string) => (gzip[url.slice(1)] ??= gzipSizeOf(manifest.files.get(url.slice(1)) ?? new Uint8Array()));
  const rawSize = (url: string) => manifest.files.get(url.slice(1))?.length ?? 0;
  const pageLinks: PageLinks[] = [], passed: boolean[] = [], marks: PageMarks[] = []; // passed: kept by a patch (by index)
  // Markdown images start now, on sharp's threads, while this thread renders (images/store.ts).
  const images = currentImageStore(session.root);
  const base = urlPolicy(site.config).base;
  if (images) void images.variants(markdownVariants?.() ?? contentVariantPaths(session.content, base));
  await timed('render', async () => {
    // A patch renders into memory (output/patch.ts writes the pages at commit), a build into its staging folder.
    const target: RenderTarget = !staging ? { kind: 'links' } : staging.inPlace ? memoryTarget((staging as ReturnType<typeof patchOutput>).pending as Map<string, string>) : { kind: 'folder', dir: staging.dir, fresh: staging.fresh };
    // With the build caches: only the pages whose inputs changed since the output being built on
    // (pipeline/incremental.ts), on the workers too; without them, every page.
    const changed = incremental ? await renderChanged(session, plan, target, incremental) : null;
    const pages = changed?.pages ?? await renderPlan(planInput(session, plan), target);
    result.rendered = changed?.rendered ?? pages.length;
    const kept = incremental?.passed(); // (read once the pages rendered)
    pages.forEach((page, i) => {
      const route = table.routes[i];
      if (page.error) { result.errors.push(page.error); return; }
      const links: PageLinks = { page: route.path, source: route.source, links: page.links };
      passed[pageLinks.push(links) - 1] = !!kept?.[i];
      marks.push({ route, links: page.links });
      const js = page.islands.length && manifest.runtime ? [manifest.runtime, ...pageChunks(manifest, page.islands)] : [];
      const report: PageReport = { path: route.path, type: routeType(route), output: route.output, islands: page.islands, jsBytes: js.reduce((s, u) => s + rawSize(u), 0), jsGzipBytes: js.reduce((s, u) => s + gzipSize(u), 0) };
      result.pageReports.push(report);
    });
  });
  result.pages = result.pageReports.length;
  result.aliases = table.aliases.length;
  if (result.errors.length) return;

  // Every image variant a page links, made (or taken from the cache): an image that cannot be published is
  // an error located where it is used, and the build stops before anything is swapped in.
  if (images) {
    const made = await timed('images', async () => images.variants(pageLinks.flatMap((p) => variantLinks(p.links, base)), true));
    result.images = { // (counted over the output's variants: one made early for an entry no page shows is not one)
      files: made.files.length, processed: made.files.filter((f) => f.made).length, cached: made.files.filter((f) => f.cached && !f.made).length };
    if (made.errors.length) { result.errors.push(...made.errors); return; }
    result.warnings.push(...bigOriginals(made.files, (h) => images.source(h), session.statics.files, () => new Set(pageLinks.flatMap((p) => p.links)), base));
    // Read from the build cache as they are written (never all in memory); only ones the last output lacked are written.
    if (staging && made.files.length) {
      const known = new Set(markdownVariants?.() ?? []);
      for (const f of made.files) if (!known.has(`/${f.path}`)) imageFiles.push(f.path);
      const before = images.stats.processed; await timed('image files', () => writeVariants(staging, made.files, (f) => images.bytes(f)));
      result.images.processed += images.stats.processed - before; // with any the store lost meanwhile, made again
    }
  }
  // Written only when the folder does not hold them already (incremental record), or always without it.
  if (staging) for (const o of others) await timed(o.stage, async () => { for (const [f, made] of o.files) await writeOther(staging, f, made, incremental ? (rel, data) => incremental.needs(rel, data) : undefined); });
  result.assets = manifest.files.size + session.statics.files.size + outputs.images.copies.size + (result.images?.files ?? 0);
  await timed('links', async () => {
    result.errors.push(...plan.deferred, ...await linkProblems(session.root, pageLinks, outputs.targets, undefined, passed.includes(true) ? (_p, i) => passed[i] : undefined, session.sourceFiles(), !!targets && targets === incremental?.passedTargets(), session.content));
    result.warnings.push(...await cspWarnings(session.root, site.config, session.env, marks, session.sourceFiles(), manifest, session.statics.files), ...ownRedirectWarnings(session.statics.files, outputs.targets));
  });
}
