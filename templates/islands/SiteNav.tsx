// The desktop navigation list with the Solutions dropdown (server HTML). Without JavaScript, CSS opens the
// dropdown on hover and focus-within (so Tab still reaches its links) and closes it 150 ms after the pointer
// leaves; SiteNav.client.ts makes it a disclosure button (focus alone no longer opens it; click, Enter, Space
// and Arrow Down do). The link to the current page carries aria-current="page".
export interface SiteNavProps {
  solutionsLabel: string;
  solutions: { label: string; href: string; description: string }[];
  links: { label: string; href: string }[];
  currentPath: string;
  closeDelayMs: number;
}

export default function SiteNav({ solutionsLabel, solutions, links, currentPath, closeDelayMs }: SiteNavProps) {
  const current = (h: string) => (h === currentPath ? 'page' : undefined);
  return (
    <ul className="nav__list">
      <li className="dropdown" data-close-delay={closeDelayMs}>
        <button type="button" className="nav__button" aria-expanded="false" aria-controls="solutions-menu">
          {solutionsLabel} <span className="nav__chevron" aria-hidden="true" />
        </button>
        <ul className="dropdown__panel" id="solutions-menu">
          {solutions.map((l) => (
            <li key={l.href}>
              <a className="dropdown__link" href={l.href} aria-current={current(l.href)}><strong>{l.label}</strong><span>{l.description}</span></a>
            </li>
          ))}
        </ul>
      </li>
      {links.map((l) => <li key={l.href}><a className="nav__link" href={l.href} aria-current={current(l.href)}>{l.label}</a></li>)}
    </ul>
  );
}
