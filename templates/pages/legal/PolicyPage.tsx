// /terms, /privacy, /cookies, /app-privacy, /acceptable-use: the policy's own text (content/legal/policies.yaml)
// with a contents list, readable with no script and no third party. When a policy host is configured, the
// host's copy follows under its own heading (the PolicyEmbed island); it is never the only way to read it.
import PolicyEmbed, { type PolicyEmbedProps } from '../../islands/PolicyEmbed.tsx';
import { LegalHero } from './LegalHero.tsx';
import { NumberedDocument, type NumberedSection } from './NumberedDocument.tsx';

export interface PolicyPageProps {
  policy: { id: string; heading: string; intro: string; updated: string; sections: NumberedSection[] };
  labels: { updated: string; contents: string; embedHeading: string };
  embed: PolicyEmbedProps | null;
}

export function PolicyPage({ policy, labels, embed }: PolicyPageProps) {
  return (
    <>
      <LegalHero id="policy-title" heading={policy.heading} intro={policy.intro}>
        <p className="legal-meta"><strong>{labels.updated}:</strong> {policy.updated}</p>
      </LegalHero>
      <NumberedDocument tocId="policy-toc" contentsLabel={labels.contents} sections={policy.sections}>
        {embed ? (
          <section className="legal-section policy-hosted" aria-labelledby="policy-hosted-title">
            <h2 id="policy-hosted-title">{labels.embedHeading}</h2>
            <PolicyEmbed {...embed} />
          </section>
        ) : null}
      </NumberedDocument>
    </>
  );
}
