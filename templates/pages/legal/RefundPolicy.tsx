// /refund-policy: twelve numbered sections with a contents list; section 9 defines the key terms.
import type { RefundPolicy } from '../../schemas/legal.ts';
import { LegalHero } from './LegalHero.tsx';
import { NumberedDocument } from './NumberedDocument.tsx';

export function RefundPolicyPage({ policy }: { policy: RefundPolicy }) {
  return (
    <>
      <LegalHero id="refund-title" heading={policy.heading} intro={policy.intro}>
        <p className="legal-meta"><strong>{policy.effectiveLabel}:</strong> {policy.effective}</p>
      </LegalHero>
      <NumberedDocument tocId="refund-toc" contentsLabel={policy.contentsLabel} sections={policy.sections} />
    </>
  );
}
