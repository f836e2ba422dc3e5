// /terms, /privacy, /cookies, /app-privacy, /acceptable-use: a short intro, then the document embedded
// from the third-party policy host (the PolicyEmbed island), with a plain link to the hosted copy.
import PolicyEmbed, { type PolicyEmbedProps } from '../../islands/PolicyEmbed.tsx';
import { LegalHero } from './LegalHero.tsx';

export interface PolicyPageProps {
  heading: string;
  intro: string;
  embed: PolicyEmbedProps;
}

export function PolicyPage({ heading, intro, embed }: PolicyPageProps) {
  return (
    <>
      <LegalHero id="policy-title" heading={heading} intro={intro} />
      <div className="section section--tight">
        <div className="container">
          <PolicyEmbed {...embed} />
        </div>
      </div>
    </>
  );
}
