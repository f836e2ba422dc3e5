// Dev only: what the dev bundle's modules share in the browser, as one module of that bundle (esbuild puts it
// in a shared chunk, so there is one instance): the refresh runtime's registration functions, which each
// site component module calls (dev/hmrTransform.ts), and each island's React root by its element
// (dev/hmrReactDom.mts records them and the ones an error took down, dev/hmrRuntime.ts unmounts the ones a
// morph took out).
export interface RefreshHooks {
  register(type: unknown, id: string): void;
  setSignature(type: unknown, key: string): void;
}

/** Set by the refresh runtime before any island module runs; empty on a page without it. */
export const refresh: Partial<RefreshHooks> = {};

export const roots = new WeakMap<Element, { unmount(): void }>();

/** The island roots an uncaught error unmounted (React takes such a root's tree down): a hot update cannot bring
 *  them back, a reload can. */
export const dead = new WeakSet<object>();
