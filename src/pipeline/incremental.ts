// incremental: what a build may leave as it is. A build either patches the output in place (few pages
// changed: build.ts) or stages in the output the build before the last one wrote (write.ts stageOutput);
// this module remembers, for each file of the last two outputs, what it was made from — for a page: the
// site module, the asset links, the origin (one key), the route itself, and each collection its render
// read; for any other file (static, assets, host files, plugin outputs): a hash of its bytes — with the
// file's stamp (size, mtime, inode), and the list of every file the output holds. A file whose stamp in the
// folder being built is still the recorded one, and whose inputs are all the same now, is neither rendered
// nor written. Any input that cannot be told apart for sure (a function or a cycle in a route's props or in
// a collection) makes its pages render every time. The record is written only after a build's output went
// live, and is marked unknown before an output is patched.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Alias, Content, Route } from '../core/types.ts';
import type { ManifestLinks } from '../render/page.ts';
import { markUnknown, moveRecord, readGeneration, recordFiles, removeRecord, writeDelta, writeGeneration, type Entry, type Generation, type OutputStamps, type RecordFile, type Stamp } from './pageRecord.ts';
import { sha1, stable, Unknown, type StableMemo } from './stableText.ts';
import { envRecordOf, envSame, type EnvRecord } from './envRecord.ts';
import { below, changeOf, fileStamp, lstatOrNull, patchedStamps, stampFrom, stampOutput } from './patchStamps.ts';
import type { OutputProbe } from './outputProbe.ts';
import { exportNames } from '../site/exportRegistry.ts';
import { BodyRoute } from './routeTable.ts';

export type { OutputStamps };

/** A route's data: everything but its component and body, which the site module's key covers by name. */
const NOT_DATA: ReadonlySet<string> = new Set(['component', 'body']);
/** `named`: the site's exports by their names (site/exportRegistry.ts). A component that is none of them (a function
 *  made in routes(), which may hold an entry it shows) is a state no text shows: Unknown, so its page always renders. */
function routeText(route: Route, memo: StableMemo, named: Map<unknown, string>): string {
  const { component, body } = route;
  const name = component === BodyRoute ? '' : named.get(component);
  if (name === undefined) throw new Unknown();
  // (the route's fields in place, as a copy without those two would read: no copy of each of 10,000 routes)
  return `${name}|${body ? 'body' : ''}|${stable(route, NOT_DATA, memo)}`;
}

