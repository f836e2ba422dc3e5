// The dev-mode site: everything a build computes, kept in memory and updated by what changed.
// In: batches of file changes (from the watcher). Out: a report per rebuild (what changed, routes
// re-rendered, problems, ms) and the in-memory output the dev server serves. Each change re-runs only what
// it feeds: a content file re-parses that file; a template or the config recompiles the site module (one
// kept esbuild context) and re-validates the cached content with the new schemas; a stylesheet or island
// re-bundles through a kept esbuild context; a static file is re-read. Then one pass re-renders what differs.
import path from 'node:path';
import fs from 'node:fs/promises';
import type { Message } from '../types.ts';
import { message, fileLocation } from '../errors.ts';
import { createSiteCompiler, type SiteModule } from '../siteModule.ts';
import { createClientBundler, type AssetManifest } from '../bundle.ts';
import { siteDefines, siteUrlOf } from '../build.ts';
import { listFiles } from '../content/glob.ts';
import { outsideRoot, outsideRootError } from '../content/insideRoot.ts';
import { createContentStore, type ChangeKind } from '../content/incremental.ts';
import { createDevOutput, type DevOutput } from './output.ts';
import { runPass, type DevState } from './pass.ts';
import { emptyLinkCache } from './links.ts';
import { applyConfigHooks } from '../plugins.ts';

export interface FileChange { file: string; kind: ChangeKind }

export interface RebuildReport {
  /** The changed files, relative to the root ("content/a.md +2 more"), or "start". */
  what: string;
  rendered: number;
  ms: number;
  /** Every current problem; empty when the site is good. */
  errors: Message[];
  /** Whether new pages went live (false when there were problems or nothing to do). */
  committed: boolean;
  /** Route paths whose HTML changed ("*": every page). */
  changed: string[];
  /** URLs of static files that changed. */
  assets: string[];
}

export interface DevSite {
  output: DevOutput;
  /** Site notices from the config (e.g. which backend forms talk to), once the config compiled. */
  notices(): string[];
  /** The site's config (with plugin contributions) once it compiled, for the CLI's server plugins. */
  config(): import('../types.ts').SiteConfig | null;
  start(): Promise<RebuildReport>;
  /** Applies a batch of changes; null when none of them feeds the site. */
  apply(changes: FileChange[]): Promise<RebuildReport | null>;
  close(): Promise<void>;
}

/** Editor droppings and hidden files never feed a build. */
const ignored = (rel: string) => rel.split('/').some((s) => s.startsWith('.')) || /(~|\.sw[px]|\.tmp|^4913)$/.test(path.basename(rel));

const toPosix = (p: string) => p.split(path.sep).join('/');

