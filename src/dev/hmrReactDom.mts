// Dev only: react-dom/client as the hydration runtime (src/islands/client.ts) sees it in `sitegen dev`.
// The same functions, except that each root is remembered by its element, so a hot update can unmount the
// island a changed page no longer has (src/dev/hmrRuntime.ts). Production bundles import react-dom directly.
// An .mts file: always an ES module to esbuild, so React's chunk comes out the same in every dev rebuild.
import * as real from 'react-dom/client';
import { dead, roots } from './hmrShared.ts';

const dom: typeof real = (real as any).hydrateRoot ? real : (real as any).default;

/** The root's options, with an error that takes its tree down noted (dead) and reported as React reports it:
 *  an uncaught error of the page (the dev client sends it to the terminal and the overlay), its component stack
 *  in the console. */
function watched<O extends { onUncaughtError?: (error: unknown, info: { componentStack?: string }) => void }>(opts: O | undefined, root: () => object | undefined): O {
  return {
    ...opts,
    onUncaughtError(error: unknown, info: { componentStack?: string }) {
      const r = root();
      if (r) dead.add(r);
      if (opts?.onUncaughtError) { opts.onUncaughtError(error, info); return; }
      console.warn(`An island threw and React unmounted it; fix it and the page reloads.${info.componentStack ?? ''}`);
      reportError(error);
    },
  } as O;
}

export const createRoot: typeof real.createRoot = (el, opts) => {
  let root: real.Root | undefined;
  root = dom.createRoot(el, watched(opts, () => root));
  roots.set(el as Element, root);
  return root;
};

export const hydrateRoot: typeof real.hydrateRoot = (el, node, opts) => {
  let root: real.Root | undefined;
  root = dom.hydrateRoot(el, node, watched(opts, () => root));
  roots.set(el as Element, root);
  return root;
};
