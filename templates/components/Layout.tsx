// The shell around every page: skip link, header, main landmark, footer.
import type { LayoutProps } from 'sitegen-islands';
import type { Site } from '../schemas/site.ts';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';

export function Layout({ route, content, children }: LayoutProps) {
  const site = content.site as Site;
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <Header site={site} path={route.path} />
      <main id="main" tabIndex={-1}>{children}</main>
      <Footer site={site} />
    </>
  );
}
