// A documentation page: the sidebar of every page, then the page's Markdown.
import type { ReactNode } from 'react';
import { href } from 'sitegen-islands';

export interface NavItem { path: string; title: string; description: string }

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

/** Every page: the sidebar, then the page's own content as the main landmark. */
function Frame({ nav, current, children }: { nav: NavItem[]; current?: string; children: ReactNode }) {
  return (
    <div className="frame">
      <Sidebar nav={nav} current={current} />
      <main id="main" className="doc">{children}</main>
    </div>
  );
}

export function DocHome({ nav }: { nav: NavItem[] }) {
  return (
    <Frame nav={nav} current="/">
        <h1>sitegen documentation</h1>
        <p>
          sitegen builds static sites from YAML and Markdown content checked against zod schemas, and React
          components rendered at build time. Pages ship no JavaScript unless they use an island.
        </p>
        <dl className="topics">
          {nav.map((item) => (
            <div key={item.path}>
              <dt><a href={href(item.path)}>{item.title}</a></dt>
              <dd>{item.description}</dd>
            </div>
          ))}
        </dl>
    </Frame>
  );
}

export interface Heading { text: string; id: string }

/** The page's own sections (its level-2 headings), when it has enough of them to need a list. */
function OnThisPage({ contents }: { contents: Heading[] }) {
  if (contents.length < 3) return null;
  return (
    <nav className="on-page" aria-label="On this page">
      <h2>On this page</h2>
      <ul>{contents.map((h) => <li key={h.id}><a href={`#${h.id}`}>{h.text}</a></li>)}</ul>
    </nav>
  );
}

export function DocPage({ title, html, nav, current, contents }: { title: string; html: string; nav: NavItem[]; current: string; contents: Heading[] }) {
  return (
    <Frame nav={nav} current={current}>
        <h1>{title}</h1>
        <OnThisPage contents={contents} />
        {/* The page's Markdown, rendered at build time. */}
        <div dangerouslySetInnerHTML={{ __html: html }} />
    </Frame>
  );
}

export interface ErrorDoc { id: string; title: string; message: string; hint: string; example: string }

export function ErrorReference({ errors, nav, current }: { errors: ErrorDoc[]; nav: NavItem[]; current: string }) {
  return (
    <Frame nav={nav} current={current}>
        <h1>Error reference</h1>
        <p>
          Every error sitegen reports has an id (<code>id</code> in <code>--json</code> output) from this list. The
          message of a particular error says what and where; the hint is printed under it.
        </p>
        <ul className="error-index">
          {errors.map((e) => <li key={e.id}><a href={`#${e.id}`}>{e.id}</a></li>)}
        </ul>
        {errors.map((e) => (
          <section key={e.id} aria-labelledby={e.id}>
            <h2 id={e.id}>{e.id}: {e.title}</h2>
            <p>{e.message}</p>
            <p><strong>Hint:</strong> {e.hint}</p>
            <pre><code>{e.example.trimEnd()}</code></pre>
          </section>
        ))}
    </Frame>
  );
}

export function NotFound({ nav }: { nav: NavItem[] }) {
  return (
    <Frame nav={nav}>
        <h1>Page not found</h1>
        <p><a href={href('/')}>Back to the documentation's home page</a></p>
    </Frame>
  );
}
