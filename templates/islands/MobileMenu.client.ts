// Browser behaviour of the mobile menu, without React: aria-expanded follows the <details> state; Escape
// closes it and returns focus to the toggle; following a link or clicking outside closes it.
export function enhance(root: HTMLElement): void {
  const details = root.querySelector('details');
  const summary = details?.querySelector('summary');
  if (!details || !summary) return;
  const sync = () => summary.setAttribute('aria-expanded', String(details.open));
  details.addEventListener('toggle', sync);
  sync();
  // The toggle event comes a task later; close() updates the state at once.
  const close = () => { details.open = false; sync(); };
  details.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && details.open) { close(); summary.focus(); }
  });
  details.addEventListener('click', (e) => {
    if ((e.target as HTMLElement).closest('a')) close();
  });
  document.addEventListener('pointerdown', (e) => {
    if (details.open && !details.contains(e.target as Node)) close();
  });
}
