// The static images an island shows, in the browser: its server render noted what it looked up
// (render/images.ts withImageSink) in the island's data-images attribute; taken into the table the browser's
// <Image> and image() read (render/images.ts, the module the islands import through sitegen-islands, loaded
// only for an island that has images) before the island renders, so its first render matches the server's
// HTML and a later one (a state change) shows the same images.

/** Takes in the images `el`'s server render noted (nothing to load when it noted none). */
export async function adoptIslandImages(el: HTMLElement): Promise<void> {
  const text = el.dataset.images;
  if (!text) return;
  (await import('../render/images.ts')).adoptIslandImages(text);
}
