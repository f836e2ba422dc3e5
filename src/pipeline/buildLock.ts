// buildLock: one build of a site root at a time. Two builds swapping dist/ at once made one of them fail
// (ENOTEMPTY, reported as a crash), so a build holds <root>/.sitegen/build.lock (its pid and start time,
// created atomically with O_EXCL) from start to end; a second build waits, saying once whom it waits for.
// A lock whose process is gone (a killed build) is taken over. Holding the lock, a build also removes the
// staging and old-output folders (dist.tmp-*, dist.old-*) an interrupted build left beside its output.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

export interface BuildLock {
  release(): Promise<void>;
}

interface Holder { pid: number; started: string }

/** How often a waiting build looks at the lock again. */
const POLL_MS = 100;

const lockFile = (root: string) => path.join(root, '.sitegen', 'build.lock');

/** Lock files this process holds: another build in this process waits for them like any other. */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try { process.kill(pid, 0); return true; } catch (e: any) { return e.code === 'EPERM'; }
}

function readHolder(file: string): Holder | null {
  try {
    const h = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof h?.pid === 'number' ? h : { pid: 0, started: '' };
  } catch (e: any) {
    return e.code === 'ENOENT' ? null : { pid: 0, started: '' }; // unreadable or half-written: treated as stale
  }
}

/**
 * Takes over a stale lock: moves it aside (atomic, so of two builds doing this at once one gets it), and
 * if what it moved was not the stale lock after all (another build took it over first), puts that back.
 */
function takeOver(file: string, stale: Holder): void {
  const aside = `${file}.${process.pid}.stale`;
  try { fs.renameSync(file, aside); } catch { return; }
  const moved = readHolder(aside);
  if (moved && (moved.pid !== stale.pid || moved.started !== stale.started)) {
    try { fs.linkSync(aside, file); } catch { /* the live lock is gone meanwhile, or another build holds a new one */ }
  }
  fs.rmSync(aside, { force: true });
}

/**
 * Waits for the root's build lock and takes it; `onWait` is told once whom it waits for. The lock is
 * released by `release()`, and on exit or SIGINT/SIGTERM if the build never gets there.
 */
export async function acquireBuildLock(root: string, outDir: string, onWait: (text: string) => void = (t) => process.stderr.write(`${t}\n`)): Promise<BuildLock> {
  const file = lockFile(root);
  try {
    await fsp.mkdir(path.dirname(file), { recursive: true });
  } catch {
    return { release: async () => {} }; // a root we cannot write to (its output elsewhere): nothing to guard
  }
  const me: Holder = { pid: process.pid, started: new Date().toISOString() };
  let told = false;
  for (;;) {
    try {
      const fd = fs.openSync(file, 'wx');
      try { fs.writeSync(fd, JSON.stringify(me)); } finally { fs.closeSync(fd); }
      break;
    } catch (e: any) {
      if (e.code !== 'EEXIST') return { release: async () => {} }; // read-only .sitegen/: build unguarded, as before
    }
    const holder = readHolder(file);
    if (!holder) continue; // released meanwhile
    const ours = holder.pid === process.pid && heldHere.has(file);
    if (!ours && (holder.pid === process.pid || !alive(holder.pid))) { takeOver(file, holder); continue; }
    if (!told) { onWait(`waiting for the build of pid ${holder.pid} (started ${holder.started || 'at an unknown time'}) to finish: ${path.relative(process.cwd(), file) || file}`); told = true; }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }

  let held = true;
  heldHere.add(file);
  const releaseSync = () => {
    if (!held) return;
    held = false;
    heldHere.delete(file);
    process.off('exit', releaseSync);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    const h = readHolder(file);
    if (h?.pid === me.pid && h.started === me.started) fs.rmSync(file, { force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    releaseSync();
    // Nobody else handles it: end the way the signal would have without us.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.on('exit', releaseSync);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  await removeLeftovers(outDir);
  return { release: async () => releaseSync() };
}

/** Staging and old-output folders of builds that did not finish (none is in use: we hold the lock). */
async function removeLeftovers(outDir: string): Promise<void> {
  const dir = path.dirname(outDir);
  const base = path.basename(outDir);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const leftover = (n: string) => n.startsWith(`${base}.tmp-`) || n.startsWith(`${base}.old-`);
  await Promise.all(names.filter(leftover).map((n) => fsp.rm(path.join(dir, n), { recursive: true, force: true })));
}
