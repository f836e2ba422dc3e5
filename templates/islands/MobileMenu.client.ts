// Browser behaviour of the mobile menu, without React: aria-expanded follows the <details> state; Escape
// closes it and returns focus to the toggle; following a link, clicking outside or moving focus out of it
// (Tab past its last link, Shift+Tab before its toggle) closes it, so focus never sits behind the open panel.
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
  details.addEventListener('focusout', (e) => {
    const to = e.relatedTarget as Node | null;
    if (details.open && to && !details.contains(to)) close();
  });
  document.addEventListener('pointerdown', (e) => {
    if (details.open && !details.contains(e.target as Node)) close();
  });
}
