// /faqs: hero, the seven-question accordion (an island; see FaqAccordion for the no-JavaScript behaviour)
// and a card pointing to /support for anything the answers do not cover.
import { CtaSection } from '../../components/CtaSection.tsx';
import type { Faqs } from '../../schemas/company.ts';
import FaqAccordion from '../../islands/FaqAccordion.tsx';
import { href } from '../../lib/props.ts';
import { PageHero } from './parts.tsx';

export function FaqsPage({ page, supportPath }: { page: Faqs; supportPath: string }) {
  return (
    <>
      <PageHero id="faqs-title" badge={page.badge} heading={page.heading} intro={page.intro} narrow />
      <section className="section section--tight">
        <div className="container--narrow">
          <FaqAccordion items={page.questions} headingLevel={2} />
        </div>
      </section>
      <CtaSection id="faqs-contact" cta={page.contact} alt tight className="company-cta cta-card--narrow">
        <a className="btn btn--primary" href={href(supportPath)}>{page.contact.link}</a>
      </CtaSection>
    </>
  );
}
