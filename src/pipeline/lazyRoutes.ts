// Routing at dev's lazy start, while Markdown bodies are left to compile (content/lazyBody.ts): routes() runs
// on placeholders for the bodies' HTML, and each route that copied one gets the HTML before it renders. A
// table that holds a placeholder other than as a copy is dropped: every body is compiled (a problem in one
// ends the plan, as content problems come before routes) and routes() runs again on the real values.
import type { Message, Route } from '../core/types.ts';
import type { Routing } from './routes.ts';
import type { Called } from './siteCall.ts';
import { findHoles, speculate, type Hole } from '../content/lazyBody.ts';

export type Routed = { routed: Called<Routing>; holes: Map<Route, Hole[]> | null } | { errors: Message[] };

/** `route` runs the site's routes(); `settle` compiles every body left, giving their problems (or null). */
export async function lazyRouting(route: () => Called<Routing>, settle: () => Promise<Message[] | null>): Promise<Routed> {
  const spec = speculate(route);
  const routed = spec.value;
  const holes = routed.error || routed.value.table.issues || routed.value.table.errors.length ? null : findHoles(routed.value.table.routes, spec.reads);
  if (holes) return { routed, holes };
  const late = await settle();
  return late ? { errors: late } : { routed: route(), holes: null };
}
