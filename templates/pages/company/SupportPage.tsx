// /support: email support (mailto the support address), response times by plan (from site.yaml), and a
// pointer to /faqs. The home page says "Support 24/7"; the copy here explains what that means in practice.
import { CtaSection } from '../../components/CtaSection.tsx';
import type { Support } from '../../schemas/company.ts';
import { Section } from '../../components/ui.tsx';
import { href } from '../../lib/props.ts';
import { MailAddress, MailButton, PageHero } from './parts.tsx';
import { MatchPreview, type MatchIllustration } from '../../components/MatchPreview.tsx';

export interface SupportProps {
  page: Support;
  email: string;
  response: { paid: string; freemium: string };
  faqsPath: string;
}

export function SupportPage({ page, email, response, faqsPath, preview }: SupportProps & { preview: MatchIllustration }) {
  return (
    <>
      <PageHero id="support-title" badge={page.badge} heading={page.heading} intro={page.intro} visual={<MatchPreview preview={preview} aside />} />
      <Section tight>
        <div className="grid grid--2">
          <div className="card company-card" role="group" aria-labelledby="support-email">
            <h2 id="support-email" className="h3-size">{page.email.heading}</h2>
            <p>{page.email.text}</p>
            <MailButton email={email} subject={page.email.subject} label={page.email.button} />
            <MailAddress email={email} />
          </div>
          <div className="card company-card" role="group" aria-labelledby="support-times">
            <h2 id="support-times" className="h3-size">{page.times.heading}</h2>
            <p>{page.times.intro}</p>
            <dl className="response-times">
              <div className="response-times__row">
                <dt>{page.times.paidLabel}</dt>
                <dd>{response.paid}</dd>
              </div>
              <div className="response-times__row">
                <dt>{page.times.freemiumLabel}</dt>
                <dd>{response.freemium}</dd>
              </div>
            </dl>
            <p className="muted company-note">{page.times.note}</p>
          </div>
        </div>
      </Section>
      <CtaSection id="support-faqs" cta={page.faqs} alt tight className="company-cta">
        <a className="btn btn--secondary" href={href(faqsPath)}>{page.faqs.link}</a>
      </CtaSection>
    </>
  );
}
