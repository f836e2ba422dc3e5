// The last step of loading content, after every collection is validated and before routes() runs, shared
// by build, check, dev and render workers: drafts are left out (unless the command shows them) and
// reference() fields are replaced by the entries they name. A dangling reference is an issue at its field.
import type { Entry, SiteConfig } from '../core/types.ts';
import type { HelperIssue } from './issues.ts';
import { closest } from './issues.ts';
import { REFERENCE_KEY, isReference } from './reference.ts';
import { freezeEntries } from '../content/readOnly.ts';

export interface FinishOptions {
  /** Keep entries marked as drafts (dev, `build --drafts`). */
  drafts?: boolean;
}

/** Each collection's valid entries, in file order (a `single` collection: its one entry). */
export type EntryLists = Record<string, Entry[]>;

/** Marks an entry a draft when its collection names a draft field and the entry's value there is true. */
export function draftOf(col: { draft?: string }, data: unknown): boolean {
  return !!col.draft && typeof data === 'object' && data !== null && (data as Record<string, unknown>)[col.draft] === true;
}

/** Whether a value holds a reference marker anywhere (plain data only: Dates and class instances are leaves). */
function hasReference(v: unknown, depth = 0): boolean {
  if (typeof v !== 'object' || v === null || depth > 64) return false;
  if (isReference(v)) return true;
  if (Array.isArray(v)) return v.some((x) => hasReference(x, depth + 1));
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k in v) if (hasReference((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

// Whether a parsed entry holds references, kept per entry object: dev re-finishes on every change, and
// unchanged entries keep their objects.
const holding = new WeakMap<Entry, boolean>();
function holdsReference(e: Entry): boolean {
  let h = holding.get(e);
  if (h === undefined) { h = hasReference(e.data); holding.set(e, h); }
  return h;
}

/**
 * `lists` with drafts dropped (unless opts.drafts) and references resolved. Entries without references keep
 * their objects; one with references is a new entry (the loader's copy stays as parsed). `memo` (dev) keeps
 * the resolved entry of a parsed entry while the entries it points at are the same objects.
 */
export function finishContent(config: SiteConfig, lists: EntryLists, opts: FinishOptions = {}, memo?: WeakMap<Entry, { resolved: Entry; targets: Entry[] }>): { lists: EntryLists; issues: HelperIssue[] } {
  const kept: EntryLists = {};
  for (const [name, list] of Object.entries(lists)) kept[name] = opts.drafts || !list.some((e) => e.draft) ? list : list.filter((e) => !e.draft);
  // Which entries hold references (most collections hold none: one walk of their data each).
  const holders = new Map<string, number[]>();
  for (const [name, list] of Object.entries(kept)) {
    const idx: number[] = [];
    list.forEach((e, i) => { if (holdsReference(e)) idx.push(i); });
    if (idx.length) holders.set(name, idx);
  }
  if (!holders.size) { freezeEntries(Object.values(kept)); return { lists: kept, issues: [] }; }
  const issues: HelperIssue[] = [];
  const out: EntryLists = { ...kept };
  // New entry objects first, so references between them (an author's posts, a post's author) meet the
  // final objects, cycles included.
  const fresh = new Map<Entry, { entry: Entry; name: string; i: number }>();
  for (const [name, idx] of holders) {
    const list = out[name] = [...out[name]];
    // Copied with its property descriptors: a body dev's start has not compiled yet stays so (content/lazyBody.ts);
    // its fields writable until its data is resolved (a safeguard: the loader's entry it copies is never handed
    // out, so never frozen).
    for (const i of idx) { const e = copyEntry(list[i]); fresh.set(list[i], { entry: e, name, i }); list[i] = e; }
  }
  const byId = new Map<string, Map<string, Entry>>();
  const idsOf = (name: string): Map<string, Entry> | undefined => {
    if (!out[name] || config.collections[name]?.single) return undefined;
    let m = byId.get(name);
    if (!m) { m = new Map(out[name].map((e) => [e.id, e])); byId.set(name, m); }
    return m;
  };
  const draftIds = (name: string) => new Set((lists[name] ?? []).filter((e) => e.draft).map((e) => e.id));
  for (const [raw, { entry, name: at0, i: at1 }] of fresh) {
    const targets: Entry[] = [];
    // Copy on write: only the objects and lists on the way to a reference are new. `at`: the field path.
    const at: (string | number)[] = [];
    const resolve = (v: unknown): unknown => {
      if (typeof v !== 'object' || v === null) return v;
      if (isReference(v)) {
        const name = v[REFERENCE_KEY];
        const ids = idsOf(name);
        if (!ids) {
          const near = closest(name, Object.keys(config.collections).filter((n) => !config.collections[n].single));
          const problem = config.collections[name] ? `collection ${name} is a single file, not a list of entries to refer to` : `no collection named ${name}${near ? `. Did you mean ${near}?` : ''}`;
          issues.push({ kind: 'ContentReferenceError', file: raw.file, path: [...at], target: name, message: `reference("${name}"): ${problem}` });
          return v;
        }
        const target = ids.get(v.id);
        if (target) { targets.push(target); return target; }
        const draft = !opts.drafts && draftIds(name).has(v.id);
        const near = draft ? undefined : closest(v.id, ids.keys());
        issues.push({ kind: 'ContentReferenceError', file: raw.file, path: [...at], target: name, message: `no entry "${v.id}" in collection ${name}${draft ? ' (it is a draft, left out of this build)' : near ? `. Did you mean "${near}"?` : ''}` });
        return v;
      }
      if (Array.isArray(v)) {
        let copy: unknown[] | null = null;
        for (let i = 0; i < v.length; i++) {
          at.push(i);
          const r = resolve(v[i]);
          at.pop();
          if (r !== v[i]) (copy ??= v.slice())[i] = r;
        }
        return copy ?? v;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) return v;
      let copy: Record<string, unknown> | null = null;
      const o = v as Record<string, unknown>;
      for (const k in o) {
        at.push(k);
        const r = resolve(o[k]);
        at.pop();
        if (r !== o[k]) (copy ??= { ...o })[k] = r;
      }
      return copy ?? v;
    };
    const prev = memo?.get(raw);
    entry.data = resolve(raw.data);
    if (prev && prev.targets.length === targets.length && prev.targets.every((t, i) => t === targets[i])) {
      // Nothing it points at changed: the entry from last time, so dev sees an unchanged entry.
      out[at0][at1] = prev.resolved;
      continue;
    }
    memo?.set(raw, { resolved: entry, targets });
  }
  freezeEntries(Object.values(out));
  return { lists: out, issues };
}

/** Descriptors of a frozen object's fields, as an object's own that can still be changed. */
/** A copy of an entry with every field configurable and every value writable, accessors (a body read from
 *  disk or compiled when read) and hidden fields kept as they are. Plain fields are assigned, not defined: an
 *  object made by defining each field becomes a slow dictionary object (10,000 entries: 55 → 20 ms to copy,
 *  and every later read slower). */
function copyEntry(e: Entry): Entry {
  const out: Record<PropertyKey, unknown> = {};
  for (const k of Reflect.ownKeys(e)) {
    const d = Object.getOwnPropertyDescriptor(e, k)!;
    if ('value' in d && d.enumerable && typeof k === 'string' && k !== '__proto__') out[k] = d.value;
    else { d.configurable = true; if ('value' in d) d.writable = true; Object.defineProperty(out, k, d); }
  }
  return out as unknown as Entry;
}
