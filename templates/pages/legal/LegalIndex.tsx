// /legal: a plain-language summary of every policy, each linking to the full document.
import type { LegalIndex } from '../../schemas/legal.ts';
import { href } from '../../lib/props.ts';
import { Rich } from './Rich.tsx';
import { LegalHero } from './LegalHero.tsx';

export function LegalIndexPage({ page }: { page: LegalIndex }) {
  return (
    <>
      <LegalHero id="legal-title" heading={page.heading} intro={page.intro} />
      <section className="section section--tight" aria-labelledby="legal-list">
        <div className="container">
          <h2 id="legal-list" className="visually-hidden">{page.listHeading}</h2>
          <ul className="grid grid--2 legal-index">
            {page.policies.map((p) => (
              <li key={p.href} className="card legal-index__item">
                {/* The heading link stretches over the whole card (CSS), so there is one link per policy, not two. */}
                <h3><a className="legal-index__link" href={href(p.href)}>{p.title}</a></h3>
                <p>{p.summary}</p>
              </li>
            ))}
          </ul>
          <p className="notice legal-notice"><Rich text={page.notice} /></p>
        </div>
      </section>
    </>
  );
}
