// The frame of every page: a skip link, the header (with the search box) and the footer. Each page renders its own sidebar and
// main landmark (DocFrame in pages.tsx). The engine writes <html>, <head> and <body>.
import { href, type LayoutProps } from 'sitegen-islands';
import Search from './islands/Search.tsx';

export function Layout({ children }: LayoutProps) {
  return (
    <>
      <a className="skip-link" href="#main">Skip to the content</a>
      <header className="site-header">
        <a href={href('/')} className="brand">My docs</a>
        <a href={href('/getting-started/installation')} className="start">Get started</a>
        <Search index={href('/search.json')} hydrate="idle" />
      </header>
      {children}
      <footer className="site-footer">
        <p>Built with sitegen.</p>
      </footer>
    </>
  );
}
