// Makes the server-rendered FAQ list an accordion without React: one open at a time, none at first.
export function enhance(root: HTMLElement): void {
  const faq = root.querySelector<HTMLElement>('.faq');
  if (!faq) return;
  const items = [...faq.querySelectorAll<HTMLElement>('.faq__item')].map((item) => {
    const label = item.querySelector<HTMLElement>('.faq__question')!;
    const answer = item.querySelector<HTMLElement>('.faq__answer')!;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'faq__question';
    button.textContent = label.textContent;
    button.setAttribute('aria-controls', answer.id);
    label.replaceWith(button);
    return { item, button, answer };
  });
  const show = (open: number | null) => items.forEach(({ item, button, answer }, i) => {
    const expanded = i === open;
    item.dataset.open = String(expanded);
    button.setAttribute('aria-expanded', String(expanded));
    answer.hidden = !expanded;
  });
  let open: number | null = null;
  items.forEach(({ button }, i) => button.addEventListener('click', () => { open = open === i ? null : i; show(open); }));
  show(null);
  faq.classList.remove('faq--static');
}
