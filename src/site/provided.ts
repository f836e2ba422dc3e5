// What the engine hands the site module for its imports of the engine and of React and zod: the engine's
// own modules, so a template's hooks run in the React the engine renders with, a schema built with the
// authoring helpers (reference(), date()) is one zod's, and a value the site sets through the public API
// (href()'s URL policy, image()'s table) is the one the renderer reads. The site module is compiled with
// these specifiers left as they are (plugins.ts PROVIDED) and loaded with a `require` that answers them
// (compiled.ts); everything else it imports is required from its own path.
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as jsxDevRuntime from 'react/jsx-dev-runtime';
import * as zod from 'zod';
import * as publicApi from '../public.ts';
import { defineIsland, noteStrayHydrate } from '../render/island.tsx';
import { ISLAND_HELPER } from './esbuildPlugins.ts';
import { Image } from '../render/images.ts';
import { CALL_SITE } from '../render/callSite.ts';
import { EXPORT_REGISTRY, registerExports } from './exportRegistry.ts';

/** A CommonJS package's exports as its own `require` gives them (an ES namespace keeps them as `default`). */
const cjs = (ns: object): unknown => ('default' in ns && (ns as { default: unknown }).default) || ns;

export function providedModules(): Record<string, unknown> {
  return {
    react: cjs(React),
    'react/jsx-runtime': locatingElements(cjs(jsxRuntime) as JsxRuntime, ['jsx', 'jsxs']),
    'react/jsx-dev-runtime': locatingElements(cjs(jsxDevRuntime) as JsxRuntime, ['jsxDEV']),
    zod,
    sitegen: publicApi,
    'sitegen-islands': publicApi,
    [ISLAND_HELPER]: { defineIsland },
    [EXPORT_REGISTRY]: { registerExports },
  };
}

type JsxFactory = (type: unknown, props: Record<PropertyKey, unknown> | null, ...rest: unknown[]) => unknown;
type JsxRuntime = Record<string, unknown>;

const isIsland = (type: unknown) => typeof type === 'function' && typeof (type as { sitegenIsland?: unknown }).sitegenIsland === 'string';

/**
 * The JSX runtime with two additions: an <Image> or island element carries where the template wrote it (an
 * Error made there, render/callSite.ts: V8 reads its frames now and formats them only if the component
 * fails), so that a missing image file or alt, or an island prop JSON cannot carry, is located at the
 * template's line rather than at the page. React calls the component after the template's function has
 * returned; only these elements pay for it. And `hydrate` given to any other component is noted with its place.
 */
function locatingElements(rt: JsxRuntime, names: string[]): JsxRuntime {
  const out: JsxRuntime = { ...rt };
  for (const name of names) {
    const f = rt[name] as JsxFactory | undefined;
    if (typeof f !== 'function') continue;
    out[name] = function jsxLocated(type: unknown, props: Record<PropertyKey, unknown> | null, ...rest: unknown[]) {
      if (type === Image || isIsland(type)) return f(type, { ...props, [CALL_SITE]: new Error() }, ...rest);
      // `hydrate` given to a component that is no island (render/island.tsx says so when the page has none).
      if (props?.hydrate !== undefined && typeof type === 'function') noteStrayHydrate((type as { displayName?: string }).displayName || type.name || 'a component', props.hydrate, new Error());
      return f(type, props, ...rest);
    };
  }
  return out;
}
