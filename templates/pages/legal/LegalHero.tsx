// The opening band shared by the legal pages: the page's one <h1>, its intro and an optional meta line.
import type { ReactNode } from 'react';
import { Rich } from './Rich.tsx';

export function LegalHero({ id, heading, intro, children }: { id: string; heading: string; intro: string; children?: ReactNode }) {
  return (
    <section className="hero legal-hero" aria-labelledby={id}>
      <div className="container">
        <h1 id={id}>{heading}</h1>
        <p className="lead"><Rich text={intro} /></p>
        {children}
      </div>
    </section>
  );
}
