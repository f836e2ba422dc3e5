// The mobile menu (server HTML): a <details> disclosure, so it opens and closes without JavaScript.
// MobileMenu.client.ts keeps aria-expanded in step and closes it on Escape, on a link, or a click outside.
export interface MobileMenuProps {
  label: string;
  solutionsLabel: string;
  solutions: { label: string; href: string }[];
  links: { label: string; href: string }[];
}

export default function MobileMenu({ label, solutionsLabel, solutions, links }: MobileMenuProps) {
  return (
    <details className="mobile-menu">
      <summary aria-expanded="false" aria-controls="mobile-menu-panel"><span className="mobile-menu__icon" aria-hidden="true" />{label}</summary>
      <nav className="mobile-menu__panel" id="mobile-menu-panel" aria-label="Mobile">
        <p className="mobile-menu__heading">{solutionsLabel}</p>
        <ul>{solutions.map((l) => <li key={l.href}><a href={l.href}>{l.label}</a></li>)}</ul>
        <ul>{links.map((l) => <li key={l.href}><a href={l.href}>{l.label}</a></li>)}</ul>
      </nav>
    </details>
  );
}
