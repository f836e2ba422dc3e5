// Enhances the Search island: the index loads once, on the first focus or keystroke; every word typed must
// appear in a page's title or text; titles matches rank first. Results are links, reached with Tab.
interface Doc { path: string; title: string; text: string }

export function enhance(root: HTMLElement): void {
  const box = root.querySelector<HTMLElement>('.search');
  if (!box) return;
  const input = box.querySelector<HTMLInputElement>('input')!;
  const list = box.querySelector<HTMLUListElement>('.search-results')!;
  const status = box.querySelector<HTMLElement>('#search-status')!;
  let docs: Promise<Doc[]> | null = null;
  const load = () => (docs ??= fetch(box.dataset.index!).then((r) => r.json() as Promise<Doc[]>));

  const render = async () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    list.replaceChildren();
    if (!words.length) { status.textContent = ''; return; }
    const all = await load();
    const found = all
      .map((d) => ({ d, title: d.title.toLowerCase(), text: d.text.toLowerCase() }))
      .filter(({ title, text }) => words.every((w) => title.includes(w) || text.includes(w)))
      .sort((a, b) => Number(words.some((w) => b.title.includes(w))) - Number(words.some((w) => a.title.includes(w))))
      .slice(0, 8);
    for (const { d, text } of found) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = d.path;
      a.textContent = d.title;
      const at = text.indexOf(words[0]!);
      const p = document.createElement('span');
      p.textContent = at < 0 ? d.text.slice(0, 90) : `…${d.text.slice(Math.max(0, at - 40), at + 60)}…`;
      li.append(a, p);
      list.append(li);
    }
    status.textContent = found.length ? `${found.length} pages found` : 'No page found';
  };

  input.addEventListener('focus', () => { void load(); }, { once: true });
  input.addEventListener('input', () => { void render(); });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { input.value = ''; void render(); }
  });
  box.dataset.state = 'on';
}
