// /for-consumers: how it works (4 steps), why join (4 reasons), the three business areas, and the form.
import type { ForConsumers } from '../schemas/core.ts';
import WaitlistForm, { type WaitlistFormProps } from '../islands/WaitlistForm.tsx';
import { Badge, CardGrid, NumberedCards, Section, SectionHead } from '../components/ui.tsx';
import { CtaSection } from '../components/CtaSection.tsx';
import { href } from '../lib/props.ts';
import { MatchPreview, type MatchIllustration } from '../components/MatchPreview.tsx';

export function ForConsumersPage({ page, areas, waitlist, preview }: { page: ForConsumers; areas: { href: string; name: string; summary: string }[]; waitlist: WaitlistFormProps; preview: MatchIllustration }) {
  return (
    <>
      <section className="hero" aria-labelledby="fc-title">
        <div className="container hero__split">
          <div className="hero__copy">
            <Badge>{page.badge}</Badge>
            <h1 id="fc-title">{page.headline}</h1>
            <p className="lead">{page.intro}</p>
            <WaitlistForm {...waitlist} />
          </div>
          <MatchPreview preview={preview} aside />
        </div>
      </section>
      <Section labelledBy="how-title" alt>
        <SectionHead id="how-title" title={page.howHeading} />
        <NumberedCards items={page.how} />
      </Section>
      <Section labelledBy="why-title">
        <SectionHead id="why-title" title={page.whyHeading} />
        <CardGrid count={page.why.length}>
          {page.why.map((w) => <li key={w.title} className="card card--flat"><h3>{w.title}</h3><p>{w.text}</p></li>)}
        </CardGrid>
      </Section>
      <Section labelledBy="areas-title" alt>
        <SectionHead id="areas-title" title={page.areasHeading} />
        <ul className={`category-grid cards cards--c${areas.length % 3 === 0 ? 3 : 2}`}>
          {areas.map((a) => <li key={a.href}><a className="category-link" href={href(a.href)}><strong>{a.name}</strong><span>{a.summary}</span></a></li>)}
        </ul>
      </Section>
      <CtaSection id="fc-cta" cta={page.cta} waitlist={{ ...waitlist, form: 'for-consumers-cta' }} />
    </>
  );
}
