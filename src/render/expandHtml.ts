// The Markdown components of a body's HTML, for text a route's `body` writes (feeds: src/output/feed.ts): set
// by render/document.tsx around a `body` call to the site's component renderer, so a feed carries the
// components' HTML, not their placeholders. No imports: feed.ts is part of the browser-safe public API.
let expander: ((html: string) => string) | null = null;

/** Sets (or clears) the renderer `expandHtml` uses while a `body` route renders. */
export function setHtmlExpander(fn: ((html: string) => string) | null): void { expander = fn; }

/** HTML with its Markdown components rendered (as it is outside a `body` route, or without components). */
export function expandHtml(html: string): string { return expander ? expander(html) : html; }
