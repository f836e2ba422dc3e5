// /for-accelerators and /for-venture-studios: a coming-soon hero, cards describing what is planned, and a
// mail link to the address the page's audience should write to (info or studios, from site.yaml).
import type { ComingSoon } from '../../schemas/company.ts';
import { Section, SectionHead } from '../../components/ui.tsx';
import { MailAddress, MailButton, PageHero } from './parts.tsx';

export function ComingSoonPage({ page, email }: { page: ComingSoon; email: string }) {
  return (
    <>
      <PageHero id="soon-title" badge={page.badge} heading={page.heading} intro={page.intro} />
      <Section labelledBy="soon-cards">
        <SectionHead id="soon-cards" title={page.cardsHeading} intro={page.cardsIntro} />
        <ul className="grid grid--3 company-cards">
          {page.cards.map((c) => <li key={c.title} className="card"><h3>{c.title}</h3><p>{c.text}</p></li>)}
        </ul>
      </Section>
      <Section labelledBy="soon-contact" alt>
        <div className="cta-card company-cta">
          <h2 id="soon-contact">{page.contact.heading}</h2>
          <p className="lead">{page.contact.text}</p>
          <MailButton email={email} subject={page.contact.subject} label={page.contact.button} />
          <MailAddress email={email} />
        </div>
      </Section>
    </>
  );
}
