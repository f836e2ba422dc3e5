// The static images an island shows, in the browser: its server render noted what it looked up
// (render/images.ts withImageSink) in the island's data-images attribute; merged here into the table the
// browser's <Image> and image() read, before the island renders, so its first render matches the server's
// HTML and a later one (a state change) shows the same images. Plain code: the browser runtime imports it.
const BROWSER_IMAGES = Symbol.for('sitegen.images'); // (render/images.ts reads it)

interface Held { table: Record<string, unknown>; settings?: unknown; remote?: readonly string[] }

/** Adds the images `el`'s server render noted to the page's table (nothing when it noted none). */
export function adoptIslandImages(el: HTMLElement): void {
  const text = el.dataset.images;
  if (!text) return;
  const g = globalThis as unknown as Record<symbol, Held | undefined>;
  const noted = JSON.parse(text) as Held;
  const held = (g[BROWSER_IMAGES] ??= { table: {} });
  Object.assign(held.table, noted.table);
  held.settings = noted.settings;
  held.remote = noted.remote;
}
