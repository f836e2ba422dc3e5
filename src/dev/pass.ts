// One dev rebuild from a session's plan (src/pipeline/session.ts): re-render only the routes whose inputs
// changed since the last good build (props, texts, the collections the render read, the site module, the
// assets they link) through the render stage build and check use (pipeline/render.ts, a memory target):
// the pages open in a browser first, then the rest in the background, each page served as soon as it
// rendered well, and a page asked for before its turn rendered then (DevOutput.ensure). Then check every
// page's links against the plan, and — only when there is no problem at all — commit the pass: the pages'
// records, alias pages, host files and plugin outputs. A pass that fails (a render that throws, a broken link)
// serves the last good pages again, and the problems go to the overlay; a first one takes its pages down (the
// placeholder).
import type { Message, Route } from '../core/types.ts';
import type { AssetManifest } from '../islands/bundle.ts';
import { sortMessages } from '../core/errors.ts';
import { memoryRenderer, memoryTarget, planInput, trackReads, type PageResult } from '../pipeline/render.ts';
import { cspWarnings } from '../pipeline/cspWarnings.ts';
import type { Plan, Session } from '../pipeline/session.ts';
import { emptyLinkCache, linkProblems, type LinkCache } from '../pipeline/links.ts';
import { equalMemo, sameRoute } from '../pipeline/routes.ts';
import { useManifest, type DevOutput } from './output.ts';
import { imageTableKey } from '../output/staticImages.ts';
import { sameList } from '../output/patch.ts';

export interface PageRecord {
  route: Route;
  html: string;
  islands: string[];
  links: string[];
  /** Collections the render read through `content` (the layout's), with their versions then. */
  reads: [string, number][];
  moduleVersion: number;
  manifest: AssetManifest;
  /** The static images (<Image>, image()) as they were when it rendered (staticImages.ts imageTableKey). */
  images: string;
}

interface AliasRecord { to: string; output: string; html: string; moduleVersion: number }

/** What the dev server holds between rebuilds: the last good build, which is what is being served. */
export interface DevState {
  session: Session;
  output: DevOutput;
  pages: Map<string, PageRecord>;
  aliases: Map<string, AliasRecord>;
  /** The alias list and module version the committed alias pages were made from. */
  aliasesFrom: { list: unknown; moduleVersion: number } | null;
  /** The host files the output serves now (their rules are parsed again only when they change). */
  servedHostFiles: Record<string, string | Uint8Array> | null;
  links: LinkCache;
  /** Routes whose open pages were shown a page of a pass that then failed (`early`): the next good pass tells them again. */
  shownAhead: Set<string>;
}

export const devState = (session: Session, output: DevOutput): DevState =>
  ({ session, output, pages: new Map(), aliases: new Map(), aliasesFrom: null, servedHostFiles: null, links: emptyLinkCache(), shownAhead: new Set() });

export interface PassResult {
  errors: Message[];
  /** Routes rendered in this pass. */
  rendered: number;
  /** Route paths whose served HTML changed ("*" when all did); empty when the pass failed. */
  changed: string[];
  committed: boolean;
  /** What the site's CSP will block in the browser (cspWarnings.ts), when the pass committed. */
  warnings?: Message[];
  /** Route paths told through PassOptions.early already (their pages are live). */
  early?: string[];
}


/** Whether a page that uses `islands` links the same asset URLs under both manifests. */
function sameAssets(a: AssetManifest, b: AssetManifest, islands: string[]): boolean {
  if (a === b) return true;
  if (!sameList(a.css, b.css)) return false;
  if (!islands.length) return true;
  if (a.runtime !== b.runtime || !sameList(a.baseChunks, b.baseChunks)) return false;
  return islands.every((n) => sameList(a.islandChunks[n] ?? [], b.islandChunks[n] ?? []) && a.reactIslands.includes(n) === b.reactIslands.includes(n));
}

