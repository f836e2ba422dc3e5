// The pipeline: one session per command run, owning the site module, the content, the client manifest and
// the static files. `load()` compiles and loads them all, `update(changes)` (dev) re-runs only what the
// changed files feed, and `plan()` gives what the output holds: routes, aliases, alias pages, host files,
// plugin outputs, link targets — or the problems that stop it. `sitegen build` renders a plan into a folder
// (src/pipeline/build.ts), `sitegen check` renders it the same way and writes nothing, `sitegen dev` renders it into
// memory (src/dev/). Build and check load exactly the same inputs (check differs only in the mode the
// plugins are told). The inputs come one-shot (build caches, workers) or incremental (dev): see sources.ts.
import type { FileStamp } from '../content/parse.ts';
import path from 'node:path';
import type { Content, Message, Route } from '../core/types.ts';
import type { AssetManifest } from '../islands/bundle.ts';
import { siteUrlFrom, type SiteModule } from '../site/index.ts';
import type { Pool } from '../parallel/pool.ts';
import type { ChangeKind } from '../content/liveContent.ts';
import { applyConfigHooks, type Mode } from '../site/plugins.ts';
import { routeContent, type Routing } from './routes.ts';
import { cspCallProblems, planOutputs, type OutputPlan, type PlanMemo } from './plan.ts';
import { createStaticFiles, type StaticFiles } from './statics.ts';
import { incrementalSources, oneShotSources, type Sources } from './sources.ts';
import { classifyChanges, type FileChange } from './changes.ts';
import { siteCall } from './siteCall.ts';
import { helperIssueMessages } from '../content/crossFile.ts';
import { fillHoles } from '../content/lazyBody.ts';
import { lazyRouting } from './lazyRoutes.ts';
import { hasOutputHooks } from '../output/pluginOutputs.ts';

export type { FileChange } from './changes.ts';

/** Runs one named stage (the build times them and prints a line each); the value's `hit` says "cached". */
export type StageHook = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

export interface SessionOptions {
  root: string;
  mode: Extract<Mode, 'build' | 'check' | 'dev'>;
  env?: NodeJS.ProcessEnv;
  /** --site-url */
  siteUrl?: string;
  stage?: StageHook;
  /** The map the static files are kept in (dev: the in-memory output's, so it serves them). */
  statics?: Map<string, Uint8Array>;
  /** Keep draft entries (`--drafts`); dev always keeps them. */
  drafts?: boolean;
  /** Dev: how long a changed content file may take to parse (on its worker thread) before it is stopped. */
  parseTimeoutMs?: number;
  /** Build, for the content cache: each content file's stamp taken just before (upToDate.ts); `context`: what a schema reads besides the data. */
  known?: { stamps: ReadonlyMap<string, FileStamp> | null; context: string };
}

/** A plan (`ok`), or the problems that stop one. */
export type Plan = ReadyPlan | FailedPlan;

/** Everything the outputs are made from. */
export interface ReadyPlan {
  ok: true;
  errors: [];
  /** Problems that do not stop rendering but do stop the output from going live (refused static files),
   *  reported with the link check's, as a build always reported them. */
  deferred: Message[];
  /** The config's notices, for the command to print. */
  notices: string[];
  routing: Routing;
  manifest: AssetManifest;
  outputs: OutputPlan;
  /** Dev's lazy start: puts bodies' HTML where a route holds their placeholders (lazyRoutes.ts), before it
   *  renders; the problems of those bodies. */
  fill?: (route: Route) => Message[];
}

/** The problems that stop a plan (the refused static files among them); nothing to render. */
export interface FailedPlan {
  ok: false;
  errors: Message[];
  routing?: undefined;
  manifest?: undefined;
  outputs?: undefined;
}

export interface Update {
  /** The changed files, relative to the root ("content/a.md +2 more"). */
  what: string;
  /** URLs of static files that changed. */
  assets: string[];
}

