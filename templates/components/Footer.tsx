// Shared footer: brand blurb, link columns, the all-policies link and the professional-network profile.
import type { Site } from '../schemas/site.ts';
import { href } from '../lib/props.ts';
import { Brand } from './Header.tsx';
import { fillTokens } from '../lib/tokens.ts';
import { factsOf } from '../pages/company/facts.ts';
import { PAINT_AFTER_ID } from '../../plugins/paintWhole.ts';

export function Footer({ site }: { site: Site }) {
  // The year the site was built, so the notice is current on every deploy without anyone editing it.
  const year = new Date().getUTCFullYear();
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="site-footer__grid">
          <div className="site-footer__brand">
            <Brand site={site} />
            <p>{fillTokens(site.footer.blurb, factsOf(site))}</p>
            <p><a href={site.professionalNetwork.url} rel="noopener">Follow us on {site.professionalNetwork.label}</a></p>
          </div>
          {site.footer.columns.map((col) => (
            <nav key={col.heading} aria-label={col.heading}>
              <h2>{col.heading}</h2>
              <ul>{col.links.map((l) => <li key={l.href}><a href={href(l.href)}>{l.label}</a></li>)}</ul>
            </nav>
          ))}
        </div>
        {/* The last element of every page: the first paint waits until the parser reaches it (plugins/paintWhole.ts). */}
        <div className="site-footer__bottom" id={PAINT_AFTER_ID}>
          <span>© {year} {site.company}</span>
          <a href={href(site.footer.allPolicies.href)}>{site.footer.allPolicies.label}</a>
        </div>
      </div>
    </footer>
  );
}
