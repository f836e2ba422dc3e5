// The frame of every page: a skip link, the header with the site's navigation, the page, the footer.
// The engine writes <html>, <head> and <body>.
import { href, type LayoutProps } from 'sitegen-islands';

const NAV = [
  { path: '/', label: 'Posts' },
  { path: '/tags', label: 'Tags' },
];

export function Layout({ route, children }: LayoutProps) {
  const here = (path: string) => (path === '/' ? route.path === '/' || route.path.startsWith('/page/') : route.path.startsWith(path));
  return (
    <>
      <a className="skip-link" href="#main">Skip to the content</a>
      <header className="site-header">
        <a href={href('/')} className="brand">My blog</a>
        <nav aria-label="Site">
          <ul>
            {NAV.map((n) => (
              <li key={n.path}><a href={href(n.path)} aria-current={here(n.path) ? 'page' : undefined}>{n.label}</a></li>
            ))}
            <li><a href={href('/rss.xml')}>RSS</a></li>
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>{children}</main>
      <footer className="site-footer">
        <p>Built with sitegen. <a href={href('/rss.xml')}>Subscribe to the RSS feed</a>.</p>
      </footer>
    </>
  );
}
