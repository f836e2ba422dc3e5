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
import { defineIsland } from '../render/island.tsx';
import { ISLAND_HELPER } from './esbuildPlugins.ts';

/** A CommonJS package's exports as its own `require` gives them (an ES namespace keeps them as `default`). */
const cjs = (ns: object): unknown => ('default' in ns && (ns as { default: unknown }).default) || ns;

export function providedModules(): Record<string, unknown> {
  return {
    react: cjs(React),
    'react/jsx-runtime': cjs(jsxRuntime),
    'react/jsx-dev-runtime': cjs(jsxDevRuntime),
    zod,
    sitegen: publicApi,
    'sitegen-islands': publicApi,
    [ISLAND_HELPER]: { defineIsland },
  };
}
