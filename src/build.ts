// build: runs the stages in order — config, content, routes, bundle, render, static, host files, links —
// into a staging folder, then swaps it in. Returns esbuild-style data; printing is the CLI's job. The render,
// host-file and link helpers are exported so dev mode (src/dev/) runs the same stages in memory.
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BuildResult, Content, Message, PageReport, Route, SiteConfig } from './types.ts';
import { message, fileLocation, sortMessages } from './errors.ts';
import { cachedSiteModule, loadSiteModule, saveCodeCaches, type SiteModule } from './siteModule.ts';
import { openContentCache, saveContentCache } from './contentCache.ts';
import { listContentFiles } from './content/glob.ts';
import { routeTable, type RouteTable } from './route.ts';
import { bundleClient, type AssetManifest } from './bundle.ts';
import { checkLinks, makeTargets, type PageLinks } from './check.ts';
import { hostFiles } from './hostfiles.ts';
import { urlPolicy } from './render/urls.ts';
import { readStaticImages } from './output/images.ts';
import { stageOutput } from './write.ts';
import { acquireBuildLock } from './buildLock.ts';
import { hasOutputHooks, pluginOutputs } from './output/pluginOutputs.ts';
import { listFiles } from './content/glob.ts';
import { outsideRootError } from './content/insideRoot.ts';
import { pageChunks, renderContext, renderRoute, type ManifestLinks } from './render/page.ts';
import { maybeStartPool, type Pool } from './parallel/pool.ts';
import { applyConfigHooks } from './plugins.ts';
import { configureEngine, engineSettings, type EngineSettings } from './settings.ts';

// Dev mode (src/dev/) renders through the same helpers.
export { pageChunks, renderContext, renderRoute };

export interface BuildOptions {
  root: string;
  outDir?: string;
  siteUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** How the build runs (caches, workers, writes); unset fields take the defaults. See src/settings.ts. */
  settings?: Partial<EngineSettings>;
  /** Called as each stage ends, for progress output; `note` is e.g. "cached". */
  onStage?: (name: string, ms: number, note?: string) => void;
}

function emptyResult(outDir: string): BuildResult {
  return { errors: [], warnings: [], pages: 0, aliases: 0, assets: 0, timings: {}, outDir, pageReports: [], notices: [], cached: [] };
}

async function timed<T>(result: BuildResult, name: string, opts: BuildOptions, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  let value: T | undefined;
  try { return value = await fn(); } finally {
    const ms = Math.round((performance.now() - t) * 10) / 10;
    result.timings[name] = ms;
    const hit = !!(value as { hit?: boolean } | undefined)?.hit;
    if (hit) result.cached.push(name);
    if (engineSettings().debugMemory) { const m = process.memoryUsage(); process.stderr.write(`mem after ${name}: rss ${(m.rss / 1048576).toFixed(0)} MB, heap ${(m.heapUsed / 1048576).toFixed(0)}/${(m.heapTotal / 1048576).toFixed(0)} MB, external ${(m.external / 1048576).toFixed(0)} MB\n`); }
    opts.onStage?.(name, ms, hit ? 'cached' : undefined);
  }
}

/**
 * Loads config and content and builds the route table: everything `sitegen check` needs, no rendering.
 * With `parallel`, a big site's content is parsed on a pool of worker threads, which the caller then
 * renders with and must close (`pool` in the result; closed here when preparing fails).
 */