const sameStamp = (a: Stamp, b: Stamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

export interface BuildKeyInput {
  /** The compiled site module's file (its bytes are the config and templates). */
  moduleFile: string;
  /** The vendor bundle the engine and the module take their packages from (React's renderer among them). */
  vendorFile?: string;
  manifest: ManifestLinks;
  siteUrl: string;
}

/**
 * The running engine's own code: the files beside this one (the CLI bundle's folder, lib/, or this source
 * folder), by size and mtime. The renderer is not in the site module, so another version of sitegen, or an
 * edited engine, renders every page again.
 */
let engineStampMemo: string | undefined;
export function engineStamp(): string {
  if (engineStampMemo !== undefined) return engineStampMemo;
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const files = fs.readdirSync(dir).filter((f) => /\.(?:[cm]?js|tsx?)$/.test(f)).sort();
  return (engineStampMemo = files.map((f) => { const st = fs.statSync(path.join(dir, f)); return `${f}:${st.size}:${st.mtimeMs}`; }).join('\n'));
}

/** What every page depends on besides its route and the collections it reads. */
export function buildKey(k: BuildKeyInput): string | null {
  try {
    // The engine runs from its sources (tests) without a vendor bundle: then nothing to stamp.
    const vendor = k.vendorFile && fs.existsSync(k.vendorFile) ? fs.statSync(k.vendorFile) : null;
    // A route's own policy (cspMeta) is in its page's key, with the route's `csp`: here it would be every page's.
    const manifest = k.manifest.cspMeta?.routes ? { ...k.manifest, cspMeta: { site: k.manifest.cspMeta.site } } : k.manifest;
    return sha1([sha1(fs.readFileSync(k.moduleFile, 'latin1')), k.vendorFile ?? '', vendor ? `${vendor.size}:${vendor.mtimeMs}` : '', engineStamp(), stable(manifest), k.siteUrl, process.version].join('\n'));
  } catch {
    return null;
  }
}

export interface Changes {
  /** Indices of the routes and alias pages to render. */
  routes: number[];
  aliases: number[];
  /** For each route: its kept entry (islands and links of its page), or null when it renders. */
  kept: (Entry | null)[];
}

export interface Incremental {
  /** Points the checks at `dir`, the folder being built (dist/ or the staging folder); reuse false: nothing kept. */
  at(dir: string, reuse: boolean): void;
  /** Which routes and alias pages must render into the folder `at` names (the answer is kept until `at`). */
  changes(routes: Route[], aliases: Alias[]): Changes;
  /** Whether fewer than `limit` routes and alias pages must render (the answer then kept, as by `changes`);
   *  it stops looking at the limit, and then keeps nothing (a template edit: every page renders). */
  fewerThan(limit: number, routes: Route[], aliases: Alias[]): boolean;
  /** Remembers a page just rendered (its reads as recorded by the render). */
  rendered(route: Route, reads: string[], result: { islands: string[]; links: string[] }): void;
  renderedAlias(alias: Alias): void;
  /** When the build patches the live output: for each route, whether its page is kept from that output,
   *  whose build checked its links and passed (links.ts checks again only what may now fail); else null. */
  passed(): boolean[] | null;
  /** The digest of the link targets the live output's pages passed the check against (their build's). */
  passedTargets(): string | undefined;
  /** Whether the file `rel` must be written with `data` (or bytes of that sha1, base64url): false when the
   *  folder holds it already, as recorded. */
  needs(rel: string, data: string | Uint8Array | { sha1: string }): boolean;
  /** The files the live output holds, when the record knows them all (it was not patched half) and no file
   *  was added to or removed from any of its folders since. */
  previousFiles(): string[] | null;
  /** Marks the output as unknown (before it is patched in place: a patch that stops half-way is never trusted). */
  invalidate(): Promise<void>;
  /** Writes the record of this build's output, every file of which is listed in `files`; call once it is
   *  live. `touched`: after a patch, the files it wrote or deleted (the others keep the stamps the record
   *  has). Returns the stamps of the output's files and folders (for upToDate.ts). */
  save(files: string[], touched: Set<string> | undefined, envReads: Set<string> | null, targets?: string, meanwhile?: Meanwhile): Promise<OutputStamps & { env: EnvRecord; read: Set<string> }>;
}

/** What a build does while its output is stamped: given the collections its pages read (build.ts: the replay's record). */
export type Meanwhile = (read: Set<string>) => Promise<void>;

/** The record of the builds before, for a build of `outDir`; `key` null reuses nothing and records no page.
 *  `probe`: the live output's stamps taken on another thread (upToDate.ts), asked before an lstat of its own. */
export async function openIncremental(root: string, outDir: string, key: string | null, content: Content, env: NodeJS.ProcessEnv, probe?: OutputProbe | null): Promise<Incremental> {
  const files = recordFiles(root);
  // A record is used only when every variable its pages read has the value it had (the environment is not
  // in the page keys: the first build learns which variables a site reads, and the next would differ).
  const read = (file: RecordFile) => { const g = readGeneration(file, outDir); return g?.env !== undefined && envSame(g.env, env) ? g : null; };
  // The live output's record now; the one before's only when a build stages over that output.
  const live = read(files.live);
  let before: Generation | null | undefined;
  const liveOnly = [live];
  // (read once: a record that cannot be used is null, which `??=` would read again for every page — 100,000
  // reads of a 40 MB file when a staged build's output before has none for this environment)
  const generations = () => (dir === outDir ? liveOnly : [live, before === undefined ? (before = read(files.before)) : before]);
  // The texts of the objects routes share (a sidebar on every page, entries in lists), made once a build.
  const memo: StableMemo = new Map();
  const hashes = new Map<string, string | null>();
  const collectionHash = (name: string): string | null => {
    if (!hashes.has(name)) {
      let h: string | null;
      try { h = sha1(stable((content as Record<string, unknown>)[name], undefined, memo)); } catch (e) { if (!(e instanceof Unknown)) throw e; h = null; }
      hashes.set(name, h);
    }
    return hashes.get(name)!;
  };
  const routeKeys = new Map<Route, string | null>();
  let named: Map<unknown, string> | undefined;
  const routeKey = (route: Route): string | null => {
    if (!key) return null;
    let k = routeKeys.get(route);
    if (k === undefined) {
      try { k = sha1(`${key}\n${routeText(route, memo, named ??= exportNames(root))}`); } catch (e) { if (!(e instanceof Unknown)) throw e; k = null; }
      routeKeys.set(route, k);
    }
    return k;
  };
  const aliasKey = (a: Alias) => (key ? sha1(`${key}\nalias\n${a.to}`) : null);
  const bytesKey = (data: string | Uint8Array | { sha1: string }) => `bytes:${typeof data === 'string' || data instanceof Uint8Array ? sha1(data) : data.sha1}`;
  const collectionsRead = new Set<string>();
  let dir = outDir;
  let reuse = false;
  let known: Changes | null = null;
  // This build's entries: kept ones with their stamp, new ones without (stamped by save, in the live output).
  const next = new Map<string, Omit<Entry, 'stamp'> & { stamp?: Stamp }>();
  const stampIn = (output: string): Stamp | null => {
    const known = dir === outDir ? probe?.file(output) : undefined;
    if (known !== undefined) return known;
    return fileStamp(below(dir) + output);
  };
  /** The entry of whichever earlier output the file in `dir` is, if its key is `k`. Synchronous: one lstat is a
   *  few microseconds, while an awaited one per page (thousands, one after another) left the thread idle. */
  const find = (output: string, k: string | null): Entry | null => {
    if (!reuse || !k) return null;
    let stamp: Stamp | null | undefined;
    for (const g of generations()) {
      if (g?.key(output) !== k) continue;
      const e = g.entry(output)!;
      stamp ??= stampIn(output);
      if (!stamp) return null;
      if (sameStamp(e.stamp, stamp)) return e;
    }
    return null;
  };
  /** The answer of `changes`, or null (and nothing kept) once `limit` routes and alias pages must render. */
  const scan = (routes: Route[], aliases: Alias[], limit: number): Changes | null => {
    const out: Changes = { routes: [], aliases: [], kept: new Array(routes.length).fill(null) };
    // A template edit dirties every page: past the limit the rest of the answer would only be thrown away.
    const over = () => out.routes.length + out.aliases.length >= limit;
    for (let i = 0; i < routes.length && !over(); i++) {
      const route = routes[i];
      const e = find(route.output, routeKey(route));
      if (e && e.reads.every(([name, h]) => collectionHash(name) === h)) { next.set(route.output, e); out.kept[i] = e; } else out.routes.push(i);
    }
    for (let i = 0; i < aliases.length && !over(); i++) {
      const e = find(aliases[i].output, aliasKey(aliases[i]));
      if (e) next.set(aliases[i].output, e); else out.aliases.push(i);
    }
    if (!over()) return out;
    next.clear();
    return null;
  };
  return {
    at(d, r) {
      dir = d;
      reuse = r;
      known = null;
      next.clear();
    },
    changes: (routes, aliases) => (known ??= scan(routes, aliases, Infinity)!),
    fewerThan(limit, routes, aliases) {
      known ??= scan(routes, aliases, limit);
      return !!known && known.routes.length + known.aliases.length < limit;
    },
    rendered(route, reads, result) {
      for (const name of reads) collectionsRead.add(name); // (a page whose key is unknown read them too)
      const k = routeKey(route);
      const hashed = reads.map((name): [string, string | null] => [name, collectionHash(name)]);
      if (!k || hashed.some(([, h]) => h === null)) return;
      next.set(route.output, { key: k, reads: hashed as [string, string][], islands: result.islands, links: result.links });
    },
    passed: () => (reuse && dir === outDir && known ? known.kept.map((e) => !!e) : null),
    passedTargets: () => live?.targets,
    renderedAlias(alias) {
      const k = aliasKey(alias);
      if (k) next.set(alias.output, { key: k, reads: [], islands: [], links: [] });
    },
    needs(rel, data) {
      const k = bytesKey(data);
      const e = find(rel, k);
      next.set(rel, e ?? { key: k, reads: [], islands: [], links: [] });
      return !e;
    },
    previousFiles: () => (live && foldersIntact(live, outDir, probe) ? live.files : null),
    async invalidate() {
      await markUnknown(files.live, outDir, live);
    },
    async save(written, touched, envReads, targets, meanwhile) {
      // The variables this build's renders read, and those of the records whose pages it may have kept.
      const reused = (reuse ? generations() : []).flatMap((g) => (g?.env !== undefined ? [g.env] : []));
      const patched = path.resolve(dir) === path.resolve(outDir);
      // After a patch, a file or folder it did not touch keeps the stamp the record had. That can never make
      // a later build trust a changed output: each later check compares a recorded stamp with the file's
      // own (a stale one only makes it build), and this build saw every folder as recorded before it began.
      const was = patched && touched && live?.stamps && live.dirs && live.files ? { stamps: live.stamps, dirs: live.dirs } : null;
      const envRecord = envRecordOf(env, envReads, reused);
      // The collections some page's render read (pipeline/replay.ts replays an edit only when none did).
      const read = new Set(collectionsRead);
      for (const e of next.values()) for (const [name] of e.reads) read.add(name);
      // (a map, not a list of pairs: one object fewer for each of 100,000 entries, and what changeOf asks)
      const entries = new Map<string, Entry>();
      const entered = (stamps: Record<string, [number, number, number] | 0>) => {
        for (const [output, e] of next) { const stamp = e.stamp ?? stampFrom(stamps, outDir, output); if (stamp) entries.set(output, e.stamp ? e as Entry : { ...e, stamp }); }
      };
      if (was) {
        await meanwhile?.(read);
        // The record's stamps changed where the patch wrote or deleted: work for the files it touched,
        // not for every file of the output (100,000 pages: a walk of every file and folder, and a diff).
        const p = patchedStamps(live!, was, touched!, written, outDir);
        entered(p.change.stamps);
        if (await writeDelta(files.live, outDir, live!, { ...changeOf(live!, entries), ...p.change, env: envRecord, targets })) return { ...p.now, env: envRecord, read };
        await writeGeneration(files.live, outDir, entries, { files: written, ...p.now, env: envRecord, targets });
        return { ...p.now, env: envRecord, read };
      }
      // Stamped now it is live, on another thread while `meanwhile` runs (patchStamps.ts stampOutput); a page
      // not written in the end (none is) would only make `read` more than it is, and the replay less bold.
      const { stamps, dirs } = await stampOutput(outDir, written, meanwhile && (() => meanwhile(read)));
      entered(stamps);
      // A patch leaves the output before as it was; a staged build made the live output's the one before.
      if (!patched) {
        if (live) await moveRecord(files.live, files.before);
        else await removeRecord(files.before);
      }
      // (for the memo of upToDate.ts: what the live output held, and from which files)
      await writeGeneration(files.live, outDir, entries, { files: written, stamps, dirs, env: envRecord, targets });
      return { stamps, dirs, env: envRecord, read };
    },
  };
}

/** Whether no file was added to or removed from any folder of the output `g` describes (their stamps). */
function foldersIntact(g: Partial<Pick<Generation, 'files' | 'dirs'>> | undefined, outDir: string, probe?: OutputProbe | null): g is Required<Pick<Generation, 'files' | 'dirs'>> {
  if (!g?.files || !g.dirs) return false;
  const base = below(outDir);
  for (const d in g.dirs) {
    let st = probe?.dir(d);
    if (st === undefined) { const s = lstatOrNull(d ? base + d : outDir); st = s?.isDirectory() ? s : null; }
    const [mtime, ino] = g.dirs[d];
    if (!st || st.mtimeMs !== mtime || st.ino !== ino) return false;
  }
  return true;
}
