// The body every written policy shares: a contents list beside numbered sections (paragraphs, a list, key
// terms), then whatever the page adds below them (the hosted copy of a policy). The number is part of each
// heading's text, so it survives copy-paste and needs no CSS counter.
import type { ReactNode } from 'react';
import { Rich } from './Rich.tsx';

export interface NumberedSection {
  title: string;
  paragraphs: string[];
  items?: string[];
  terms?: { term: string; definition: string }[];
}

export function NumberedDocument({ tocId, contentsLabel, sections, children }: { tocId: string; contentsLabel: string; sections: NumberedSection[]; children?: ReactNode }) {
  const anchor = (i: number) => `section-${i + 1}`;
  return (
    <div className="section section--tight">
      <div className="container legal-layout">
        <nav className="legal-toc" aria-labelledby={tocId}>
          <h2 id={tocId} className="legal-toc__title">{contentsLabel}</h2>
          <ol>
            {sections.map((s, i) => <li key={s.title}><a href={`#${anchor(i)}`}>{s.title}</a></li>)}
          </ol>
        </nav>
        <div className="prose legal-doc">
          {sections.map((s, i) => (
            <section key={s.title} id={anchor(i)} className="legal-section" aria-labelledby={`${anchor(i)}-title`}>
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
          {children}
        </div>
      </div>
    </div>
  );
}
