// A documentation page: the sidebar of every page, then the page's Markdown.
import { href } from 'sitegen-islands';

export interface NavItem { path: string; title: string }

function Sidebar({ nav, current }: { nav: NavItem[]; current?: string }) {
  return (
    <nav className="sidebar" aria-label="Documentation">
      <ul>
        {nav.map((item) => (
          <li key={item.path}>
            <a href={href(item.path)} aria-current={item.path === current ? 'page' : undefined}>{item.title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function DocPage({ title, html, nav, current }: { title: string; html: string; nav: NavItem[]; current: string }) {
  return (
    <div className="frame">
      <Sidebar nav={nav} current={current} />
      <main id="main" className="doc">
        <h1>{title}</h1>
        {/* The page's Markdown, rendered at build time. */}
        <div dangerouslySetInnerHTML={{ __html: html }} />
      </main>
    </div>
  );
}

export function NotFound({ nav }: { nav: NavItem[] }) {
  return (
    <div className="frame">
      <Sidebar nav={nav} />
      <main id="main" className="doc">
        <h1>Page not found</h1>
        <p><a href={href('/')}>Back to Getting started</a></p>
      </main>
    </div>
  );
}
