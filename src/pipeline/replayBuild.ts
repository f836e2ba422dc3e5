// replayBuild: the build replay.ts makes possible. The up-to-date check says which Markdown files alone changed
// (their size or mtime) over an output still as the last build left it; each is parsed and validated as the loader
// does, compared with the record (its data, the body fields routes() read), and the routes that show it render
// again from the record, written into the live output as a patch writes. Whatever it cannot answer for sure
// (a parse problem or warning, another field, a page whose links, ids or islands changed) returns null before
// anything is written: the whole build then does it, and says what it says.
import type { BuildResult, Entry, Route } from '../core/types.ts';
import type { UpToDate } from './upToDate.ts';
import { noteReplayed, readReplay, recordReader, replayedFiles } from './replay.ts';
import { cachedSiteModule, importCompiled } from '../site/index.ts';
import { loadBatch } from '../content/load.ts';
import { bodyHolds } from '../content/bodyStore.ts';
import { finishContent } from '../authoring/finish.ts';
import { renderContext, renderRoute } from '../render/page.ts';
import { extractLinks } from './linkScan.ts';
import { markUnknown, readGeneration, recordFiles, writeDelta, writeGeneration, type Entry as PageEntry } from './pageRecord.ts';
import { patchedStamps, stampFrom } from './patchStamps.ts';
import { patchOutput, sameList } from '../output/patch.ts';
import { sha1 } from './stableText.ts';
import { envSame } from './envRecord.ts';
import { closeBodies } from '../content/diskBody.ts';

/** Files replays may have edited since the record was made. */
const MAX_REPLAYED = 256;

/** Replays the edit `memo` found, or null: the caller builds as always. `t0`: when the build began. */
export async function replayEdit(root: string, outDir: string, memo: UpToDate, opts: { drafts?: boolean; onStage?: (stage: string, ms: number, note?: string) => void; env?: NodeJS.ProcessEnv }, t0: number): Promise<BuildResult | null> {
  const edits = await memo.edits();
  const index = edits && readReplay(root);
  if (!edits || !index) return null;
  // The edited files, and those earlier replays edited (their record lines are of their content before them).
  const before = replayedFiles(root);
  if (before.length > MAX_REPLAYED) return null; // (each replay parses them all again: past that, a whole build starts afresh)
  const parsed = [...new Set([...edits.files, ...before])];
  const facts = parsed.map((rel) => index.files[rel]);
  // (a body with a component or an image: what the page links besides its HTML is made elsewhere)
  if (facts.some((f) => !f || f[2])) return null;
  const cached = cachedSiteModule(root);
  if (!cached) return null;
  const site = importCompiled(cached.file, cached.inputs);
  const { config } = site;
  const results = await loadBatch(config, root, parsed.map((rel, i) => ({ collection: facts[i]![0], rel })));
  const entries = new Map<string, Entry>();
  const record = recordReader(root, index, entries);
  let routes: Route[] | null;
  try {
    for (let i = 0; i < results.length; i++) {
      const r = results[i]!, collection = facts[i]![0];
      if (!r.entry || r.errors.length || r.warnings?.length || bodyHolds(r.entry.html ?? '')) return null;
      const finished = finishContent(config, { [collection]: [r.entry] }, { drafts: opts.drafts });
      const e = finished.lists[collection]?.[0];
      if (finished.issues.length || !e || !record.same(e)) return null;
      entries.set(e.file, e);
    }
    // (a warning the last build gave about an edited file may not hold any more)
    if (edits.result.warnings.some((w) => w.location && entries.has(w.location.file))) return null;
    routes = record.routes([...new Set(edits.files.flatMap((rel) => index.files[rel]![1]))].sort((a, b) => a - b));
  } finally { record.close(); }
  const files = recordFiles(root);
  const live = routes && readGeneration(files.live, outDir);
  if (!routes || !live?.files || !live.stamps || !live.dirs || live.env === undefined || !envSame(live.env, opts.env ?? process.env)) return null;
  // No page of the record read a collection (saveReplay): the layout is given none.
  const ctx = renderContext(config, {}, index.siteUrl, index.manifest);
  const pages: { output: string; html: string; entry: Omit<PageEntry, 'stamp'> }[] = [];
  try {
    for (const route of routes) {
      const { page, error } = renderRoute(site, route, ctx, root);
      if (!page || error) return null;
      const links = extractLinks(page.html).concat(page.links ?? []);
      const old = live.entry(route.output);
      // Its links, ids and islands as before: the link check, the CSP warnings and its report stand.
      if (!old || old.reads.length || !sameList(old.islands, page.islands) || !sameList(old.links, links)) return null;
      pages.push({ output: route.output, html: page.html, entry: { key: `replayed:${sha1(page.html)}`, reads: [], islands: page.islands, links } });
    }
  } finally { closeBodies(); }
  // Written as a patch writes (each file beside its place, renamed over it), the record marked unknown meanwhile.
  await markUnknown(files.live, outDir, live);
  const staging = patchOutput(outDir, live.files, () => live.files!);
  for (const p of pages) await staging.write(p.output, p.html);
  await staging.commit();
  const p = patchedStamps(live, { stamps: live.stamps, dirs: live.dirs }, staging.touched, live.files, outDir);
  const changed = new Map<string, PageEntry | null>();
  for (const pg of pages) {
    const stamp = stampFrom(p.change.stamps, outDir, pg.output);
    if (stamp) changed.set(pg.output, { ...pg.entry, stamp });
  }
  if (!await writeDelta(files.live, outDir, live, { entries: changed, ...p.change, env: live.env, targets: live.targets })) {
    const all = new Map<string, PageEntry>();
    for (const o of live.outputs()) { const e = changed.get(o) ?? live.entry(o); if (e) all.set(o, e); }
    await writeGeneration(files.live, outDir, all, { files: live.files, ...p.now, env: live.env, targets: live.targets });
  }
  const ms = Math.round(performance.now() - t0);
  opts.onStage?.('replay', ms, `${pages.length} page${pages.length === 1 ? '' : 's'}`);
  const images = edits.result.images ? { images: { files: edits.result.images.files, processed: 0, cached: edits.result.images.files } } : {};
  const result: BuildResult = Object.assign(edits.result, { rendered: pages.length, ...images, timings: { replay: ms }, cached: ['replay'] }) as BuildResult;
  await noteReplayed(root, edits.files);
  // The up-to-date record: its inputs now, and the stamps of what was written (the whole record otherwise).
  const wrote = new Map<string, [number, number, number]>(), folders = new Map<string, [number, number]>();
  let known = true;
  for (const [f, s] of Object.entries(p.change.stamps)) if (s) wrote.set(f, s); else known = false;
  for (const [d, s] of Object.entries(p.change.dirs)) if (s) folders.set(d, s); else known = false;
  if (!known || !await memo.saveEdited(result, wrote, folders)) await memo.save(result, cached.file, p.now, live.env);
  return result;
}
