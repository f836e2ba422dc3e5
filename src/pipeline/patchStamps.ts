// patchStamps: the stamps of the live output for the incremental record (incremental.ts save): after a patch
// (output/patch.ts), its entries and the stamps of the files and folders it wrote or deleted, found without a
// look at the files it left alone; after a whole build, every file and folder (stampOutput), on another thread
// from probeMin files while the replay's record is written.
import fs from 'node:fs';
import path from 'node:path';
import type { Change, Entry, Generation, OutputStamps, Stamp } from './pageRecord.ts';
import { parseVariantPath } from '../images/model.ts';
import { sameList } from '../output/patch.ts';
import { probeOutput } from './outputProbe.ts';
import { engineSettings } from '../core/settings.ts';

// Any error (none there, a file where a folder was: ENOTDIR) is a file or folder not as recorded.
export const lstatOrNull = (p: string): fs.Stats | null => { try { return fs.lstatSync(p); } catch { return null; } };

/** Adds the folders of an output's file `f` (below the output; '' is the output itself) to `into`, nearest first,
 *  up to one it has already. */
function addFolders(f: string, into: Set<string>): void {
  for (let d = path.dirname(f); ; d = path.dirname(d)) { const k = d === '.' ? '' : d; if (into.has(k)) break; into.add(k); if (!k) break; }
}

/** The stamp of the file at `p`, or null when there is none (or something else is there). */
export function fileStamp(p: string): Stamp | null {
  const st = lstatOrNull(p);
  return st?.isFile() ? { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino } : null;
}

/** A page's stamp: the one `stamps` took of its file (a whole output's, or what a patch wrote), else its own lstat
 *  (an image variant's path, which is stamped by its folder; a file a patch left alone). */
export function stampFrom(stamps: Record<string, [number, number, number] | 0>, outDir: string, output: string): Stamp | null {
  const s = Object.hasOwn(stamps, output) ? stamps[output] : 0;
  return s ? { size: s[0], mtimeMs: s[1], ino: s[2] } : fileStamp(below(outDir) + output);
}

/** A folder with a separator after it: records name files by their path below it, joined by concatenation
 *  (path.join normalizes each of ~20,000 paths, a third of the up-to-date check's time at 10,000 pages). */
export const below = (outDir: string) => (outDir.endsWith(path.sep) ? outDir : outDir + path.sep);

/** The entries a patch changed in the live record: those not kept as they were, and those gone. */
export function changeOf(live: Generation, entries: ReadonlyMap<string, Entry>): Pick<Change, 'entries'> {
  const changed = new Map<string, Entry | null>();
  for (const [output, e] of entries) if (live.entry(output) !== e) changed.set(output, e);
  for (const output of live.outputs()) if (!entries.has(output)) changed.set(output, null);
  return { entries: changed };
}

/**
 * After a patch: the live record's stamps and folders (`was`, taken over: changed in place) as the output
 * now is, and what changed in them. Only the files the patch wrote or deleted, and their folders, are
 * stamped again; every other file and folder is as the record has it (save: this build saw every folder
 * as recorded). A folder the patch touched is stamped if it is still there; an extra one recorded only
 * ever makes a later build look at one more folder.
 */
export function patchedStamps(live: Generation, was: OutputStamps, touched: Set<string>, written: string[], outDir: string): { now: OutputStamps; change: Omit<Change, 'entries' | 'env'> } {
  const { stamps, dirs } = was;
  const same = sameList(live.files!, written);
  const had = same ? null : new Set(live.files), has = same ? null : new Set(written);
  const added = had ? written.filter((f) => !had.has(f)) : [], removed = has ? live.files!.filter((f) => !has.has(f)) : [];
  const dStamps: Change['stamps'] = {}, dDirs: Change['dirs'] = {};
  const base = below(outDir);
  const forget = (f: string) => { if (f in stamps) { delete stamps[f]; dStamps[f] = 0; } };
  const restamp = (f: string) => {
    const st = parseVariantPath(f) ? null : lstatOrNull(base + f);
    if (st?.isFile()) stamps[f] = dStamps[f] = [st.size, st.mtimeMs, st.ino];
    else forget(f);
  };
  // (with the lists the same, a file the patch touched is one it wrote unless it deleted it: then it is not there)
  const isWritten = (f: string) => (has ? has.has(f) : true);
  const changedDirs = new Set<string>();
  const touch = (f: string) => addFolders(f, changedDirs);
  for (const f of removed) { touch(f); forget(f); }
  for (const f of touched) { touch(f); if (isWritten(f)) restamp(f); }
  for (const f of added) if (!touched.has(f)) { touch(f); restamp(f); }
  for (const k of changedDirs) {
    const st = lstatOrNull(k ? base + k : outDir);
    if (st?.isDirectory()) dirs[k] = dDirs[k] = [st.mtimeMs, st.ino];
    else if (k in dirs) { delete dirs[k]; dDirs[k] = 0; }
  }
  return { now: { stamps, dirs }, change: { added, removed, stamps: dStamps, dirs: dDirs } };
}


/**
 * The stamps of a whole output that is live, every file of which is in `written` (paths below `outDir`): one
 * lstat a file and a folder, taken on another thread (outputProbe.ts) while `meanwhile` runs on this one (10,000
 * pages: ~20,000 calls, ~0.1 s), here for a small output, without `meanwhile`, or if that thread fails. An image variant is stamped by its folder alone: the
 * folder is named by the source's bytes and the settings, each file in it by width and format, so no build
 * writes other bytes under its name, and one added, removed or renamed changes the folder's stamp. (A variant
 * edited in place by hand goes unseen: the 1,809 variants of 200 photos cost the up-to-date check more lstat
 * calls than the rest.)
 */
export async function stampOutput(outDir: string, written: string[], meanwhile?: () => Promise<void>): Promise<OutputStamps> {
  const files = written.filter((f) => !parseVariantPath(f));
  const folders = new Set<string>();
  for (const f of written) addFolders(f, folders);
  // (a thread costs more than a small output's lstat calls: from the probeMin setting's number of files, and
  // only when the caller has something to run meanwhile: build.ts's replay record, which may turn out to be nothing)
  const probing = !meanwhile || written.length < engineSettings().probeMin ? Promise.resolve(null) : probeOutput(outDir, folders.size ? [...folders].join('\0') : null, files.length ? files.join('\0') : null);
  try { await meanwhile?.(); } catch (e) { await probing; throw e; }
  const probe = await probing;
  const base = below(outDir);
  // (no prototype: a folder named __proto__ or constructor is a key like any other)
  const stamps: OutputStamps['stamps'] = Object.create(null);
  const dirs: OutputStamps['dirs'] = Object.create(null);
  for (const f of files) {
    const st = probe ? probe.file(f) : lstatOrNull(base + f);
    if (st) stamps[f] = [st.size, st.mtimeMs, st.ino];
  }
  for (const k of folders) {
    const st = probe ? probe.dir(k) : lstatOrNull(k ? base + k : outDir);
    dirs[k] = st ? [st.mtimeMs, st.ino] : [0, 0];
  }
  return { stamps, dirs };
}
