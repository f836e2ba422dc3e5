// Home: hero (rotating headline, waitlist form, and the match illustration beside them), three steps, four
// stats, logo marquee (unless home.yaml turns it off), closing CTA.
import type { Home, Logos } from '../schemas/core.ts';
import WaitlistForm, { type WaitlistFormProps } from '../islands/WaitlistForm.tsx';
import RotatingWord from '../islands/RotatingWord.tsx';
import LogoMarquee from '../islands/LogoMarquee.tsx';
import { Badge, NumberedCards, Section, SectionHead, Stats } from '../components/ui.tsx';
import { CtaSection } from '../components/CtaSection.tsx';
import type { MotionControls } from '../lib/motion.ts';
import { MatchPreview } from '../components/MatchPreview.tsx';

export function HomePage({ home, logos, rotationMs, waitlist, motion }: { home: Home; logos: Logos; rotationMs: number; waitlist: WaitlistFormProps; motion: MotionControls }) {
  return (
    <>
      <section className="hero hero--home" aria-labelledby="home-title">
        <div className="container hero__split">
          <div className="hero__copy">
            <Badge accent dot>{home.badge}</Badge>
            <h1 id="home-title">{home.headlinePrefix} <RotatingWord words={home.rotatingWords} intervalMs={rotationMs} motionLabels={motion.headline} hydrate="idle" /></h1>
            <p className="lead">{home.subtitle}</p>
            <ul className="chips">
              {home.chips.map((c) => <li key={c} className="chip">{c}</li>)}
            </ul>
            <WaitlistForm {...waitlist} />
          </div>
          <MatchPreview preview={home.preview} />
        </div>
      </section>
      <Section labelledBy="steps-title" alt>
        <SectionHead id="steps-title" title={home.stepsHeading} center />
        <NumberedCards items={home.steps} />
      </Section>
      <Section labelledBy="stats-title" className="section--band">
        <SectionHead id="stats-title" title={home.statsHeading} center />
        <Stats items={home.stats} />
      </Section>
      {home.marquee.show ? (
        <Section labelledBy="logos-title" alt>
          <SectionHead id="logos-title" title={home.marquee.heading} intro={home.marquee.intro} center />
          <div className="stack">
            <LogoMarquee id="logos-companies" label={home.marquee.companiesLabel} items={logos.companies} motionLabels={motion.logos} hydrate="visible" />
            {logos.universities.length > 0
              ? <LogoMarquee id="logos-universities" label={home.marquee.universitiesLabel ?? home.marquee.heading} items={logos.universities} reverse motionLabels={motion.logos} hydrate="visible" />
              : null}
          </div>
        </Section>
      ) : null}
      <CtaSection id="home-cta" cta={home.cta} waitlist={{ ...waitlist, form: 'home-cta', note: undefined }} />
    </>
  );
}
