// Dev only, in the browser: turns the open page into a newly rendered version of itself in place, so a
// content or template edit shows without a reload — scroll position, focus, form state and running islands
// are kept wherever the markup did not change. One pass over both trees: children are matched by id (or,
// for islands, by name and id prefix) through a map, the rest in order, so the work is linear in the size
// of the page. Islands are never morphed inside (their DOM belongs to React or to their script): `island`
// decides whether one is kept as it is or replaced, and the caller mounts what came in and unmounts what
// went out.

export interface MorphHooks {
  /** For an island present in both versions: keep the running one, or replace it by the new markup. */
  island(current: HTMLElement, next: HTMLElement): 'keep' | 'replace';
}

export interface MorphResult {
  /** Island elements the morph put into the page (to mount). */
  added: HTMLElement[];
  /** Island elements it took out (to unmount). */
  removed: HTMLElement[];
}

const ISLAND = 'sitegen-island';
/** What the dev client adds to the page itself (its error overlay), which no rendered version has: left as it is. */
const DEV_OWN = 'sitegen-dev-overlay';

function key(n: Node): string | null {
  if (n.nodeType !== Node.ELEMENT_NODE) return null;
  const e = n as Element;
  if (e.localName === ISLAND) return `island:${e.getAttribute('data-island')}:${e.getAttribute('data-prefix')}`;
  return e.id ? `id:${e.localName}#${e.id}` : null;
}

const sameKind = (a: Node, b: Node) => a.nodeType === b.nodeType && (a.nodeType !== Node.ELEMENT_NODE || (a as Element).localName === (b as Element).localName);

function islandsIn(n: Node): HTMLElement[] {
  if (n.nodeType !== Node.ELEMENT_NODE) return [];
  const e = n as HTMLElement;
  // Islands do not nest (an island's markup is its component's), so the outermost ones are all there are.
  return e.localName === ISLAND ? [e] : [...e.querySelectorAll<HTMLElement>(ISLAND)];
}

function syncAttributes(from: Element, to: Element): void {
  for (const a of [...from.attributes]) if (!to.hasAttribute(a.name)) from.removeAttribute(a.name);
  for (const a of to.attributes) if (from.getAttribute(a.name) !== a.value) from.setAttribute(a.name, a.value);
}

export function morph(from: Element, to: Element, hooks: MorphHooks): MorphResult {
  const result: MorphResult = { added: [], removed: [] };
  const adopt = (n: Node) => {
    const copy = document.importNode(n, true);
    result.added.push(...islandsIn(copy));
    return copy;
  };

  function morphNode(a: Node, b: Node): void {
    if (a.nodeType !== Node.ELEMENT_NODE) {
      if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
      return;
    }
    const ea = a as HTMLElement;
    const eb = b as HTMLElement;
    if (ea.localName === ISLAND) {
      if (hooks.island(ea, eb) === 'keep') return;
      result.removed.push(ea);
      ea.replaceWith(adopt(eb));
      return;
    }
    syncAttributes(ea, eb);
    // A <template>'s children live in its content fragment.
    if (ea instanceof HTMLTemplateElement && eb instanceof HTMLTemplateElement) morphChildren(ea.content, eb.content);
    else morphChildren(ea, eb);
  }

  function morphChildren(parent: Node, next: Node): void {
    const keyed = new Map<string, Node>();
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      const k = key(c);
      if (k && !keyed.has(k)) keyed.set(k, c);
    }
    let cur = parent.firstChild;
    for (let n = next.firstChild; n; n = n.nextSibling) {
      const k = key(n);
      let match: Node | null = null;
      if (k) {
        match = keyed.get(k) ?? null;
        keyed.delete(k);
      } else if (cur && !key(cur) && sameKind(cur, n)) {
        match = cur;
      }
      if (!match) { parent.insertBefore(adopt(n), cur); continue; }
      if (match === cur) cur = cur.nextSibling;
      else parent.insertBefore(match, cur);
      morphNode(match, n);
    }
    // What is left after the cursor was matched by nothing (every match was moved in front of it).
    while (cur) {
      const gone = cur;
      cur = cur.nextSibling;
      if ((gone as Element).localName === DEV_OWN) continue;
      result.removed.push(...islandsIn(gone));
      parent.removeChild(gone);
    }
  }

  syncAttributes(from, to);
  morphChildren(from, to);
  return result;
}
