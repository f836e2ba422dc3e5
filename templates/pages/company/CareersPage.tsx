// /careers: "Join Our Team", the four areas we will hire in, how we work, a kind note that no roles are open
// yet, and applying by email to the careers address.
import type { Careers } from '../../schemas/company.ts';
import { Section, SectionHead } from '../../components/ui.tsx';
import { MailAddress, MailButton, PageHero } from './parts.tsx';
import { MatchPreview, type MatchIllustration } from '../../components/MatchPreview.tsx';

export function CareersPage({ page, email, preview }: { page: Careers; email: string; preview: MatchIllustration }) {
  return (
    <>
      <PageHero id="careers-title" badge={page.badge} heading={page.heading} intro={page.intro} visual={<MatchPreview preview={preview} aside />} />
      <Section labelledBy="careers-areas">
        <SectionHead id="careers-areas" title={page.areasHeading} intro={page.areasIntro} />
        <ul className="grid company-cards company-areas">
          {page.areas.map((a) => <li key={a.title} className="card card--flat"><h3>{a.title}</h3><p>{a.text}</p></li>)}
        </ul>
      </Section>
      <Section labelledBy="careers-values" alt>
        <SectionHead id="careers-values" title={page.valuesHeading} />
        <ul className="grid grid--3 company-cards">
          {page.values.map((v) => <li key={v.title} className="card card--flat"><h3>{v.title}</h3><p>{v.text}</p></li>)}
        </ul>
      </Section>
      <Section>
        <div className="grid grid--2">
          <div className="notice company-openings">
            <h2 id="careers-openings" className="h3-size">{page.openings.heading}</h2>
            <p>{page.openings.text}</p>
          </div>
          <div className="card company-card" role="group" aria-labelledby="careers-apply">
            <h2 id="careers-apply" className="h3-size">{page.apply.heading}</h2>
            <p>{page.apply.text}</p>
            <MailButton email={email} subject={page.apply.subject} label={page.apply.button} />
            <MailAddress email={email} />
          </div>
        </div>
      </Section>
    </>
  );
}
