// Server side of the island protocol. An island renders its own HTML with renderToString (so the
// client can hydrate exactly that) inside <sitegen-island> carrying its name, JSON props and an id prefix.
// Props travel in an attribute, never an inline script, so a strict CSP (script-src 'self') holds.
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { withHtmlChildren } from '../islands/children.ts';
import { CALL_SITE, errorAtCallSite } from './callSite.ts';
import { noteIslandImages, withImageSink } from './images.ts';

export type HydrateMode = 'load' | 'idle' | 'visible';

interface PageIslands {
  used: Set<string>;
  eager: Set<string>;
  count: number;
  /** The first element of a component that is no island given `hydrate`, and where the template wrote it. */
  stray?: { name: string; hydrate: unknown; at: Error };
}

let current: PageIslands | null = null;

/** Collects the islands one page render uses; rendering is synchronous, so a module slot is safe. */
export function collectIslands<T>(fn: () => T): { value: T; islands: string[]; eager: string[] } {
  const prev = current;
  current = { used: new Set(), eager: new Set(), count: 0 };
  try {
    const value = fn();
    // `hydrate` on a component that is no island does nothing: on a page with no island at all (so not a
    // wrapper handing it on to one), the component never runs in the browser, which its author expected.
    const stray = current.stray;
    if (stray && current.used.size === 0) {
      throw errorAtCallSite({ [CALL_SITE]: stray.at }, `<${stray.name} hydrate=${JSON.stringify(stray.hydrate)}>: ${stray.name} is not an island, so hydrate does nothing and it never runs in the browser. Make it an island: the default export of a file in templates/islands/`, Error);
    }
    return { value, islands: [...current.used].sort(), eager: [...current.eager].sort() };
  } finally {
    current = prev;
  }
}

/** Notes an element of a component that is not an island given `hydrate` (site/provided.ts's JSX runtime). */
export function noteStrayHydrate(name: string, hydrate: unknown, at: Error): void {
  if (current && !current.stray) current.stray = { name, hydrate, at };
}

export class IslandPropsError extends Error {}

function assertJson(value: unknown, where: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') { if (!Number.isFinite(value)) throw new IslandPropsError(`${where} is ${value}, which JSON cannot carry`); return; }
  if (Array.isArray(value)) { value.forEach((v, i) => assertJson(v, `${where}[${i}]`)); return; }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value as object)) if (v !== undefined) assertJson(v, `${where}.${k}`);
    return;
  }
  if (value instanceof Date) throw new IslandPropsError(`${where} is a Date, which JSON carries as a string; pass date.toISOString() and make the Date in the island`);
  if (value instanceof Map || value instanceof Set) throw new IslandPropsError(`${where} is a ${value instanceof Map ? 'Map' : 'Set'}; island props must be plain JSON (pass an array: [...value])`);
  throw new IslandPropsError(`${where} is ${typeof value === 'object' ? 'an object of a class' : `a ${typeof value}`}; island props must be plain JSON`);
}

/** How many islands' server renders are running (an island's own render may reach another island). */
let insideIsland = 0;

/**
 * Wraps an island component; the build's esbuild plugin applies it to every import of templates/islands/*.
 * An `enhance` island (Name.client.ts) gets no props in the browser: its script reads the server HTML.
 */
export function defineIsland<P extends object>(name: string, Component: ComponentType<P>, opts: { enhance?: boolean } = {}) {
  function Island(allProps: P & { hydrate?: HydrateMode }) {
    const { hydrate = 'load', ...props } = allProps as any;
    // Inside another island (through a helper it imports), it is part of that island's HTML and code: the
    // browser renders it as a plain component there, so the server does too (no wrapper, no script of its own).
    if (insideIsland > 0) return createElement(Component, props);
    if (!opts.enhance) {
      try { assertJson(props, `island ${name}: props`); } catch (e) {
        throw e instanceof IslandPropsError ? errorAtCallSite(allProps, e.message, IslandPropsError) : e;
      }
    }
    const page = current;
    const index = page ? page.count++ : 0;
    page?.used.add(name);
    if (hydrate === 'load') page?.eager.add(name);
    const prefix = `i${index}-`;
    let rendered: ReturnType<typeof withImageSink<string>>;
    insideIsland++;
    // The static images it shows (<Image>, image()) go with it: in the browser it renders them again from
    // what the server knew of them (islands/islandImages.ts), not from a table the browser does not have.
    try { rendered = withImageSink(() => { if (!opts.enhance) noteIslandImages(props); return renderToString(createElement(Component, withHtmlChildren(props, createElement as any)), { identifierPrefix: prefix }); }); } finally { insideIsland--; }
    const html = rendered.value;
    return createElement('sitegen-island', {
      'data-island': name,
      'data-props': opts.enhance ? undefined : JSON.stringify(props),
      'data-images': opts.enhance || !rendered.images ? undefined : JSON.stringify(rendered.images),
      'data-hydrate': hydrate,
      'data-prefix': prefix,
      dangerouslySetInnerHTML: { __html: html },
    });
  }
  Island.displayName = `Island(${name})`;
  // Marks the island for Markdown components (render/components.tsx): its children go as HTML.
  (Island as { sitegenIsland?: string }).sitegenIsland = name;
  return Island;
}
