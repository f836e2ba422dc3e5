// The mobile menu (server HTML): a <details> disclosure, so it opens and closes without JavaScript. The link
// to the current page carries aria-current="page" (and its style). MobileMenu.client.ts keeps aria-expanded in
// step and closes it on Escape, on a link, a click outside, or when focus leaves it.
export interface MobileMenuProps {
  label: string;
  solutionsLabel: string;
  linksLabel: string;
  solutions: { label: string; href: string }[];
  links: { label: string; href: string }[];
  currentPath: string;
}

export default function MobileMenu({ label, solutionsLabel, linksLabel, solutions, links, currentPath }: MobileMenuProps) {
  const current = (h: string) => (h === currentPath ? 'page' : undefined);
  const item = (l: { label: string; href: string }) => <li key={l.href}><a href={l.href} aria-current={current(l.href)}>{l.label}</a></li>;
  return (
    <details className="mobile-menu">
      <summary aria-expanded="false" aria-controls="mobile-menu-panel"><span className="mobile-menu__icon" aria-hidden="true" /><span className="mobile-menu__label">{label}</span></summary>
      <nav className="mobile-menu__panel" id="mobile-menu-panel" aria-label="Mobile">
        <p className="mobile-menu__heading">{solutionsLabel}</p>
        <ul>{solutions.map(item)}</ul>
        <p className="mobile-menu__heading">{linksLabel}</p>
        <ul>{links.map(item)}</ul>
      </nav>
    </details>
  );
}