export async function prepareSite(opts: BuildOptions, result: BuildResult, parallel = false) {
  const root = path.resolve(opts.root);
  configureEngine(opts.settings);
  // Workers start first, so their start-up overlaps the config stage: they import the cached site module
  // at once, or wait for the one esbuild is compiling.
  const cached = cachedSiteModule(root);
  // Workers pay for parsing; files the content cache answers need none (and a worker's copy of the
  // content would only add memory), so they start for the files the cache cannot answer.
  const tCache = performance.now();
  const cache = await openContentCache(root);
  const cacheMs = performance.now() - tCache;
  let pool: Pool | null = parallel ? maybeStartPool((await listContentFiles(root)).length - (cache?.size ?? 0)) : null;
  try {
    if (cached) pool?.load(cached.file, cached.vendor);
    const mod = await timed(result, 'config', opts, () => loadSiteModule(root, cached));
    if (!mod.site) { result.errors.push(...mod.errors); await pool?.close(); return null; }
    // Plugins' config hooks (defines, CSP, notices, guards), merged into the config the stages below read.
    const plugged = await applyConfigHooks(mod.site.config, { root, mode: parallel ? 'build' : 'check', env: opts.env ?? process.env });
    result.warnings.push(...plugged.warnings);
    if (plugged.errors.length) { result.errors.push(...plugged.errors); await pool?.close(); return null; }
    const site = { ...mod.site, config: plugged.config };
    // A build bundles the client meanwhile: esbuild works in its own process, on the other core, while this
    // thread parses content and computes routes (awaited in the bundle stage).
    const bundling = parallel ? bundleClient(root, site.config, { define: siteDefines(site, opts.env ?? process.env) }) : null;
    bundling?.catch(() => {});
    if (site.file !== cached?.file) pool?.load(site.file, site.vendor);
    const { loadContent, poolLoader } = site.engine;
    const loaded = await timed(result, 'content', opts, async () => {
      const out = await loadContent(root, site.config, pool ? poolLoader(pool, site.config, root) : undefined, cache);
      // "cached" on the stage line when no file had to be parsed
      return Object.assign(out, { hit: !!out.cache && out.cache.entries.size > 0 && !out.cache.changed });
    });
    result.timings.content = Math.round((result.timings.content + cacheMs) * 10) / 10; // reading the cache is part of it
    result.errors.push(...loaded.errors);
    if (loaded.errors.length) { await pool?.close(); return null; }
    // Written while the build goes on; awaited before the build returns.
    const saved = loaded.cache?.changed ? saveContentCache(root, loaded.cache.entries) : Promise.resolve();
    const table = await timed(result, 'routes', opts, async () => routeTable(loaded.content, site.config, root));
    result.errors.push(...table.errors);
    if (table.errors.length) { await Promise.all([pool?.close(), saved]); return null; }
    return { root, site, content: loaded.content, table, pool, saved, bundling };
  } catch (e) {
    await pool?.close();
    throw e;
  }
}

export async function checkSite(opts: BuildOptions): Promise<BuildResult> {
  const result = emptyResult('');
  const t = performance.now();
  const prepared = await prepareSite(opts, result);
  if (prepared) { result.pages = prepared.table.routes.length; result.aliases = prepared.table.aliases.length; await prepared.saved; saveCodeCaches(); }
  result.errors = sortMessages(result.errors);
  result.timings.total = Math.round(performance.now() - t);
  return result;
}

/** The origin for canonical URLs: --site-url, else $SITE_URL, else the config's site.url; no trailing slash. */
export function siteUrlOf(config: SiteConfig, env: NodeJS.ProcessEnv, flag?: string): string {
  return (flag ?? env.SITE_URL ?? config.site.url).replace(/\/$/, '');
}

export function siteDefines(site: SiteModule, env: NodeJS.ProcessEnv): Record<string, string> {
  return site.config.define ? site.config.define(env) : {};
}

export async function build(opts: BuildOptions): Promise<BuildResult> {
  const root = path.resolve(opts.root);
  const outDir = path.resolve(root, opts.outDir ?? 'dist');
  const result = emptyResult(outDir);
  const t0 = performance.now();
  const lock = await acquireBuildLock(root, outDir); // one build of a root at a time (src/buildLock.ts)
  try {
    const prepared = await prepareSite(opts, result, true);
    if (!prepared) return finish(result, t0);
    try {
      return await buildPrepared(opts, prepared, result, outDir, t0);
    } finally {
      if (prepared.pool) result.workers = prepared.pool.stats;
      await Promise.all([prepared.pool?.close(), prepared.saved]);
    }
  } finally {
    await lock.release();
  }
}

