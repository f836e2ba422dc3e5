// /refund-policy: twelve numbered sections with a contents list; section 9 defines the key terms.
import type { RefundPolicy } from '../../schemas/legal.ts';
import { LegalHero } from './LegalHero.tsx';
import { Rich } from './Rich.tsx';

export function RefundPolicyPage({ policy }: { policy: RefundPolicy }) {
  const anchor = (i: number) => `section-${i + 1}`;
  return (
    <>
      <LegalHero id="refund-title" heading={policy.heading} intro={policy.intro}>
        <p className="legal-meta"><strong>{policy.effectiveLabel}:</strong> {policy.effective}</p>
      </LegalHero>
      <div className="section section--tight">
        <div className="container legal-layout">
          <nav className="legal-toc" aria-labelledby="refund-toc">
            <h2 id="refund-toc" className="legal-toc__title">{policy.contentsLabel}</h2>
            <ol>
              {policy.sections.map((s, i) => <li key={s.title}><a href={`#${anchor(i)}`}>{s.title}</a></li>)}
            </ol>
          </nav>
          <div className="prose legal-doc">
            {policy.sections.map((s, i) => (
              <section key={s.title} id={anchor(i)} className="legal-section" aria-labelledby={`${anchor(i)}-title`}>
                {/* The number is part of the heading text, so it survives copy-paste and needs no CSS counter. */}
                <h2 id={`${anchor(i)}-title`}><span className="legal-section__num">{i + 1}.</span> {s.title}</h2>
                {s.paragraphs.map((p) => <p key={p}><Rich text={p} /></p>)}
                {s.items ? <ul>{s.items.map((it) => <li key={it}><Rich text={it} /></li>)}</ul> : null}
                {s.terms ? (
                  <dl className="definition-list legal-terms">
                    {s.terms.map((t) => <div key={t.term}><dt>{t.term}</dt><dd><Rich text={t.definition} /></dd></div>)}
                  </dl>
                ) : null}
              </section>
            ))}
          </div>
        </div>
      </div>
    </>
  );
}
