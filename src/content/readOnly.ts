// readOnly: the entries a site's code is handed — by routes(), templates, plugins and validate — are read-only:
// each entry, its data (every plain object and list in it) and its folders, headings and links are frozen
// once its collection is finished (authoring/finish.ts). A write to one throws where it is written, and the
// message says why (core/errors.ts readOnlyHint). So an entry reads the same to every page and in every
// build: dev runs routes() again on the entries an edit left alone, and a build keeps pages whose inputs did
// not change, neither of which could see a change routes() or a template made to an entry. The collections'
// lists themselves are not frozen: routes() may sort them in place.
import type { Entry } from '../core/types.ts';

// A sort or reverse of a frozen list of one item or none writes nothing, so JavaScript lets it pass: a site
// whose posts each have one tag would learn of its `post.data.tags.sort()` only from the first post with
// two. On a read-only list they throw whatever its length, in the words of the throw of a longer one.
function refuse(this: unknown[]): never { throw new TypeError("Cannot assign to read only property '0' of object '[object Array]'"); }
const REFUSE: PropertyDescriptor = { value: refuse, writable: false, enumerable: false, configurable: false };

/** Freezes a value's plain objects and lists, all the way down; frozen objects (entries, done already) and
 *  any other object (a Date, a class instance) are left as they are. */
function freezeData(v: unknown, depth = 0, guard = true): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v) || depth > 256) return;
  if (Array.isArray(v)) {
    if (guard && v.length < 2) Object.defineProperties(v, { sort: REFUSE, reverse: REFUSE });
    Object.freeze(v);
    for (const x of v) freezeData(x, depth + 1, guard);
    return;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return;
  Object.freeze(v);
  for (const k in v) freezeData((v as Record<string, unknown>)[k], depth + 1, guard);
}

/** A body's headings as every entry hands them out, whatever holds the body (memory, disk, dev's lazy compile):
 *  the list and each heading frozen. */
export function frozenHeadings<T extends object[]>(headings: T): T {
  freezeData(headings, 0, false);
  return headings;
}

/** A field of the entry that holds a value (not a getter that reads a body from disk or compiles it). */
const valueOf = (e: Entry, k: string): unknown => Object.getOwnPropertyDescriptor(e, k)?.value;

/** Freezes the entries of finished collections (see above). Entries frozen before (dev keeps the entries an
 *  edit left alone) cost one check each. */
export function freezeEntries(lists: Iterable<Entry[]>): void {
  const fresh: Entry[] = [];
  // Every entry first, so the data walk stops at an entry a reference put there (done on its own).
  for (const list of lists) for (const e of list) if (!Object.isFrozen(e)) { Object.freeze(e); fresh.push(e); }
  for (const e of fresh) {
    freezeData(e.data);
    // (the engine's own lists: no site sorts its folders or headings in place, and there are many)
    freezeData(e.dirs, 0, false);
    const headings = valueOf(e, 'headings');
    if (Array.isArray(headings)) frozenHeadings(headings);
    freezeData(valueOf(e, 'links'));
  }
}

/** Freezes a content object received whole (a render worker handed the main thread's copy): each list's
 *  entries, and a single collection's data. */
export function freezeContent(content: Record<string, unknown>): void {
  const lists: Entry[][] = [];
  for (const v of Object.values(content)) if (Array.isArray(v)) lists.push(v as Entry[]); else freezeData(v);
  freezeEntries(lists);
}
