// The page components the routes in sitegen.config.ts render.
import type { ReactNode } from 'react';
import { href } from 'sitegen-islands';

export interface NavLink { path: string; title: string }
/** A group of the sidebar; the first (the home page) has no title. */
export interface NavSection { title: string | null; links: NavLink[] }
export interface TocItem { id: string; text: string; depth: number }

function NavList({ nav, current }: { nav: NavSection[]; current: string }) {
  return (
    <>
      {nav.map((s, i) => (
        <div key={s.title ?? i} className="nav-section">
          {s.title ? <h2>{s.title}</h2> : null}
          <ul>
            {s.links.map((l) => (
              <li key={l.path}><a href={href(l.path)} aria-current={l.path === current ? 'page' : undefined}>{l.title}</a></li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

/**
 * The sidebar and the page's main landmark. Wide screens show the sidebar beside the page; narrow ones a
 * "Browse the docs" button above it that opens the same list over the page (an HTML popover: no script, and
 * Escape or a click outside closes it). The list is written once per page: a site of 1,000 pages holds it
 * 1,000 times.
 */
function DocFrame({ nav, current, children }: { nav: NavSection[]; current: string; children: ReactNode }) {
  return (
    <div className="frame">
      <button type="button" className="nav-toggle" popoverTarget="docs-nav">Browse the docs</button>
      <nav id="docs-nav" className="sidebar" aria-label="Documentation" popover="auto">
        <NavList nav={nav} current={current} />
      </nav>
      <main id="main" tabIndex={-1}>{children}</main>
    </div>
  );
}

export interface DocProps {
  title: string; description: string; section: string | null; entry: { html?: string }; nav: NavSection[]; current: string;
  toc: TocItem[]; prev: NavLink | null; next: NavLink | null;
}

export function DocPage({ title, description, section, entry, nav, current, toc, prev, next }: DocProps) {
  return (
    <DocFrame nav={nav} current={current}>
      <div className="doc">
        <header className="doc-header">
          {section ? <p className="section">{section}</p> : null}
          <h1>{title}</h1>
          <p className="lead">{description}</p>
        </header>
        {toc.length ? (
          <nav className="toc" aria-label="On this page">
            <h2>On this page</h2>
            <ul>
              {toc.map((h) => <li key={h.id} className={h.depth === 3 ? 'sub' : undefined}><a href={`#${h.id}`}>{h.text}</a></li>)}
            </ul>
          </nav>
        ) : null}
        {/* The page's Markdown, rendered at build time. */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} />
        {prev || next ? (
          <nav className="prev-next" aria-label="Previous and next page">
            {prev ? <a href={href(prev.path)} rel="prev"><span>Previous</span>{prev.title}</a> : <span />}
            {next ? <a href={href(next.path)} rel="next"><span>Next</span>{next.title}</a> : <span />}
          </nav>
        ) : null}
      </div>
    </DocFrame>
  );
}

export function NotFound({ nav }: { nav: NavSection[] }) {
  return (
    <DocFrame nav={nav} current="">
      <div>
        <h1>Page not found</h1>
        <p><a href={href('/')}>Back to the introduction</a>, or pick a page from the list.</p>
      </div>
    </DocFrame>
  );
}
