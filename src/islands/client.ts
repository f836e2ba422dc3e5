// Client hydration runtime. Finds <sitegen-island> wrappers and hydrates each with the props the server
// rendered, when its mode says: "load" at once, "idle" when the browser is idle, "visible" on scroll-in.
// React and each island are loaded with import(), so a page pays only for what it shows.
import { withHtmlChildren } from './children.ts';
import { adoptIslandImages } from './islandImages.ts';

type Loader = () => Promise<{ default?: any; enhance?: (el: HTMLElement) => void }>;

async function hydrateOne(el: HTMLElement, load: Loader, live: () => void): Promise<void> {
  const first = await load();
  if (typeof first.enhance === 'function') {
    // A Name.client.ts island: plain DOM enhancement of the server HTML (which carries what it needs), no React.
    first.enhance(el);
    el.setAttribute('data-hydrated', '');
    live();
    return;
  }
  const [react, reactDom, mod] = await Promise.all([import('react'), import('react-dom/client'), first]);
  // React ships CommonJS: a dynamic import may expose its exports on `default` only.
  const { createElement } = (react as any).createElement ? react : (react as any).default;
  const { hydrateRoot } = (reactDom as any).hydrateRoot ? reactDom : (reactDom as any).default;
  const props = JSON.parse(el.dataset.props || '{}');
  await adoptIslandImages(el);
  hydrateRoot(el, createElement(mod.default, withHtmlChildren(props, createElement)), { identifierPrefix: el.dataset.prefix || '' });
  el.setAttribute('data-hydrated', '');
  // React listens at the root from here on: a click given now hydrates the island at once and reaches its handler.
  live();
}

/** What works without an island's code, whose clicks are left to the browser: a link, a form field and its label,
 *  the summary of a <details>. */
const NATIVE = 'a[href], input, select, textarea, label, summary';

/**
 * Clicks on an island that is not live yet (a "visible" island clicked as it scrolls in, an "idle" one before the
 * browser was idle, any island while its code loads) would do nothing: such a click (on a button, or on what the
 * island makes clickable) is held, starts the island at once, and is given again to the element it was on once
 * the island is live, with its keys and position. One click is kept per element (a second press while the first
 * waits would undo a toggle). What works without the island's code (NATIVE) keeps working as it did, and a click
 * for an island inside this one is its own. Returns what to call once the island is live, or has failed: then
 * the held clicks are dropped, as they were before; so are those whose element went when it went live.
 */
function holdEarlyClicks(el: HTMLElement, start: () => void): (replay: boolean) => void {
  const held = new Map<Element, MouseEventInit>();
  const onClick = (e: MouseEvent) => {
    const target = e.target as Element | null;
    if (!target?.closest || target.closest('sitegen-island') !== el || target.closest(NATIVE)) return;
    e.preventDefault();
    e.stopPropagation();
    if (!held.has(target)) {
      const { ctrlKey, shiftKey, altKey, metaKey, button, buttons, clientX, clientY, screenX, screenY, detail } = e;
      held.set(target, { bubbles: true, cancelable: true, composed: true, ctrlKey, shiftKey, altKey, metaKey, button, buttons, clientX, clientY, screenX, screenY, detail });
    }
    start();
  };
  el.addEventListener('click', onClick, true);
  return (replay) => {
    el.removeEventListener('click', onClick, true);
    if (replay) for (const [t, init] of held) if (t.isConnected) t.dispatchEvent(new MouseEvent('click', init));
  };
}

function whenIdle(fn: () => void): void {
  if ('requestIdleCallback' in window) (window as any).requestIdleCallback(fn, { timeout: 2000 });
  else setTimeout(fn, 200);
}

function whenVisible(el: HTMLElement, fn: () => void): void {
  if (!('IntersectionObserver' in window)) return whenIdle(fn);
  const io = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) { io.disconnect(); fn(); }
  }, { rootMargin: '200px' });
  // The wrapper is display:contents and has no box of its own; observe its first element.
  io.observe((el.firstElementChild as HTMLElement) ?? el);
}

export function hydrateIslands(loaders: Record<string, Loader>): void {
  for (const el of document.querySelectorAll<HTMLElement>('sitegen-island')) {
    const load = loaders[el.dataset.island ?? ''];
    if (!load) { console.error(`sitegen: unknown island ${el.dataset.island}`); continue; }
    let started = false;
    const go = () => {
      if (started) return;
      started = true;
      hydrateOne(el, load, () => release(true)).catch((e) => { release(false); console.error(`sitegen: island ${el.dataset.island} failed`, e); });
    };
    const release = holdEarlyClicks(el, go);
    const mode = el.dataset.hydrate;
    if (mode === 'idle') whenIdle(go);
    else if (mode === 'visible') whenVisible(el, go);
    else go();
  }
}
