// The dev-mode site: a pipeline session (src/pipeline/session.ts) in dev mode — the same stages a build
// runs, kept in memory and updated by what changed — rendered into the in-memory output (output.ts) by
// pass.ts. In: batches of file changes (from the watcher). Out: a report per rebuild (what changed, routes
// re-rendered, problems, ms) and the output the dev server serves.
import path from 'node:path';
import type { AssetManifest, Content, Entry, Message, SiteConfig } from '../core/types.ts';
import { message } from '../core/errors.ts';
import { openSession, type FileChange } from '../pipeline/session.ts';
import { createDevOutput, type DevOutput } from './output.ts';
import { devState, runPass, type PassOptions } from './pass.ts';

export type { FileChange } from '../pipeline/session.ts';

export interface RebuildReport {
  /** The changed files, relative to the root ("content/a.md +2 more"), or "start". */
  what: string;
  rendered: number;
  ms: number;
  /** Every current problem; empty when the site is good. */
  errors: Message[];
  /** What the site's CSP will block in the browser (a committed pass only). */
  warnings?: Message[];
  /** Whether new pages went live (false when there were problems or nothing to do). */
  committed: boolean;
  /** Route paths whose HTML changed ("*": every page). */
  changed: string[];
  /** URLs of static files that changed. */
  assets: string[];
  /** Route paths told ahead of this report, as soon as they were live (ApplyOptions.early). */
  early?: string[];
  /** The start's: entries of the content that are drafts (dev shows them; `sitegen build` leaves them out). */
  drafts?: number;
  /** The site module compiled anew from a change to the config or a file it imports outside templates/ and
   *  content/ (a plugin's code): what the site's server plugins are made from may have changed. */
  configChanged?: boolean;
}

export interface DevSite {
  output: DevOutput;
  /** Site notices from the config (e.g. which backend forms talk to), once the config compiled. */
  notices(): string[];
  /** The site's config (with plugin contributions) once it compiled, for the CLI's server plugins. */
  config(): SiteConfig | null;
  /** The files the site module was compiled from (absolute): what the watcher must see change. */
  inputs(): string[];
  /**
   * Loads the site and renders every page; resolves with the report once all are rendered and the links
   * checked. `servable` is told as soon as the output answers requests (content loaded, routes known):
   * a page asked for before the whole site rendered is rendered then.
   */
  start(opts?: { servable?: () => void }): Promise<RebuildReport>;
  /** Applies a batch of changes; null when none of them feeds the site. A batch waits for the start or
   *  batch before it to end. */
  apply(changes: FileChange[], opts?: ApplyOptions): Promise<RebuildReport | null>;
  /** Bundles the client first when the changes feed it (hot updates); see Session.bundleFirst. */
  bundleFirst(changes: FileChange[]): Promise<AssetManifest | null>;
  /** Resolves when the worker that parses changed content files is ready. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface ApplyOptions {
  /** The route paths open in a browser now: rendered first, and told through `early`. */
  first?: () => ReadonlySet<string>;
  /** Told the open routes whose HTML changed (and that HTML) as soon as they are live, before the rest renders. */
  early?: (paths: string[], html: Record<string, string>) => void;
}

export async function createDevSite(opts: { root: string; env?: NodeJS.ProcessEnv; siteUrl?: string; parseTimeoutMs?: number }): Promise<DevSite> {
  const output = createDevOutput();
  const session = await openSession({ root: opts.root, mode: 'dev', env: opts.env, siteUrl: opts.siteUrl, statics: output.statics, parseTimeoutMs: opts.parseTimeoutMs });
  const state = devState(session, output);

  /** One thing at a time: the start, then each batch in turn (a batch never runs beside a pass). */
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };

  async function rebuild(what: string, t0: number, assets: string[], opts: PassOptions = {}): Promise<RebuildReport> {
    const done = (r: Omit<RebuildReport, 'what' | 'ms' | 'assets'>): RebuildReport => ({ what, ms: Math.round(performance.now() - t0), assets, ...r });
    try {
      const r = await runPass(state, await session.plan(), opts);
      return done({ errors: r.errors, rendered: r.rendered, committed: r.committed, changed: r.changed, warnings: r.warnings, ...(r.early?.length ? { early: r.early } : {}) });
    } catch (e: any) {
      // Throws from the site's code are located messages already (pipeline/siteCall.ts): this is a bug in
      // sitegen. The server stays up with the last good site.
      const m = message('ConfigError', `rebuild failed: ${e?.message ?? e}`, null);
      if (e?.stack) m.notes.push({ text: String(e.stack).split('\n').slice(1, 6).join('\n'), location: null });
      return done({ errors: [m], rendered: 0, committed: false, changed: [] });
    }
  }

  return {
    output,
    notices: () => session.notices().notices,
    config: () => session.site?.config ?? null,
    inputs: () => session.sourceFiles(),

    start: (how = {}) => inTurn(async () => {
      const t0 = performance.now();
      await session.load();
      const first = await rebuild('start', t0, [], { servable: how.servable });
      const drafts = draftCount(session.content);
      // routes() ran on placeholders for bodies not compiled then (content/lazyBody.ts): now that all are, it
      // runs again on the real values, and a route that differs from the one rendered renders again.
      if (!session.takeSpeculated() || !first.committed) return { ...first, drafts };
      const again = await rebuild('start', t0, []);
      const changed = first.changed.includes('*') || again.changed.includes('*') ? ['*'] : [...new Set([...first.changed, ...again.changed])];
      return { ...again, rendered: first.rendered, changed, warnings: again.warnings ?? first.warnings, drafts };
    }),

    apply: (changes, how = {}) => inTurn(async () => {
      const t0 = performance.now();
      const moduleVersion = session.moduleVersion;
      const update = await session.update(changes);
      if (!update) return null;
      const report = await rebuild(update.what, t0, update.assets, { first: how.first?.(), early: how.early });
      if (session.moduleVersion !== moduleVersion) {
        const inputs = new Set(session.sourceFiles());
        report.configChanged = changes.some(({ file }) => {
          const abs = path.resolve(opts.root, file);
          const rel = path.relative(opts.root, abs).split(path.sep).join('/');
          return rel === 'sitegen.config.ts' || (inputs.has(abs) && !/^(templates|content)\//.test(rel));
        });
      }
      return report;
    }),

    bundleFirst: (changes) => session.bundleFirst(changes.map((c) => c.file)),
    ready: () => session.ready(),
    close: () => session.close(),
  };
}

/** The entries of a content that are drafts (`entry.draft`, content/entry.ts). */
function draftCount(content: Content): number {
  let n = 0;
  for (const c of Object.values(content)) for (const e of Array.isArray(c) ? c : [c]) if ((e as Entry | undefined)?.draft) n++;
  return n;
}
