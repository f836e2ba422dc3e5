// Minimal glob over a folder: `*` within a path segment, `**` across any depth. Sorted, forward slashes.
import fs from 'node:fs/promises';
import path from 'node:path';
import { outsideRoot } from './insideRoot.ts';

/** One step of a compiled glob: a character, any character but `/` (`?`), a run of them (`*`), a run of any characters (`**`), or the optional start of a `**\/` (skip to `to`). */
type Step = { kind: 'char'; c: number } | { kind: 'one' } | { kind: 'run' } | { kind: 'any' } | { kind: 'maybe'; to: number };

/** `.` of a regular expression without the s flag: anything but a line terminator. */
const dot = (c: number) => c !== 10 && c !== 13 && c !== 0x2028 && c !== 0x2029;

/**
 * A content glob as a matcher: `*` is a run within a path segment, `?` one character of one, `**` any run
 * and `**\/` any run of whole folders (or none). It keeps the set of places in the pattern a path may have
 * reached, character by character, so a path is read once however many stars the pattern has (as a
 * regular expression, every star multiplies the ways a failing path is tried). The sets are kept with
 * their moves, as a pattern has few, so matching costs a lookup a character.
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  let m = matchers.get(pattern);
  if (!m) {
    if (matchers.size >= MATCHERS_KEPT) matchers.clear();
    m = compileGlob(pattern);
    matchers.set(pattern, m);
  }
  return m;
}

/**
 * Matchers made, by pattern: the config's patterns are few, and each file's entry asks which one matched
 * it (load.ts entryOf), so a matcher made afresh each time (its states built again) cost more than the
 * match: 8 ms of every re-validation of the real site's content in dev.
 */
const matchers = new Map<string, (path: string) => boolean>();
const MATCHERS_KEPT = 256;

function compileGlob(pattern: string): (path: string) => boolean {
  const steps: Step[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      if (pattern[i + 2] === '/') {
        const at = steps.length;
        steps.push({ kind: 'maybe', to: at + 3 }, { kind: 'any' }, { kind: 'char', c: 47 });
        i += 2;
      } else { steps.push({ kind: 'any' }); i += 1; }
    } else if (c === '*') steps.push({ kind: 'run' });
    else if (c === '?') steps.push({ kind: 'one' });
    else steps.push({ kind: 'char', c: pattern.charCodeAt(i) });
  }
  const end = steps.length;
  /** The steps reached from `from` without reading a character, added to `into` (sorted later). */
  const reach = (into: Set<number>, i: number): void => {
    while (i <= end && !into.has(i)) {
      into.add(i);
      const s = steps[i];
      if (!s) return;
      if (s.kind === 'maybe') { reach(into, i + 1); i = s.to; }
      else if (s.kind === 'run' || s.kind === 'any') i++;
      else return;
    }
  };
  // Characters the steps tell apart: each of the pattern's own, `/`, the line terminators, and the rest
  // (class 0, stood for by a character the pattern does not have).
  const classOf = new Map<number, number>();
  const samples = [0];
  for (const c of [...steps.flatMap((s) => (s.kind === 'char' ? [s.c] : [])), 47, 10, 13, 0x2028, 0x2029]) {
    if (!classOf.has(c)) { classOf.set(c, samples.length); samples.push(c); }
  }
  let other = 0xe000;
  while (classOf.has(other)) other++;
  samples[0] = other;
  // The sets of steps a path can be at, made as paths reach them (a lazily built DFA: each character of a
  // path then costs one lookup).
  type State = { steps: number[]; accept: boolean; next: Int32Array };
  const states: State[] = [], ids = new Map<string, number>();
  const stateOf = (set: Set<number>): number => {
    const list = [...set].sort((a, b) => a - b);
    const key = list.join(',');
    let id = ids.get(key);
    if (id === undefined) {
      id = states.length;
      states.push({ steps: list, accept: set.has(end), next: new Int32Array(samples.length).fill(-1) });
      ids.set(key, id);
    }
    return id;
  };
  const first = new Set<number>();
  reach(first, 0);
  const start = stateOf(first);
  const move = (from: number, cls: number): number => {
    const c = samples[cls]!;
    const to = new Set<number>();
    for (const i of states[from]!.steps) {
      const s = steps[i];
      if (!s || s.kind === 'maybe') continue;
      if (s.kind === 'char' ? s.c === c : s.kind === 'one' ? c !== 47 : false) reach(to, i + 1);
      else if (s.kind === 'run' ? c !== 47 : s.kind === 'any' ? dot(c) : false) reach(to, i);
    }
    return (states[from]!.next[cls] = stateOf(to));
  };
  return (path) => {
    let state = start;
    for (let k = 0; k < path.length; k++) {
      const cls = classOf.get(path.charCodeAt(k)) ?? 0;
      const known = states[state]!.next[cls]!;
      state = known >= 0 ? known : move(state, cls);
      if (!states[state]!.steps.length) return false;
    }
    return states[state]!.accept;
  };
}

