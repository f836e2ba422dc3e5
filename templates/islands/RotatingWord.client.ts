// Rotates the headline word every data-interval-ms, without React. Each change puts a fresh span in place
// of the old one (as React's key did), so the CSS entrance animation runs again; under
// prefers-reduced-motion the CSS turns the animation off and the word simply changes.
export function enhance(root: HTMLElement): void {
  const data = root.querySelector<HTMLElement>('[data-words]');
  let word = root.querySelector<HTMLElement>('.rotating-word');
  if (!data || !word) return;
  const words = JSON.parse(data.dataset.words ?? '[]') as string[];
  const intervalMs = Number(data.dataset.intervalMs);
  if (words.length < 2 || !(intervalMs > 0)) return;
  let i = 0;
  setInterval(() => {
    i = (i + 1) % words.length;
    const next = word!.cloneNode(false) as HTMLElement;
    next.dataset.word = words[i];
    next.textContent = words[i];
    word!.replaceWith(next);
    word = next;
  }, intervalMs);
}
