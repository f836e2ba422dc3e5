// /investors: how to request investor-portal access (by email; credentials after the company's review) and
// a short list of quick facts. No figures here are promises: the disclaimer says so.
import type { Investors } from '../../schemas/company.ts';
import { Section } from '../../components/ui.tsx';
import { MailAddress, MailButton, PageHero } from './parts.tsx';
import { MatchPreview, type MatchIllustration } from '../../components/MatchPreview.tsx';

export function InvestorsPage({ page, email, preview }: { page: Investors; email: string; preview: MatchIllustration }) {
  return (
    <>
      <PageHero id="investors-title" badge={page.badge} heading={page.heading} intro={page.intro} visual={<MatchPreview preview={preview} aside />} />
      <Section tight>
        <div className="grid grid--2">
          <div className="card company-card" role="group" aria-labelledby="investors-access">
            <h2 id="investors-access" className="h3-size">{page.access.heading}</h2>
            <p>{page.access.text}</p>
            <ol className="company-steps">
              {page.access.steps.map((s) => <li key={s}>{s}</li>)}
            </ol>
            <MailButton email={email} subject={page.access.subject} label={page.access.button} />
            <MailAddress email={email} />
            <p className="notice company-note">{page.access.note}</p>
          </div>
          <div className="card company-card" role="group" aria-labelledby="investors-facts">
            <h2 id="investors-facts" className="h3-size">{page.factsHeading}</h2>
            <dl className="quick-facts">
              {page.facts.map((f) => (
                <div key={f.label} className="quick-facts__row">
                  <dt>{f.label}</dt>
                  <dd>{f.value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
        <p className="muted company-disclaimer">{page.disclaimer}</p>
      </Section>
    </>
  );
}