async function buildPrepared(opts: BuildOptions, prepared: NonNullable<Awaited<ReturnType<typeof prepareSite>>>, result: BuildResult, outDir: string, t0: number): Promise<BuildResult> {
  const { root, site, content, table, pool } = prepared;
  const env = opts.env ?? process.env;
  const siteUrl = siteUrlOf(site.config, env, opts.siteUrl);
  result.notices.push(...(site.config.notices?.(env) ?? []));

  const bundled = await timed(result, 'bundle', opts, () => prepared.bundling ?? bundleClient(root, site.config, { define: siteDefines(site, env) }));
  if (!bundled.manifest) { result.errors.push(...bundled.errors); return finish(result, t0); }
  const manifest = bundled.manifest;

  const staging = await stageOutput(outDir);
  try {
    await writeSite({ root, site, content, table, manifest, siteUrl, staging, result, opts, pool });
    if (result.errors.length) { await staging.abort(); return finish(result, t0); }
    await timed(result, 'write', opts, () => staging.commit());
    saveCodeCaches();
  } catch (e) {
    await staging.abort();
    throw e;
  }
  return finish(result, t0);
}

function finish(result: BuildResult, t0: number): BuildResult {
  result.errors = sortMessages(result.errors);
  result.timings.total = Math.round(performance.now() - t0);
  return result;
}

interface WriteSiteArgs {
  root: string;
  site: SiteModule;
  content: any;
  table: ReturnType<typeof routeTable>;
  manifest: AssetManifest;
  siteUrl: string;
  staging: Awaited<ReturnType<typeof stageOutput>>;
  result: BuildResult;
  opts: BuildOptions;
  pool: Pool | null;
}