/** How a pass puts pages live while it renders (start and edits in `sitegen dev`). */
export interface PassOptions {
  /** Route paths to render first (the pages open in a browser): live, and told through `early`, at once. */
  first?: ReadonlySet<string>;
  /** Told the first routes whose HTML changed (and that HTML, by route path), as soon as they are live,
   *  before the rest renders. */
  early?: (paths: string[], html: Record<string, string>) => void;
  /** Start: the output may answer requests before the whole site rendered; told once it does. */
  servable?: () => void;
}

/** Served at a route whose render failed while the pass goes on (the overlay then shows the problem). */
const NOT_RENDERED = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>sitegen dev</title></head>'
  + '<body><main><h1>This page did not render</h1><p>The problem is listed in the terminal and above; this page updates when it is fixed.</p></main></body></html>';

/** Routes rendered between two turns of the event loop in the background: requests are answered between. */
const SLICE = 8;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Between two slices: requests first. While some are being answered (each may take several turns of the
 *  event loop), the background waits for them, up to 50 ms, then goes on. */
async function giveWay(out: DevOutput): Promise<void> {
  await turn();
  for (let waited = 0; out.inflight > 0 && waited < 50; waited += 2) await pause(2);
}

export async function runPass(s: DevState, plan: Plan, opts: PassOptions = {}): Promise<PassResult> {
  const fail = (errors: Message[], rendered = 0): PassResult => ({ errors: sortMessages(errors), rendered, changed: [], committed: false });
  if (!plan.ok) return fail(plan.errors);
  const { routing, manifest, outputs } = plan;
  const { session, output: out } = s;
  const site = session.site!;
  const moduleVersion = session.moduleVersion;
  const { routes, aliases } = routing.table;

  // The routes whose inputs changed since the last good pass; the others keep their page.
  const next = new Map<string, PageRecord | null>();
  const toRender: number[] = [];
  const memo = equalMemo();
  const images = imageTableKey(outputs.images.table); // a static image replaced renders the pages again
  routes.forEach((route, i) => {
    const prev = s.pages.get(route.path);
    const same = prev && prev.moduleVersion === moduleVersion && prev.images === images && sameAssets(prev.manifest, manifest, prev.islands)
      && prev.reads.every(([name, v]) => session.version(name) === v) && sameRoute(prev.route, route, memo);
    next.set(route.path, same ? prev : null); // in route order: the link check and the commit follow it
    if (!same) toRender.push(i);
  });
  // Alias pages depend on their target and the module only; with the same alias list, the last ones stand.
  const aliasesChanged = s.aliasesFrom?.list !== aliases || s.aliasesFrom.moduleVersion !== moduleVersion;
  const sameAlias = (a: { from: string; to: string; output: string }) => {
    const prev = s.aliases.get(a.from);
    return prev && prev.to === a.to && prev.output === a.output && prev.moduleVersion === moduleVersion ? prev : null;
  };
  const toRenderAliases = aliasesChanged ? outputs.aliasPages.flatMap((a, i) => (sameAlias(a) ? [] : [i])) : [];

  // Rendered into memory by the render stage build and check use, recording which collections each reads.
  const tracker = trackReads(session.content);
  const reads = new Map<string, [string, number][]>();
  const files = new Map<string, string>();
  const renderer = memoryRenderer(planInput(session, plan, tracker.proxy), memoryTarget(files), {
    before: () => tracker.reset(),
    after: (route) => reads.set(route.path, [...tracker.reads()].map((name): [string, number] => [name, session.version(name)])),
  });

  // Live: each page goes out as soon as it rendered well, and a request for a page not rendered yet renders
  // it then (out.ensure), so nobody waits for the whole site nor gets a stale page. At start only when the
  // plan is clean (a refused static file keeps the placeholder, as before any good build).
  const fresh = !out.built;
  const live = !plan.deferred?.length && (!fresh || !!opts.servable);
  const results: (PageResult | undefined)[] = new Array(toRender.length);
  const running = new Map<number, Promise<void>>();
  /** Output files that got NOT_RENDERED, which the last good site did not have. */
  const broken = new Set<string>();
  const pending = new Map<string, number>();
  toRender.forEach((i, k) => pending.set(routes[i].output, k));
  const renderAt = (k: number): Promise<void> => {
    if (results[k]) return Promise.resolve();
    let job = running.get(k);
    if (!job) {
      job = (async () => {
        const route = routes[toRender[k]];
        // A route routed on placeholders for bodies gets their HTML first (dev's lazy start, lazyRoutes.ts);
        // a body with a problem is not shown empty: the page is not rendered, the problem is the pass's.
        const [bad] = plan.fill?.(route) ?? [];
        const [r] = bad ? [{ path: route.path, islands: [], links: [], error: bad }] : await renderer.some([toRender[k]]);
        results[k] = r;
        pending.delete(route.output);
        if (r.error) {
          // A route that exists is never a 404: until the pass reports the problem, a page that says so.
          if (live && !out.pages.has(route.output)) { out.pages.set(route.output, { html: NOT_RENDERED, route: route.path }); broken.add(route.output); }
          return;
        }
        const html = files.get(route.output)!;
        next.set(route.path, { route, html, islands: r.islands, links: r.links, reads: reads.get(route.path)!, moduleVersion, manifest, images });
        if (live) out.pages.set(route.output, { html, route: route.path });
      })();
      running.set(k, job);
    }
    return job;
  };
  const ensure = (rel: string) => { const k = pending.get(rel); return k === undefined ? undefined : renderAt(k); };
  const served = { manifest: out.manifest, assets: out.assets }; // (served again by a pass that fails, below)
  if (live) {
    out.ensure = ensure;
    // What the new pages link is served from now on (the last bundle's files stay for pages open before).
    useManifest(out, manifest);
    if (fresh) {
      // The host's rules too, then the output answers: pages render as they are asked for.
      serveHostFiles(s, hostFilesOf(outputs));
      out.built = true;
      opts.servable?.();
    }
  }
  let early: string[] = [];
  try {
    // The pages open in a browser first: they are what the person who saved is looking at.
    const first = opts.first?.size ? toRender.flatMap((i, k) => (opts.first!.has(routes[i].path) ? [k] : [])) : [];
    for (const k of first) await renderAt(k);
    if (live && !fresh && first.length) {
      early = first.map((k) => routes[toRender[k]].path).filter((p) => next.get(p) && s.pages.get(p)?.html !== next.get(p)!.html);
      if (early.length) opts.early?.(early, Object.fromEntries(early.map((p) => [p, next.get(p)!.html])));
    }
    for (let k = 0; k < toRender.length; k++) {
      if (live && k % SLICE === 0) await giveWay(out);
      await renderAt(k);
    }
  } finally {
    if (out.ensure === ensure) out.ensure = undefined;
  }
  const rendered = toRender.length;
  // Bodies left to compile (dev's lazy start) are compiled now, between requests; a problem in one is the
  // pass's problem, as it would have stopped the plan had the bodies been compiled first.
  const late = await session.settle(live ? () => giveWay(out) : undefined);
  const errors: Message[] = late ?? results.flatMap((r) => (r!.error ? [r!.error] : []));
  if (!late) await renderer.aliases(toRenderAliases);
  /** A pass that fails serves the last good site again: each page it made live goes back to the last good
   *  one (a page whose link broke is not served as if it were good), or away when there was none. */
  const failed = (list: Message[]): PassResult => {
    if (live && fresh) { out.pages.clear(); out.built = false; }
    else if (live) {
      for (const [p, rec] of next) {
        const was = s.pages.get(p);
        if (!rec || rec === was || out.pages.get(rec.route.output)?.route !== p) continue;
        out.pages.delete(rec.route.output);
        if (was) out.pages.set(was.route.output, { html: was.html, route: p });
      }
      for (const o of broken) out.pages.delete(o);
      // The last good pages' client bundle again; this pass's stays served beside it (a page shown ahead loads it).
      if (out.assets !== served.assets) Object.assign(out, { previousAssets: out.assets, ...served });
    }
    for (const p of early) s.shownAhead.add(p);
    return { ...fail(list, rendered), early };
  };
  if (errors.length) return failed(errors);
  const pages = next as Map<string, PageRecord>;

  let nextAliases = s.aliases;
  if (aliasesChanged) {
    nextAliases = new Map();
    for (const a of outputs.aliasPages) nextAliases.set(a.from, sameAlias(a) ?? { to: a.to, output: a.output, html: files.get(a.output)!, moduleVersion });
  }

  const links = [...pages.values()].map((p) => ({ page: p.route.path, source: p.route.source, links: p.links }));
  errors.push(...plan.deferred, ...await linkProblems(session.root, links, outputs.targets, s.links, undefined, session.sourceFiles(), false, session.content));
  if (errors.length) return failed(errors);

  const changed = commit(s, pages, nextAliases, hostFilesOf(outputs), manifest);
  // Pages shown ahead by a pass that failed are told the page they have now (told early this time: left out).
  for (const p of s.shownAhead) if (pages.has(p) && !early.includes(p)) changed.push(p);
  s.shownAhead.clear();
  s.aliasesFrom = { list: aliases, moduleVersion };
  // When every page changed (a template, a stylesheet), "*" says so in one word.
  const changedSet = new Set(changed);
  const all = changed.length >= pages.size && [...pages.keys()].every((p) => changedSet.has(p));
  // The session's (the plugins' config hooks, the content's: what html: 'sanitize' removed), then the policy's.
  const warnings = [...session.warnings, ...await cspWarnings(session.root, site.config, session.env, [...pages.values()], session.sourceFiles(), manifest, session.statics.files)];
  return { errors: [], rendered, changed: all ? ['*'] : changed, committed: true, warnings, early };
}