export async function createDevSite(opts: { root: string; env?: NodeJS.ProcessEnv; siteUrl?: string }): Promise<DevSite> {
  const root = path.resolve(opts.root);
  const env = opts.env ?? process.env;
  const compiler = await createSiteCompiler(root);
  const bundler = createClientBundler(root);
  const store = await createContentStore(root);
  const output = createDevOutput();
  let site: SiteModule | null = null;
  let manifest: AssetManifest | null = null;
  let moduleErrors: Message[] = [];
  let bundleErrors: Message[] = [];
  let serverInputs = new Set<string>();
  let clientInputs = new Set<string>();
  let moduleVersion = 0;
  // static/ entries refused because their link leads out of the site (as the build refuses them), by path.
  const refusedStatics = new Map<string, Message>();
  let state: DevState | null = null;

  // metafile paths are relative to the working directory; namespaced ones ("sitegen-island:…") are virtual.
  const absInputs = (list: string[]) => new Set(list.filter((f) => !/^[a-z-]+:|^<stdin>$/.test(f)).map((f) => path.resolve(f)));

  async function compile(): Promise<boolean> {
    const r = await compiler.compile();
    if (!r.site) { moduleErrors = r.errors; return false; }
    // Plugins' config hooks, as a build runs them (src/build.ts prepareSite): their errors block like a config error.
    const plugged = await applyConfigHooks(r.site.config, { root, mode: 'dev', env });
    if (plugged.errors.length) { moduleErrors = plugged.errors; return false; }
    site = { ...r.site, config: plugged.config };
    moduleErrors = [];
    moduleVersion++;
    serverInputs = absInputs(Object.keys(r.metafile!.inputs));
    await store.configure(site.config);
    return true;
  }

  async function bundle(): Promise<void> {
    if (!site) return;
    let define: Record<string, string>;
    try { define = siteDefines(site, env); } catch (e: any) {
      bundleErrors = [message('ConfigError', `define() threw: ${e?.message ?? e}`, fileLocation('sitegen.config.ts'))];
      return;
    }
    const r = await bundler.bundle(site.config, { define });
    if (!r.manifest) { bundleErrors = r.errors; return; }
    manifest = r.manifest;
    bundleErrors = [];
    clientInputs = absInputs(r.inputs);
  }

  async function readStatic(rel: string, kind: ChangeKind): Promise<void> {
    refusedStatics.delete(`static/${rel}`);
    if (kind === 'unlink') { output.statics.delete(rel); return; }
    const abs = path.join(root, 'static', rel);
    // A link out of the site (or to a hidden file) is never read: the same guard as the build's static stage.
    const problem = await outsideRoot(root, abs);
    if (problem) { output.statics.delete(rel); refusedStatics.set(`static/${rel}`, outsideRootError(`static/${rel}`, problem)); return; }
    try { output.statics.set(rel, await fs.readFile(abs)); } catch { output.statics.delete(rel); }
  }

  /** Lists static/ with the build's guard: refused links become errors, the rest is read. */
  async function readAllStatics(): Promise<void> {
    const guard = { root, outside: [] as { rel: string; problem: 'outside' | 'hidden' }[] };
    for (const f of await listFiles(path.join(root, 'static'), guard)) await readStatic(f, 'add');
    for (const o of guard.outside) { const rel = o.rel ? `static/${o.rel}` : 'static'; refusedStatics.set(rel, outsideRootError(rel, o.problem)); }
  }

  /** The problems that stop a pass before rendering, in the order a build meets them. */
  function blockingErrors(): Message[] {
    if (moduleErrors.length) return moduleErrors;
    return [...bundleErrors, ...store.errors(), ...refusedStatics.values()];
  }

  async function rebuild(what: string, t0: number, assets: string[]): Promise<RebuildReport> {
    const done = (r: Omit<RebuildReport, 'what' | 'ms' | 'assets'>): RebuildReport => ({ what, ms: Math.round(performance.now() - t0), assets, ...r });
    const blocking = blockingErrors();
    if (blocking.length || !site || !manifest) return done({ errors: blocking, rendered: 0, committed: false, changed: [] });
    if (!state) {
      state = { root, env, siteUrl: '', site, moduleVersion, manifest, content: store.content, collectionVersion: store.version, output, pages: new Map(), aliases: new Map(), routing: null, memo: null, aliasesFrom: null, servedHostFiles: null, links: emptyLinkCache() };
    }
    Object.assign(state, { site, moduleVersion, manifest, content: store.content, siteUrl: siteUrlOf(site.config, env, opts.siteUrl) });
    try {
      const r = await runPass(state);
      return done({ errors: r.errors, rendered: r.rendered, committed: r.committed, changed: r.changed });
    } catch (e: any) {
      // A throw here is a bug in sitegen or a config function misbehaving; either way the server stays up.
      const m = message('ConfigError', `rebuild failed: ${e?.message ?? e}`, null);
      if (e?.stack) m.notes.push({ text: String(e.stack).split('\n').slice(1, 6).join('\n'), location: null });
      return done({ errors: [m], rendered: 0, committed: false, changed: [] });
    }
  }

  return {
    output,
    notices: () => { try { return site?.config.notices?.(env) ?? []; } catch { return []; } },
    config: () => site?.config ?? null,

    async start() {
      const t0 = performance.now();
      await compile();
      await bundle();
      await readAllStatics();
      output.refreshRules();
      return rebuild('start', t0, []);
    },

    async apply(changes) {
      const t0 = performance.now();
      let module = false, client = false;
      const content = new Map<string, ChangeKind>();
      const statics = new Map<string, ChangeKind>();
      const names: string[] = [];
      for (const { file, kind } of changes) {
        const abs = path.resolve(root, file);
        const rel = toPosix(path.relative(root, abs));
        if (rel.startsWith('../') || ignored(rel)) continue;
        let relevant = false;
        if (rel === 'sitegen.config.ts' || serverInputs.has(abs)) module = relevant = true;
        if (clientInputs.has(abs)) client = relevant = true;
        if (rel.startsWith('content/') && /\.(ya?ml|md)$/.test(rel)) { content.set(rel.slice('content/'.length), kind); relevant = true; }
        else if (rel.startsWith('static/')) { statics.set(rel.slice('static/'.length), kind); relevant = true; }
        else if (!relevant) {
          // Code nothing imported yet (templates/, or a schema module under content/): a new or removed file
          // can satisfy or break an import, or add an island; an edit matters only while the last compile or
          // bundle failed, when the failing file's imports are unknown (it may be the fix).
          if (kind !== 'change' || moduleErrors.length) module = relevant = true;
          if (bundleErrors.length) client = relevant = true;
        }
        if (relevant) names.push(rel);
      }
      if (!names.length) return null;
      const what = names.length > 1 ? `${names[0]} +${names.length - 1} more` : names[0];
      for (const [rel, kind] of statics) await readStatic(rel, kind);
      if (statics.size) output.refreshRules();
      if (content.size) await store.update(content);
      // A new config may bring new stylesheets, islands or defines: bundle after every good compile.
      if (module && await compile()) client = true;
      if (client) await bundle();
      return rebuild(what, t0, [...statics.keys()].map((f) => `/${f}`));
    },

    async close() {
      await Promise.all([compiler.dispose(), bundler.dispose()]);
    },
  };
}
