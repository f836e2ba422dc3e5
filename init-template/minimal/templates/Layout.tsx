// The frame of every page: header, main content, footer. The engine writes <html>, <head> and <body>.
import { href, type LayoutProps } from 'sitegen-islands';

export function Layout({ children }: LayoutProps) {
  return (
    <>
      <header className="site-header">
        <a href={href('/')} className="brand">My site</a>
      </header>
      <main>{children}</main>
      <footer className="site-footer">
        <p>Built with sitegen.</p>
      </footer>
    </>
  );
}
