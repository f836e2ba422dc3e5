// Shared header: brand, Solutions dropdown and main links (desktop), a collapsible menu (mobile).
// Without JavaScript the dropdown opens on hover and focus (CSS) and the menu is a <details>.
import type { Site } from '../schemas/site.ts';
import { href } from '../lib/props.ts';
import SiteNav from '../islands/SiteNav.tsx';
import MobileMenu from '../islands/MobileMenu.tsx';

export function Brand({ site }: { site: Site }) {
  return (
    <a className="brand" href="/">
      <span className="brand__mark" aria-hidden="true">G</span>
      <span>{site.name}</span>
    </a>
  );
}

export function Header({ site, path }: { site: Site; path: string }) {
  const { nav } = site;
  const solutions = nav.solutions.map((l) => ({ ...l, href: href(l.href) }));
  const links = nav.links.map((l) => ({ ...l, href: href(l.href) }));
  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <Brand site={site} />
        <nav className="nav" aria-label="Main">
          <SiteNav solutionsLabel={nav.solutionsLabel} solutions={solutions} links={links} currentPath={path} closeDelayMs={site.constants.dropdownCloseDelayMs} />
        </nav>
        <MobileMenu label={nav.menuLabel} solutionsLabel={nav.solutionsLabel} solutions={solutions} links={links} />
      </div>
    </header>
  );
}
