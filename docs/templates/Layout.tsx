// The frame of every documentation page: a header, the page, a footer. The engine writes <html> and <head>.
import type { LayoutProps } from 'sitegen-islands';
import { href } from 'sitegen-islands';
import Search from './islands/Search.tsx';

export function Layout({ children }: LayoutProps) {
  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <header className="top">
        <a href={href('/')} className="brand">sitegen <span>docs</span></a>
        <Search index={href('/search.json')} hydrate="idle" />
      </header>
      {children}
      <footer className="bottom">
        <p>sitegen: a static site generator for typed content and React templates. This site is built with it.</p>
      </footer>
    </>
  );
}
