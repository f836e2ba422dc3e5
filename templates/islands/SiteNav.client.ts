// Browser behaviour of the Solutions dropdown, without React: a disclosure button (ARIA Authoring Practices).
// Once enhanced, `data-open` decides (it overrides the no-JS CSS, which opens on hover and focus-within).
// Focus alone never opens it. Click, Enter and Space toggle; Arrow Down (and Up) open and move focus into the
// links, arrows/Home/End move within; Escape closes and returns focus to the button; leaving it closes it.
// A pointer opens it on hover and closes it data-close-delay ms after leaving; a click while hover holds it
// open pins it open instead of closing it. It also runs the header's page-wide jobs: the "Join waitlist"
// link goes to this page's own form when there is one and lands with its email field focused, and the
// session's first-touch UTM values are kept.
import { rememberUtm } from '../lib/utm.ts';

function retargetJoin(): void {
  const form = document.querySelector<HTMLFormElement>('main form.waitlist[id]');
  const cta = document.querySelector<HTMLAnchorElement>('.header-cta');
  if (form && cta) cta.href = `#${form.id}`;
}

/** The waitlist form the URL's #fragment names, if any. */
function targetForm(hash: string): HTMLFormElement | null {
  let id = '';
  try { id = decodeURIComponent(hash.slice(1)); } catch { return null; }
  const el = id ? document.getElementById(id) : null;
  return el instanceof HTMLFormElement && el.classList.contains('waitlist') ? el : null;
}

/**
 * Landing on a waitlist form (the header's "Join waitlist", or /#join from another page) puts the caret in
 * its email field. The browser scrolls to the form (its scroll-margin keeps it clear of the sticky header);
 * focusing does not scroll again. Following the link while already at that fragment scrolls there anew.
 */
function focusJoinTarget(): void {
  const land = () => targetForm(location.hash)?.querySelector<HTMLInputElement>('input[type="email"]')?.focus({ preventScroll: true });
  land();
  window.addEventListener('hashchange', land);
  document.querySelector<HTMLAnchorElement>('.header-cta')?.addEventListener('click', (e) => {
    const link = e.currentTarget as HTMLAnchorElement;
    if (link.pathname !== location.pathname || link.hash !== location.hash) return; // hashchange follows
    const form = targetForm(link.hash);
    if (!form) return;
    e.preventDefault();
    form.scrollIntoView({ block: 'start' });
    land();
  });
}

export function enhance(root: HTMLElement): void {
  rememberUtm();
  retargetJoin();
  focusJoinTarget();
  const dropdown = root.querySelector<HTMLElement>('.dropdown');
  const button = dropdown?.querySelector<HTMLButtonElement>('button');
  if (!dropdown || !button) return;
  const links = () => [...dropdown.querySelectorAll<HTMLAnchorElement>('.dropdown__panel a')];
  const closeDelayMs = Number(dropdown.dataset.closeDelay);
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Why it is open: a hover-open closes when the pointer leaves; a click- or key-open stays until closed.
  let openedBy: 'hover' | 'press' | null = null;
  const set = (open: boolean, by: typeof openedBy = null) => {
    clearTimeout(timer);
    openedBy = open ? by : null;
    dropdown.dataset.open = String(open);
    button.setAttribute('aria-expanded', String(open));
  };
  const isOpen = () => dropdown.dataset.open === 'true';
  set(false);

  dropdown.addEventListener('pointerenter', (e) => {
    if (e.pointerType === 'touch') return;
    clearTimeout(timer);
    if (!isOpen()) set(true, 'hover');
  });
  dropdown.addEventListener('pointerleave', (e) => {
    if (e.pointerType === 'touch' || openedBy !== 'hover') return;
    clearTimeout(timer);
    timer = setTimeout(() => set(false), closeDelayMs);
  });
  // Enter and Space on a <button> arrive here as a click too.
  button.addEventListener('click', () => {
    if (isOpen() && openedBy === 'hover') set(true, 'press');
    else set(!isOpen(), 'press');
  });
  dropdown.addEventListener('keydown', (e) => {
    const items = links();
    const at = items.indexOf(document.activeElement as HTMLAnchorElement);
    const focus = (i: number) => { e.preventDefault(); items[(i + items.length) % items.length]?.focus(); };
    if (e.key === 'Escape' && isOpen()) {
      set(false);
      button.focus();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!isOpen()) set(true, 'press');
      if (at < 0) focus(e.key === 'ArrowDown' ? 0 : items.length - 1);
      else focus(at + (e.key === 'ArrowDown' ? 1 : -1));
    } else if ((e.key === 'Home' || e.key === 'End') && at >= 0) {
      focus(e.key === 'Home' ? 0 : items.length - 1);
    }
  });
  dropdown.addEventListener('focusout', (e) => {
    if (!dropdown.contains(e.relatedTarget as Node | null)) set(false);
  });
  document.addEventListener('pointerdown', (e) => {
    if (isOpen() && !dropdown.contains(e.target as Node)) set(false);
  });
}