/** The fixed folder before the first wildcard: "sectors/*\/*.yaml" → "sectors". */
export function globBase(pattern: string): string {
  const segs = pattern.split('/');
  const fixed: string[] = [];
  for (const s of segs.slice(0, -1)) {
    if (/[*?]/.test(s)) break;
    fixed.push(s);
  }
  return fixed.join('/');
}

/** With a site root: entries whose real path is not inside it (see insideRoot.ts) are left out and noted. */
export interface WalkGuard {
  root: string;
  /** Filled with the refused entries, relative to the folder walked ('' for the folder itself). */
  outside: { rel: string; problem: 'outside' | 'hidden' }[];
}

export async function listFiles(dir: string, guard?: WalkGuard): Promise<string[]> {
  const out: string[] = [];
  // Only a link can lead out: the folder itself and each symlinked entry are checked, never read first.
  const refused = async (rel: string) => {
    if (!guard) return false;
    const problem = await outsideRoot(guard.root, path.join(dir, rel));
    if (problem) guard.outside.push({ rel, problem });
    return !!problem;
  };
  if (await refused('')) return out;
  async function walk(rel: string, seen: Set<string>): Promise<void> {
    const abs = path.join(dir, rel);
    let real: string;
    try { real = await fs.realpath(abs); } catch { return; }
    if (seen.has(real)) return; // a symlink loop: each real folder is read once
    seen.add(real);
    let items;
    try { items = await fs.readdir(abs, { withFileTypes: true }); } catch { return; }
    for (const it of items) {
      if (it.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${it.name}` : it.name;
      let isDir = it.isDirectory();
      if (it.isSymbolicLink()) {
        if (await refused(r)) continue;
        try { isDir = (await fs.stat(path.join(dir, r))).isDirectory(); } catch { continue; }
      }
      if (isDir) await walk(r, new Set(seen));
      else out.push(r);
    }
  }
  await walk('', new Set());
  guard?.outside.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  return out.sort();
}

export function matchFiles(files: string[], patterns: string[]): string[] {
  const matchers = patterns.map(globMatcher);
  return files.filter((f) => matchers.some((m) => m(f)));
}

/** A file the content folder's walks list: YAML, Markdown or JSON. */
export const CONTENT_FILE = /\.(?:ya?ml|mdx?|json)$/; // (MDX listed only to be said not to be read: content/load.ts planContent)

/** The same list as listContentFiles, from the stamps of a walk of content/ that met no symlink (upToDate.ts):
 *  every file below it, relative to it with '/', none of whose names starts with a dot. No folder is read again. */
export function listedContentFiles(stamps: ReadonlyMap<string, unknown>): string[] {
  const out: string[] = [];
  for (const rel of stamps.keys()) if (CONTENT_FILE.test(rel) && !rel.startsWith('.') && !rel.includes('/.')) out.push(rel);
  return out.sort();
}

/**
 * Every YAML and Markdown file below content/, relative to it, sorted. Links that lead out of the site are
 * never followed; with `outside`, they are noted there (relative to the root, e.g. "content/x.yaml").
 */
export async function listContentFiles(root: string, outside?: { rel: string; problem: 'outside' | 'hidden' }[]): Promise<string[]> {
  const guard: WalkGuard = { root, outside: [] };
  const files = (await listFiles(path.join(root, 'content'), guard)).filter((f) => CONTENT_FILE.test(f));
  outside?.push(...guard.outside.map((o) => ({ rel: o.rel ? `content/${o.rel}` : 'content', problem: o.problem })));
  return files;
}
