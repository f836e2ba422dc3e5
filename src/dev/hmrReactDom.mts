// Dev only: react-dom/client as the hydration runtime (src/islands/client.ts) sees it in `sitegen dev`.
// The same functions, except that each root is remembered by its element, so a hot update can unmount the
// island a changed page no longer has (src/dev/hmrRuntime.ts). Production bundles import react-dom directly.
// An .mts file: always an ES module to esbuild, so React's chunk comes out the same in every dev rebuild.
import * as real from 'react-dom/client';
import { roots } from './hmrShared.ts';

const dom: typeof real = (real as any).hydrateRoot ? real : (real as any).default;

export const createRoot: typeof real.createRoot = (el, opts) => {
  const root = dom.createRoot(el, opts);
  roots.set(el as Element, root);
  return root;
};

export const hydrateRoot: typeof real.hydrateRoot = (el, node, opts) => {
  const root = dom.hydrateRoot(el, node, opts);
  roots.set(el as Element, root);
  return root;
};