export interface Session {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly site: SiteModule | null;
  readonly content: Content;
  readonly statics: StaticFiles;
  /** Rises with every good compile of the site module. */
  readonly moduleVersion: number;
  /** Rises whenever collection `name`'s value changes (dev). */
  version(name: string): number;
  /** The origin for canonical URLs. */
  siteUrl(): string;
  /** The build's worker pool, when it has one (the render stage uses it, then closes it). */
  readonly pool: Pool | null;
  /** Warnings of the plugins' config hooks. */
  readonly warnings: Message[];
  /** The files the site module was compiled from (absolute), for messages that point into templates. */
  sourceFiles(): string[];
  /** The config's notices (which backend forms talk to, …); a throw is a located problem. */
  notices(): { notices: string[]; errors: Message[] };
  load(): Promise<Message[]>;
  /** Applies a batch of file changes; null when none of them feeds the site. */
  update(changes: FileChange[]): Promise<Update | null>;
  /**
   * Dev: when changed files feed the client bundle, bundles it now, before update() compiles and renders,
   * and returns the new manifest (null otherwise, or when it fails: update() reports that). Open pages
   * can apply a stylesheet or island edit from it at once; update() then finds the bundle done.
   */
  bundleFirst(files: string[]): Promise<AssetManifest | null>;
  plan(): Promise<Plan>;
  /** Dev's lazy start: compiles the Markdown bodies left (pausing between a few) and runs the checks that read
   *  them; the content's problems when there are some now, else null. */
  settle(pause?: () => Promise<void>): Promise<Message[] | null>;
  /** Whether a plan since the last call routed on placeholders for bodies (then plan again once settled). */
  takeSpeculated(): boolean;
  /** Resolves when what the session started in the background (dev: the content parse worker) is ready. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export async function openSession(opts: SessionOptions): Promise<Session> {
  const root = path.resolve(opts.root);
  const env = opts.env ?? process.env;
  const mode = opts.mode;
  const stage: StageHook = opts.stage ?? ((_name, fn) => fn());
  const sources: Sources = mode === 'dev' ? await incrementalSources(root, { parseTimeoutMs: opts.parseTimeoutMs }) : await oneShotSources(root, { drafts: !!opts.drafts, known: opts.known, writes: mode === 'build' });
  const statics = createStaticFiles(root, opts.statics);
  const warnings: Message[] = []; let ownWarnings = 0; // the plugins' (from compile), then the content's (load, update)
  let site: SiteModule | null = null;
  let content: Content = {};
  let manifest: AssetManifest | null = null;
  let moduleErrors: Message[] = [], contentErrors: Message[] = [], bundleErrors: Message[] = [];
  let bundling: Promise<{ hit?: boolean }> | null = null;
  /** bundleFirst bundled the batch update() applies next. */
  let bundledFirst = false;
  let serverInputs = new Set<string>(), clientInputs = new Set<string>();
  let moduleVersion = 0;
  let siteUrl = ''; // the last good config's, checked when it compiled (site/configSchema.ts siteUrlFrom)
  let routing: Routing | null = null;
  let speculated = false;
  const memo: { current: PlanMemo } = { current: null };

  // Site module inputs are relative to the working directory (the client's come absolute); "x:…" ones are virtual.
  const absInputs = (list: string[] = []) => new Set(list.filter((f) => !/^[a-z-]+:|^<stdin>$/.test(f)).map((f) => path.resolve(f)));

  /** Compiles the site module, runs the plugins' config hooks and loads the content for the new config. */
  async function compile(filesMoved = false): Promise<boolean> {
    const r = await stage('config', () => sources.module.compile({ filesMoved }));
    if (!r.site) { moduleErrors = r.errors; return false; }
    // The plugins' config hooks: their errors block like a config error.
    const plugged = await applyConfigHooks(r.site.config, { root, mode, env });
    const checked = plugged.errors.length ? null : siteUrlFrom(root, plugged.config, env, opts.siteUrl);
    if (!checked || checked.problem) { moduleErrors = checked?.problem ? [checked.problem] : plugged.errors; return false; }
    warnings.splice(0, warnings.length, ...plugged.warnings); ownWarnings = plugged.warnings.length;
    site = { ...r.site, config: plugged.config };
    siteUrl = checked.url;
    moduleErrors = [];
    moduleVersion++;
    serverInputs = absInputs(r.inputs);
    // The client is bundled meanwhile (define() runs first): esbuild works in its own process, on the other
    // core, while this thread parses content and computes routes (awaited in the bundle stage of plan()).
    startBundle();
    const loaded = await stage('content', () => sources.content.load(site!));
    content = loaded.content;
    contentErrors = loaded.errors; warnings.splice(ownWarnings, Infinity, ...loaded.warnings ?? []);
    return true;
  }

  function startBundle(): void {
    const s = site!;
    bundling = (async () => {
      const defined = siteCall(root, 'define() threw', () => s.config.define ? s.config.define(env) : {});
      if (defined.error) { bundleErrors = [defined.error]; return {}; }
      const r = await sources.client.bundle(s.config, defined.value);
      if (!r.manifest) { bundleErrors = r.errors; return {}; }
      manifest = r.manifest;
      bundleErrors = [];
      clientInputs = absInputs(r.inputs);
      return { hit: r.hit };
    })();
    bundling.catch(() => {}); // a failed bundle is reported through bundleErrors
  }

  /** The problems that stop a plan before routing, in the order a build meets them. */
  function inputProblems(): Message[] {
    if (moduleErrors.length) return moduleErrors;
    return [...bundleErrors, ...contentErrors];
  }

