// Dev only: the browser half of hot updates, bundled into the islands runtime by `sitegen dev` (never by a
// build). It puts React Fast Refresh's hook in place before react-dom loads, so every island root is known
// to it, and gives the dev client (src/dev/client.ts, a separate script) three operations on
// `window.__sitegenHmr`:
//   update(name, url, react)  loads the island's new module; React islands re-render in place with their
//                             state kept (Fast Refresh); enhancement islands are re-mounted by the client;
//   mount(el) / unmount(el)   hydrate an island element a morph brought in, or drop one it took out;
//   has(name), retarget(name, url)  whether the runtime knows an island; its module for later mounts.
// An update that cannot be applied (the module throws, a refresh throws) rejects; the client then reloads
// the page.
import * as Refresh from 'react-refresh/runtime';
import { dead, refresh, roots } from './hmrShared.ts';
import { adoptIslandImages } from '../islands/islandImages.ts';

type IslandModule = { default?: any; enhance?: (el: HTMLElement) => unknown };
type Loader = () => Promise<IslandModule>;

const runtime: typeof Refresh = (Refresh as any).injectIntoGlobalHook ? Refresh : (Refresh as any).default;
runtime.injectIntoGlobalHook(window);
Object.assign(refresh, { register: runtime.register, setSignature: runtime.setSignature });

export function installHmr(loaders: Record<string, Loader>): void {
  // Each hot module is imported under a URL of its own: a chunk's name is its content's hash, so an edit undone
  // names a chunk the page loaded before, which the browser would hand back as it ran then (no new registration
  // for Fast Refresh, and the restored code never shown). Its own imports (React, shared chunks) stay one instance.
  let imports = 0;
  const fresh = (url: string) => `${url}${url.includes('?') ? '&' : '?'}hot=${++imports}`;
  /** The module URL each island was last updated to: the same update told again (a bundle made ahead of its
   *  rebuild, then the rebuild) is applied once. */
  const applied = new Map<string, string>();
  async function mount(el: HTMLElement): Promise<void> {
    const name = el.dataset.island ?? '';
    try {
      const load = loaders[name];
      if (!load) throw new Error(`unknown island ${name}`);
      const mod = await load();
      if (typeof mod.enhance === 'function') {
        mod.enhance(el);
      } else {
        const [react, dom] = await Promise.all([import('react'), import('./hmrReactDom.mts')]);
        const { createElement } = (react as any).createElement ? react : (react as any).default;
        await adoptIslandImages(el);
        dom.hydrateRoot(el, createElement(mod.default, JSON.parse(el.dataset.props || '{}')), { identifierPrefix: el.dataset.prefix || '' });
      }
      el.setAttribute('data-hydrated', '');
    } catch (e) {
      console.error(`sitegen: island ${name} failed`, e);
    }
  }

  (window as any).__sitegenHmr = {
    has: (name: string) => name in loaders,
    mount,
    retarget(name: string, url: string) { const u = fresh(url); loaders[name] = () => import(/* a URL from the dev server */ u); },
    unmount(el: Element) {
      const root = roots.get(el);
      roots.delete(el);
      // Deferred: React does not unmount a root while it renders (a morph may run inside an event).
      if (root) queueMicrotask(() => root.unmount());
    },
    /** Whether the island took a new module (false: this one was applied already). */
    async update(name: string, url: string, react: boolean): Promise<boolean> {
      if (applied.get(name) === url) return false;
      applied.set(name, url);
      const u = fresh(url);
      const load = () => import(/* a URL from the dev server */ u) as Promise<IslandModule>;
      await load();
      loaders[name] = load;
      if (!react) return true;
      // A root an error took down has no tree to refresh: the page reloads (the client's catch), as its overlay says.
      const els = document.querySelectorAll(`sitegen-island[data-island="${CSS.escape(name)}"]`);
      if ([...els].some((el) => { const r = roots.get(el); return !!r && dead.has(r); })) throw new Error(`island ${name} was unmounted by an error`);
      // Throws when a mounted root cannot take the new components; the client then reloads the page.
      runtime.performReactRefresh();
      return true;
    },
  };
}