/** Served beside the host files: the plugins' outputs and the fingerprinted static images. */
function hostFilesOf(outputs: Required<Plan>['outputs']): Record<string, string | Uint8Array> {
  // (the plan's host files are made when read: made once here for each plan's, kept while dev serves them)
  let made = madeHostFiles.get(outputs.hostFiles);
  if (!made) madeHostFiles.set(outputs.hostFiles, (made = { ...outputs.hostFiles }));
  const more = [...outputs.images.copies, ...outputs.extra];
  return more.length ? { ...made, ...Object.fromEntries(more) } : made;
}
const madeHostFiles = new WeakMap<object, Record<string, string>>();

/** The host files served (a static file of the same name wins: the output looks there first). */
function serveHostFiles(s: DevState, hostFiles: Record<string, string | Uint8Array>): void {
  if (s.servedHostFiles === hostFiles) return;
  const same = s.servedHostFiles && Object.entries(hostFiles).every(([f, t]) => s.servedHostFiles![f] === t);
  s.servedHostFiles = hostFiles;
  if (!same) s.output.hostFiles = new Map(Object.entries(hostFiles));
}

/** Swaps the new pages into the served output; returns the route paths whose HTML changed. */
function commit(s: DevState, pages: Map<string, PageRecord>, aliases: Map<string, AliasRecord>, hostFiles: Record<string, string | Uint8Array>, manifest: AssetManifest): string[] {
  const out = s.output;
  const changed: string[] = [];
  const sameAliases = aliases === s.aliases;
  // Outputs that moved or went away first, so a new page may take over a freed output file.
  for (const [p, prev] of s.pages) if (pages.get(p)?.route.output !== prev.route.output) { out.pages.delete(prev.route.output); changed.push(p); }
  if (!sameAliases) for (const [p, prev] of s.aliases) if (aliases.get(p)?.output !== prev.output) { out.pages.delete(prev.output); changed.push(p); }
  for (const [p, rec] of pages) {
    const prev = s.pages.get(p);
    if ((prev === rec || prev?.html === rec.html) && out.pages.has(rec.route.output)) continue;
    out.pages.set(rec.route.output, { html: rec.html, route: p });
    changed.push(p);
  }
  if (!sameAliases) for (const [p, rec] of aliases) {
    if (s.aliases.get(p)?.html === rec.html && out.pages.has(rec.output)) continue;
    out.pages.set(rec.output, { html: rec.html, route: p });
    changed.push(p);
  }
  useManifest(out, manifest);
  serveHostFiles(s, hostFiles);
  out.built = true;
  Object.assign(s, { pages, aliases });
  return [...new Set(changed)];
}
