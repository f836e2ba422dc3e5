import type { Entry, LayoutProps } from 'sitegen-islands';

const AREAS = ['guides', 'reference', 'blog', 'tutorials', 'news', 'docs', 'community', 'release-notes', 'how-to', 'concepts'];
// page-<i> lives in AREAS[i % 10], so /guides/page-0/ … /concepts/page-9/ are ten real pages (any N ≥ 10).
const NAV = AREAS.map((area, i) => ({ href: `/${area}/page-${i}/`, label: area }));

export function Layout({ children }: LayoutProps) {
  return (
    <>
      <header><a href={NAV[0].href}>Bench site</a></header>
      <nav aria-label="Areas"><ul>{NAV.map((n) => <li key={n.href}><a href={n.href}>{n.label}</a></li>)}</ul></nav>
      <main>{children}</main>
      <footer><p>© Bench site. Generated for benchmarking.</p></footer>
    </>
  );
}

interface PageProps { title: string; tagline: string; description: string; features: string[]; entry: Entry }

export function Page({ title, tagline, description, features, entry }: PageProps) {
  return (
    <article>
      <h1>{title}</h1>
      <p className="tagline">{tagline}</p>
      <p className="description">{description}</p>
      <ul className="features">{features.map((f, i) => <li key={i}>{f}</li>)}</ul>
      <div className="body" dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} />
    </article>
  );
}
