// Browser behaviour of the Solutions dropdown, without React. Once enhanced, `data-open` on the dropdown
// decides (it overrides the no-JS CSS): open on pointer enter, keyboard focus, Enter/Space/click; close
// data-close-delay ms after the pointer leaves, on Escape (focus back on the button) and when focus leaves.
export function enhance(root: HTMLElement): void {
  const dropdown = root.querySelector<HTMLElement>('.dropdown');
  const button = dropdown?.querySelector<HTMLButtonElement>('button');
  if (!dropdown || !button) return;
  const closeDelayMs = Number(dropdown.dataset.closeDelay);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const set = (open: boolean) => {
    clearTimeout(timer);
    dropdown.dataset.open = String(open);
    button.setAttribute('aria-expanded', String(open));
  };
  set(false);
  dropdown.addEventListener('pointerenter', (e) => { if (e.pointerType !== 'touch') set(true); });
  dropdown.addEventListener('pointerleave', (e) => {
    if (e.pointerType === 'touch') return;
    clearTimeout(timer);
    timer = setTimeout(() => set(false), closeDelayMs);
  });
  button.addEventListener('click', () => set(button.getAttribute('aria-expanded') !== 'true'));
  // Keyboard focus opens it; a mouse click focuses the button too, and the click decides. Focus we move
  // back to the button ourselves (after Escape) must not reopen it.
  let returning = false;
  button.addEventListener('focus', () => { if (!returning && button.matches(':focus-visible')) set(true); });
  dropdown.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || dropdown.dataset.open !== 'true') return;
    set(false);
    returning = true;
    button.focus();
    returning = false;
  });
  dropdown.addEventListener('focusout', (e) => {
    if (!dropdown.contains(e.relatedTarget as Node | null)) set(false);
  });
}