  const session: Session = {
    root, env,
    get site() { return site; },
    get content() { return content; },
    get moduleVersion() { return moduleVersion; },
    get pool() { return sources.pool; },
    statics, warnings,
    sourceFiles: () => (site ? [...absInputs(site.inputs)] : []),
    version: (name) => sources.content.version(name),
    siteUrl: () => siteUrl,
    notices() {
      const r = siteCall(root, 'notices() threw', () => site?.config.notices?.(env) ?? []);
      return r.error ? { notices: [], errors: [r.error] } : { notices: r.value, errors: [] };
    },

    async load() {
      await compile();
      await statics.readAll();
      // Dev waits for the bundle here; a build goes on routing meanwhile (plan() awaits it).
      if (mode === 'dev') await bundling;
      return inputProblems();
    },

    async update(changes) {
      const c = classifyChanges(root, changes, { serverInputs, clientInputs, moduleFailed: moduleErrors.length > 0, bundleFailed: bundleErrors.length > 0 });
      if (!c) return null;
      for (const [rel, kind] of c.statics) await statics.apply(rel, kind);
      if ((c.content.size || c.images.size) && sources.content.update) {
        const r = await sources.content.update(c.content as Map<string, ChangeKind>, c.images);
        content = r.content;
        contentErrors = r.errors; warnings.splice(ownWarnings, Infinity, ...r.warnings ?? []);
      }
      // A good compile re-bundles too: a new config may bring new stylesheets, islands or defines.
      // A bundle made by bundleFirst for this batch stands: a file saved since is the next batch's.
      const bundled = bundledFirst;
      bundledFirst = false;
      if (!(c.module && await compile(changes.some((f) => f.kind !== 'change'))) && c.client && site && !bundled) startBundle();
      await bundling;
      return { what: c.what, assets: [...c.statics.keys()].map((f) => `/${f}`) };
    },

    async bundleFirst(files) {
      if (mode !== 'dev' || !site || moduleErrors.length || !files.some((f) => clientInputs.has(path.resolve(f)))) return null;
      startBundle();
      bundledFirst = true;
      await bundling;
      return bundleErrors.length ? null : manifest;
    },

    async plan() {
      const planned = await makePlan();
      // With bodies left to compile, a problem in one of them comes first, as in a build (content before routes).
      const late = !planned.ok && sources.content.pending?.() ? await settleContent() : null;
      return late ? { ok: false, errors: [...late, ...statics.refused.values()] } : planned;
    },

    settle: (pause) => settleContent(pause),
    takeSpeculated() { const was = speculated; speculated = false; return was; },

    ready: async () => { await sources.content.ready?.(); },
    async close() {
      await Promise.all([sources.module.dispose(), sources.client.dispose(), sources.content.close()]);
    },
  };

  async function settleContent(pause?: () => Promise<void>): Promise<Message[] | null> {
    const r = await sources.content.settle?.(pause);
    if (r) { ({ content, errors: contentErrors } = r); warnings.splice(ownWarnings, Infinity, ...r.warnings ?? []); }
    return r && contentErrors.length ? contentErrors : null;
  }

  async function makePlan(): Promise<Plan> {
    const refused = [...statics.refused.values()];
    const fail = async (errors: Message[]): Promise<FailedPlan> => { // after the bundle: nothing writes once it returns
      await bundling?.catch(() => {});
      return { ok: false, errors: [...errors, ...refused] };
    };
    if (!site || inputProblems().length) return fail(inputProblems());
    const s: SiteModule = site;
    const route = () => siteCall(root, 'routes() returned something routeTable cannot use', () => routeContent(content, s.config, root, routing, mode === 'build'));
    // Dev's lazy start routes on placeholders for bodies (lazyRoutes.ts), unless plugins read the routes.
    const lazy = sources.content.pending?.() && !hasOutputHooks(s.config.plugins);
    const r = lazy ? await stage('routes', () => lazyRouting(route, settleContent)) : { routed: await stage('routes', async () => route()), holes: null };
    if ('errors' in r) return fail(r.errors);
    const { routed, holes } = r;
    if (holes?.size) speculated = true;
    if (routed.error) return fail([routed.error]);
    if (routed.value.table.issues) return fail(await helperIssueMessages(root, routed.value.table.issues));
    if (routed.value.table.errors.length) return fail(routed.value.table.errors);
    routing = mode === 'dev' ? routed.value : { defs: [], table: routed.value.table, shape: routed.value.shape, bodyReads: routed.value.bodyReads }; // dev's next plan needs the defs
    if (bundling) await stage('bundle', () => bundling!);
    if (bundleErrors.length || !manifest) return fail(bundleErrors);
    const input = { root, mode, env, config: s.config, siteUrl, table: routing.table, content, manifest, statics: statics.files, moduleVersion };
    const badCsp = cspCallProblems(root, s.config, env);
    if (badCsp.length) return fail(badCsp);
    const outputs = await planOutputs(input, memo);
    if (outputs.errors.length) return fail(outputs.errors);
    const noticed = session.notices();
    if (noticed.errors.length) return fail(noticed.errors);
    const fill = holes?.size ? (r: Route) => fillHoles(holes!.get(r)) : undefined;
    return { ok: true, errors: [], deferred: [...refused, ...outputs.deferred], notices: noticed.notices, routing, manifest, outputs, ...(fill ? { fill } : {}) };
  }
  return session;
}
