// Watches a site's inputs (content/, templates/, static/, sitegen.config.ts, tsconfig.json, and the files the config
// imports from elsewhere in the site, such as its plugins' code) with chokidar and hands the
// changes to the dev site in batches: a short debounce coalesces the bursts editors write, and batches run
// one at a time — changes that arrive during a rebuild wait for it and then run as one more batch.
import path from 'node:path';
import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import type { Stats } from 'node:fs';
import { watch } from 'chokidar';
import type { ChangeKind } from '../content/liveContent.ts';
import type { FileChange } from './devSite.ts';

export interface WatchOptions {
  root: string;
  /** Quiet time after the last event before a rebuild starts. */
  debounceMs?: number;
  onBatch: (changes: FileChange[]) => Promise<void>;
  onError?: (error: unknown) => void;
}

export interface SiteWatcher {
  /** Watches these files too: the site module's inputs outside the watched folders (a plugin's code under
   *  plugins/, a shared module). Files outside the root or in node_modules are left alone. */
  watchFiles(files: Iterable<string>): void;
  /** Resolves when no batch is pending or running (for tests and benchmarks). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** chokidar drops a second `change` of a file within 50 ms; a look after that window catches it. */
const RECHECK_MS = 60;
/** After a file is added to the watch, when its state is compared with the state at the call (ms). */
const ADDED_LOOKS = [RECHECK_MS, 500, 2_000];

export async function watchSite(opts: WatchOptions): Promise<SiteWatcher> {
  const root = path.resolve(opts.root);
  const debounceMs = opts.debounceMs ?? 10;
  const pending = new Map<string, ChangeKind>();
  const lastStat = new Map<string, { mtimeMs: number; size: number }>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (running || timer || pending.size) return;
    for (const w of idleWaiters.splice(0)) w();
  };

  async function run(): Promise<void> {
    timer = null;
    // A file born in this batch and gone already (renamed over the file it edits) whose unlink is still on its
    // way: nothing to the site, now or when that unlink comes.
    if (vanished.size > 1_000) vanished.clear(); // (late unlinks that never came: not kept for the whole session)
    for (const file of born) if (pending.get(file) === 'add' && !fsSync.existsSync(file)) { pending.delete(file); vanished.add(file); }
    const batch = [...pending].map(([file, kind]) => ({ file, kind }));
    pending.clear();
    born.clear();
    if (!batch.length) return; // (a file that came and went: nothing)
    // What the rebuild is about to read: the later look compares with this, not with the event's stat,
    // which often shows the file mid-write (truncated), and would cause a needless second rebuild.
    await Promise.all(batch.map(async ({ file, kind }) => {
      if (kind === 'unlink') return;
      try { const st = await fs.stat(file); lastStat.set(file, { mtimeMs: st.mtimeMs, size: st.size }); } catch { /* gone again */ }
    }));
    try {
      await opts.onBatch(batch);
    } catch (e) {
      opts.onError?.(e);
    }
  }

