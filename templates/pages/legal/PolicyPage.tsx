// /terms, /privacy, /cookies, /app-privacy, /acceptable-use: the policy's own text (content/legal/policies.yaml)
// with a contents list, readable with no script and no third party. When a policy host is configured, the
// host's copy follows under its own heading (the PolicyEmbed island); it is never the only way to read it.
import PolicyEmbed, { type PolicyEmbedProps } from '../../islands/PolicyEmbed.tsx';
import { LegalHero } from './LegalHero.tsx';
import { Rich } from './Rich.tsx';

export interface PolicyPageProps {
  policy: { id: string; heading: string; intro: string; updated: string; sections: { title: string; paragraphs: string[]; items?: string[] }[] };
  labels: { updated: string; contents: string; embedHeading: string };
  embed: PolicyEmbedProps | null;
}

export function PolicyPage({ policy, labels, embed }: PolicyPageProps) {
  const anchor = (i: number) => `section-${i + 1}`;
  return (
    <>
      <LegalHero id="policy-title" heading={policy.heading} intro={policy.intro}>
        <p className="legal-meta"><strong>{labels.updated}:</strong> {policy.updated}</p>
      </LegalHero>
      <div className="section section--tight">
        <div className="container legal-layout">
          <nav className="legal-toc" aria-labelledby="policy-toc">
            <h2 id="policy-toc" className="legal-toc__title">{labels.contents}</h2>
            <ol>
              {policy.sections.map((s, i) => <li key={s.title}><a href={`#${anchor(i)}`}>{s.title}</a></li>)}
            </ol>
          </nav>
          <div className="prose legal-doc">
            {policy.sections.map((s, i) => (
              <section key={s.title} id={anchor(i)} className="legal-section" aria-labelledby={`${anchor(i)}-title`}>
                <h2 id={`${anchor(i)}-title`}><span className="legal-section__num">{i + 1}.</span> {s.title}</h2>
                {s.paragraphs.map((p) => <p key={p}><Rich text={p} /></p>)}
                {s.items ? <ul>{s.items.map((it) => <li key={it}><Rich text={it} /></li>)}</ul> : null}
              </section>
            ))}
            {embed ? (
              <section className="legal-section policy-hosted" aria-labelledby="policy-hosted-title">
                <h2 id="policy-hosted-title">{labels.embedHeading}</h2>
                <PolicyEmbed {...embed} />
              </section>
            ) : null}
          </div>
        </div>
      </div>
    </>
  );
}
