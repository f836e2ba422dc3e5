// Turns the server-rendered tabs into the WAI-ARIA tabs pattern: a tablist of buttons, one panel shown.
// Focus moves between the labels with the arrow keys (Home and End for the first and last) and shows the
// tab it lands on; Tab moves on into the shown panel.
let groups = 0;

export function enhance(root: HTMLElement): void {
  const box = root.querySelector<HTMLElement>('.tabs');
  if (!box) return;
  // Its own tabs only (in Markdown they sit in a <sitegen-children> element), not those of tabs inside it.
  const panels = [...box.querySelectorAll<HTMLElement>('.tab')].filter((p) => p.parentElement?.closest('.tabs') === box);
  if (!panels.length) return;
  const group = `tabs-${++groups}`;
  const list = document.createElement('div');
  list.setAttribute('role', 'tablist');
  const tabs = panels.map((panel, i) => {
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.id = `${group}-tab-${i}`;
    tab.setAttribute('role', 'tab');
    tab.textContent = panel.dataset.label ?? `Tab ${i + 1}`;
    panel.id = `${group}-panel-${i}`;
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
    panel.tabIndex = 0;
    panel.querySelector(':scope > .tab-label')?.remove();
    tab.setAttribute('aria-controls', panel.id);
    list.append(tab);
    return tab;
  });
  const show = (index: number, focus: boolean) => {
    tabs.forEach((tab, i) => {
      const selected = i === index;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      panels[i]!.hidden = !selected;
    });
    if (focus) tabs[index]!.focus();
  };
  tabs.forEach((tab, i) => tab.addEventListener('click', () => show(i, false)));
  list.addEventListener('keydown', (e) => {
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const to = e.key === 'ArrowRight' ? (at + 1) % tabs.length
      : e.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length
        : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    show(to, true);
  });
  box.prepend(list);
  box.classList.add('tabs-enhanced');
  show(0, false);
}