  function schedule(): void {
    if (running) return; // the running batch schedules the next one when it ends
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      running = run().finally(() => { running = null; if (pending.size) schedule(); else settle(); });
    }, debounceMs);
  }

  /** Files this batch saw come into being: one that goes again before the batch runs (an editor's temporary
   *  file, `sed -i`'s, renamed over the file it edits) was never anything to the site. */
  const born = new Set<string>();
  /** Files dropped for being gone before their batch ran (see run): their late unlink is nothing either. */
  const vanished = new Set<string>();
  function record(file: string, kind: ChangeKind): void {
    if (vanished.size && vanished.delete(file) && kind !== 'add') return;
    const prev = pending.get(file);
    if (kind === 'add' && !prev) born.add(file);
    if (kind === 'unlink' && born.delete(file)) { pending.delete(file); return; }
    // An add or unlink changes the file list: a later edit in the same batch must not hide that.
    pending.set(file, kind === 'change' && prev ? prev : kind);
    schedule();
  }

  let closed = false;
  async function recheck(file: string): Promise<void> {
    let st: Stats;
    try { st = await fs.stat(file); } catch { return; }
    if (closed) return;
    const seen = lastStat.get(file);
    if (seen && seen.mtimeMs === st.mtimeMs && seen.size === st.size) return;
    lastStat.set(file, { mtimeMs: st.mtimeMs, size: st.size });
    record(file, 'change');
    setTimeout(() => void recheck(file), RECHECK_MS).unref();
  }

  const TOP = ['content', 'templates', 'static', 'sitegen.config.ts', 'tsconfig.json', 'jsconfig.json'];
  /** A path below the root that dev never watches: in a dot-folder (.sitegen, .git) or node_modules. */
  const hidden = (segments: string[]) => segments.some((s) => s.startsWith('.') || s === 'node_modules');
  /** Files watched beside TOP (see watchFiles), and their folders below the root: a folder is watched for
   *  those files alone, so one deleted and made again (a checkout) is seen coming back. */
  const extra = new Set<string>(), extraDirs = new Set<string>();
  // The root is watched, with everything but TOP (and the extra files) left out, rather than TOP's paths
  // themselves: chokidar counts a path that does not exist (a site with no static/) twice towards its
  // 'ready', which then came before the folders it read last were watched, and a save made in one of them
  // in the first moments was never reported. A TOP folder made later is seen as any new folder.
  const watcher = watch(root, {
    ignoreInitial: true,
    // A link is watched as itself, never followed: one to /usr/share made dev watch (and report) a whole
    // system folder. The build reads no file a link leads out of the site anyway (content/glob.ts).
    followSymlinks: false,
    ignored: (p: string) => {
      const rel = path.relative(root, p);
      if (!rel) return false;
      const segments = rel.split(path.sep);
      if (hidden(segments)) return true;
      if (TOP.includes(segments[0]!) || (segments.length === 1 && /^[tj]sconfig(?:\.[\w-]+)?\.json$/.test(segments[0]!))) return false;
      const abs = path.resolve(p);
      return !extra.has(abs) && !extraDirs.has(abs);
    },
  });
  const onFile = (kind: ChangeKind) => (file: string, stats?: Stats) => {
    if (kind === 'unlink') lastStat.delete(file);
    else if (stats) lastStat.set(file, { mtimeMs: stats.mtimeMs, size: stats.size });
    record(file, kind);
    if (kind === 'change') setTimeout(() => void recheck(file), RECHECK_MS).unref();
  };
  watcher.on('add', onFile('add'));
  watcher.on('change', onFile('change'));
  watcher.on('unlink', onFile('unlink'));
  watcher.on('error', (e) => opts.onError?.(e));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    watchFiles(files) {
      const more: string[] = [], dirs: string[] = [];
      for (const given of files) {
        const f = path.resolve(given); // (the form `ignored` looks up)
        const rel = path.relative(root, f).split(path.sep);
        if (extra.has(f) || rel[0] === '..' || path.isAbsolute(rel.join('/')) || TOP.includes(rel[0]!) || hidden(rel)) continue;
        extra.add(f);
        more.push(f);
        for (let d = path.dirname(f); d !== root && !extraDirs.has(d); d = path.dirname(d)) { extraDirs.add(d); dirs.push(d); }
      }
      if (!more.length) return;
      // chokidar starts watching an added file after a stat of its own, which it takes as the file's
      // unchanged state: a save between this call and that stat (a plugin's code edited right after the
      // config edit that imported it, on a busy machine) would never be reported. The state now is noted
      // here and looked at again once chokidar has had time to start, and again later.
      for (const f of more) {
        const st = fsSync.statSync(f, { throwIfNoEntry: false });
        if (st) lastStat.set(f, { mtimeMs: st.mtimeMs, size: st.size });
      }
      watcher.add([...dirs, ...more]);
      for (const ms of ADDED_LOOKS) setTimeout(() => { for (const f of more) void recheck(f); }, ms).unref();
    },
    idle: () => new Promise<void>((resolve) => { idleWaiters.push(resolve); settle(); }),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      pending.clear();
      await running;
      await watcher.close();
      idleWaiters.forEach((w) => w());
      idleWaiters = [];
    },
  };
}
