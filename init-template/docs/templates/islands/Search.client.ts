// The search box in the browser. Every word typed must appear somewhere in a page (its title, section,
// description, excerpt or headings); a page whose title holds the words comes first, and a page where a
// heading holds them links straight to that heading. Keys: Ctrl+K (⌘K on a Mac) focuses the box (a key with a
// modifier: a lone "/" would fire while someone types with a speech or switch tool), the down and up arrows
// move between the box and the results, Escape empties the box; the results close when focus leaves them.
interface Heading { text: string; path: string }
interface Page { title: string; path: string; section: string | null; description: string; excerpt: string; headings: Heading[] }
interface Match { page: Page; heading: Heading | null; rank: number }

const MAX = 8;
const lower = (s: string) => s.toLocaleLowerCase();
const holdsAll = (text: string, words: string[]) => words.every((w) => text.includes(w));

function find(pages: Page[], words: string[]): Match[] {
  const found: Match[] = [];
  for (const page of pages) {
    const title = lower(page.title);
    const all = lower([page.title, page.section ?? '', page.description, page.excerpt, ...page.headings.map((h) => h.text)].join(' '));
    if (!holdsAll(all, words)) continue;
    const heading = page.headings.find((h) => holdsAll(lower(h.text), words)) ?? null;
    found.push({ page, heading: holdsAll(title, words) ? null : heading, rank: holdsAll(title, words) ? 0 : heading ? 1 : 2 });
  }
  // (a stable sort: within a rank, the index's order, which is the sidebar's)
  return found.sort((a, b) => a.rank - b.rank).slice(0, MAX);
}

export function enhance(root: HTMLElement): void {
  const box = root.querySelector<HTMLElement>('.search');
  const input = box?.querySelector<HTMLInputElement>('input');
  const list = box?.querySelector<HTMLUListElement>('.search-results');
  const status = box?.querySelector<HTMLElement>('#search-status');
  if (!box || !input || !list || !status) return;
  let pages: Promise<Page[]> | null = null;
  const load = () => (pages ??= fetch(box.dataset.index!).then((r) => {
    if (!r.ok) throw new Error(`${r.status}`);
    return r.json() as Promise<Page[]>;
  }).catch(() => { pages = null; return [] as Page[]; }));

  let asked = 0;
  const show = async () => {
    const query = input.value;
    const words = lower(query).split(/\s+/).filter(Boolean);
    const turn = ++asked;
    const matches = words.length ? find(await load(), words) : [];
    if (turn !== asked) return; // a later keystroke answers instead
    list.replaceChildren(...matches.map(({ page, heading }) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = heading ? heading.path : page.path;
      link.textContent = heading ? `${page.title} › ${heading.text}` : page.title;
      const about = document.createElement('span');
      about.textContent = page.section ? `${page.section} · ${page.description}` : page.description;
      item.append(link, about);
      return item;
    }));
    status.textContent = !words.length ? '' : matches.length ? `${matches.length} result${matches.length === 1 ? '' : 's'}` : `No page matches “${query.trim()}”`;
  };

  const links = () => [...list.querySelectorAll('a')];
  // The results show while focus is in the box or on a result: tabbing or clicking away closes them.
  box.addEventListener('focusin', () => { void load(); box.dataset.open = ''; });
  box.addEventListener('focusout', (e) => { if (!box.contains(e.relatedTarget as Node | null)) delete box.dataset.open; });
  input.addEventListener('input', () => { void show(); });
  box.addEventListener('keydown', (e) => {
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (e.key === 'Escape') { input.value = ''; void show(); input.focus(); }
    else if (e.key === 'ArrowDown' && all.length) all[Math.min(at + 1, all.length - 1)]!.focus();
    else if (e.key === 'ArrowUp' && at >= 0) (at === 0 ? input : all[at - 1]!).focus();
    else return;
    e.preventDefault();
  });
  document.addEventListener('keydown', (e) => {
    // (a keydown with no key, as a browser's autofill sends, is no shortcut)
    if (typeof e.key !== 'string' || e.key.toLowerCase() !== 'k' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    e.preventDefault();
    input.focus();
    input.select();
  });
  // A click on a result keeps the focus in the box until the link is followed (Safari focuses no link on a
  // click: the box would lose focus first, close the results, and the click would land on the page).
  list.addEventListener('mousedown', (e) => e.preventDefault());
  box.dataset.state = 'on';
}