async function writeSite(a: WriteSiteArgs): Promise<void> {
  const { root, site, content, table, manifest, siteUrl, staging, result, opts } = a;
  const gz = new Map<string, number>();
  const gzipSize = (url: string) => {
    if (!gz.has(url)) gz.set(url, gzipSync(manifest.files.get(url.slice(1)) ?? new Uint8Array()).length);
    return gz.get(url)!;
  };
  const rawSize = (url: string) => manifest.files.get(url.slice(1))?.length ?? 0;
  const pageLinks: PageLinks[] = [];
  // Static images' sizes (and hashed copies) before rendering: templates read them with image().
  const images = await readStaticImages(root, !!site.config.images?.fingerprint);
  await timed(result, 'render', opts, async () => {
    // Only the links of the manifest go to workers; the asset bytes stay here.
    const links: ManifestLinks = { css: manifest.css, runtime: manifest.runtime, baseChunks: manifest.baseChunks, islandChunks: manifest.islandChunks, reactIslands: manifest.reactIslands, images: images.table };
    const pages = await site.engine.renderPages({ site, table, setup: { root, content, siteUrl, manifest: links }, outDir: staging.dir, pool: a.pool });
    pages.forEach((page, i) => {
      const route = table.routes[i];
      if (page.error) { result.errors.push(page.error); return; }
      pageLinks.push({ page: route.path, source: route.source, links: page.links });
      const js = page.islands.length && manifest.runtime ? [manifest.runtime, ...pageChunks(manifest, page.islands)] : [];
      const report: PageReport = { path: route.path, type: route.component.displayName || route.component.name || 'Page', output: route.output, islands: page.islands, jsBytes: js.reduce((s, u) => s + rawSize(u), 0), jsGzipBytes: js.reduce((s, u) => s + gzipSize(u), 0) };
      result.pageReports.push(report);
    });
  });
  result.pages = result.pageReports.length;
  result.aliases = table.aliases.length;
  if (result.errors.length) return;

  const outputs = new Set<string>([...table.routes.map((r) => r.output), ...aliasPagesOf(table, site.config).map((x) => x.output)]);
  const staticFiles = await timed(result, 'static', opts, async () => {
    const dir = path.join(root, 'static');
    const guard = { root, outside: [] as { rel: string; problem: 'outside' | 'hidden' }[] };
    const files = await listFiles(dir, guard); // links out of the site are refused, never read
    result.errors.push(...guard.outside.map((o) => outsideRootError(o.rel ? `static/${o.rel}` : 'static', o.problem)));
    for (const f of files) {
      if (outputs.has(f) || manifest.files.has(f)) { result.errors.push(message('StaticConflict', `static/${f} would overwrite a generated file`, fileLocation(`static/${f}`))); continue; }
      await staging.write(f, await fs.readFile(path.join(dir, f)));
    }
    for (const [f, bytes] of images.copies) await staging.write(f, bytes); // fingerprinted images (output/images.ts)
    return [...files, ...images.copies.keys()];
  });
  await timed(result, 'assets', opts, async () => {
    for (const [rel, bytes] of manifest.files) await staging.write(rel, bytes);
  });
  result.assets = manifest.files.size + staticFiles.length;

  const hostFiles = await timed(result, 'host files', opts, async () => {
    const files = hostFileTexts(table, site.config, siteUrl, opts.env ?? process.env);
    for (const [f, text] of Object.entries(files)) if (!staticFiles.includes(f)) await staging.write(f, text);
    return Object.keys(files);
  });

  // Files the site's plugins add (feeds, JSON): after the host files, which a plugin may not replace.
  const extraFiles: string[] = [];
  if (hasOutputHooks(site.config.plugins)) {
    await timed(result, 'outputs', opts, async () => {
      const staticSet = new Set(staticFiles);
      const taken = (f: string) => outputs.has(f) ? 'a page' : manifest.files.has(f) ? 'an asset' : staticSet.has(f) ? `static/${f}` : hostFiles.includes(f) ? 'the host files' : null;
      const env = opts.env ?? process.env;
      const extra = await pluginOutputs(site.config.plugins, { root, mode: 'build', env, routes: table.routes, content, site: site.config.site, siteUrl }, taken);
      result.errors.push(...extra.errors);
      for (const [f, data] of extra.files) { await staging.write(f, data); extraFiles.push(f); }
    });
  }

  await timed(result, 'links', opts, async () => {
    const targets = makeTargets(
      [...table.routes.map((r) => r.path), ...table.aliases.map((x) => x.from)],
      [...outputs, ...staticFiles, ...manifest.files.keys(), ...hostFiles, ...extraFiles],
      urlPolicy(site.config).base,
    );
    result.errors.push(...await locateLinks(root, checkLinks(pageLinks, targets)));
  });
}

/** The aliases that get a meta-refresh page: all of them, unless the config says `aliasPages: false`. */
export function aliasPagesOf(table: Pick<RouteTable, 'aliases'>, config: SiteConfig): RouteTable['aliases'] {
  return config.aliasPages === false ? [] : table.aliases;
}

/** The files static hosts read, generated from the route table and the config (src/hostfiles.ts). */
export function hostFileTexts(table: Pick<RouteTable, 'routes' | 'aliases'>, config: SiteConfig, siteUrl: string, env: NodeJS.ProcessEnv): Record<string, string> {
  return hostFiles(table, config, siteUrl, env);
}

/** Points a broken-link error at the first line of its source file that contains the link. */
export async function locateLinks(root: string, errors: Message[]): Promise<Message[]> {
  const texts = new Map<string, string[]>();
  for (const m of errors) {
    const file = m.location?.file;
    const link = m.text.match(/links to (\S+),/)?.[1];
    if (!file || !link) continue;
    if (!texts.has(file)) texts.set(file, (await fs.readFile(path.join(root, file), 'utf8').catch(() => '')).split('\n'));
    const lines = texts.get(file)!;
    const i = lines.findIndex((l) => l.includes(`(${link})`) || l.includes(`"${link}"`) || l.includes(` ${link}`));
    if (i >= 0) m.location = fileLocation(file, i + 1, lines[i].indexOf(link) + 1, lines[i]);
  }
  return errors;
}

export type { Message };
