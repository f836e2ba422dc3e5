// Shared header: brand, Solutions dropdown and main links (desktop), a "Join waitlist" link on every page,
// and a collapsible menu (mobile). Without JavaScript the dropdown opens on hover and focus (CSS) and the
// menu is a <details>. The join link points at the home page's form (#join); SiteNav.client.ts retargets it
// to the page's own form when the page has one. Below 400 px the wordmark sits on two lines and the menu
// toggle shows its icon only (its name stays "Menu"), so brand, join link and menu fit in 320 px.
import type { Site } from '../schemas/site.ts';
import { href, JOIN_ANCHOR } from '../lib/props.ts';
import SiteNav from '../islands/SiteNav.tsx';
import MobileMenu from '../islands/MobileMenu.tsx';

export function Brand({ site }: { site: Site }) {
  return (
    <a className="brand" href="/">
      <span className="brand__mark" aria-hidden="true">G</span>
      <span className="brand__name">{site.name}</span>
    </a>
  );
}

export function Header({ site, path }: { site: Site; path: string }) {
  const { nav } = site;
  const solutions = nav.solutions.map((l) => ({ ...l, href: href(l.href) }));
  const links = nav.links.map((l) => ({ ...l, href: href(l.href) }));
  const home = href('/');
  const joinHref = path === home ? `#${JOIN_ANCHOR.id}` : `${home}#${JOIN_ANCHOR.id}`;
  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <Brand site={site} />
        <nav className="nav" aria-label="Main">
          <SiteNav solutionsLabel={nav.solutionsLabel} solutions={solutions} links={links} currentPath={path} closeDelayMs={site.constants.dropdownCloseDelayMs} />
        </nav>
        <div className="site-header__actions">
          <a className="btn btn--primary header-cta" href={joinHref}>{nav.join}</a>
          <MobileMenu label={nav.menuLabel} solutionsLabel={nav.solutionsLabel} linksLabel={nav.linksLabel} solutions={solutions} links={links} currentPath={path} />
        </div>
      </div>
    </header>
  );
}
