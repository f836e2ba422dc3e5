// An area page (online, hybrid, brick-and-mortar): a hero with the waitlist form (and a match of its first
// sector's roles beside it on wide screens), marketing sections,
// figures, 15 category links, and the closing form.
import type { Area } from '../schemas/core.ts';
import WaitlistForm, { type WaitlistFormProps } from '../islands/WaitlistForm.tsx';
import { CtaSection } from '../components/CtaSection.tsx';
import { Badge, CardGrid, Section, SectionHead, Stats } from '../components/ui.tsx';
import { href } from '../lib/props.ts';
import { MatchPreview, type MatchIllustration } from '../components/MatchPreview.tsx';

export function AreaPage({ area, categories, waitlist, heroWaitlist, preview }: { area: Area; categories: { href: string; name: string; summary: string }[]; waitlist: WaitlistFormProps; heroWaitlist: WaitlistFormProps; preview: MatchIllustration }) {
  return (
    <div data-theme={area.theme === 'default' ? undefined : area.theme}>
      <section className="hero" aria-labelledby="area-title">
        <div className="container hero__split">
          <div className="hero__copy">
            <Badge>{area.badge}</Badge>
            <h1 id="area-title">{area.headline}</h1>
            <p className="lead">{area.intro}</p>
            <WaitlistForm {...heroWaitlist} />
          </div>
          <MatchPreview preview={preview} aside />
        </div>
        {area.stats.length ? <div className="container"><div className="hero__stats"><Stats items={area.stats} /></div></div> : null}
      </section>
      {area.sections.map((s, i) => (
        <Section key={s.heading} labelledBy={`area-s${i}`} alt={i % 2 === 0}>
          <SectionHead id={`area-s${i}`} title={s.heading} intro={s.intro} />
          <CardGrid count={s.items.length}>
            {s.items.map((it) => <li key={it.title} className="card card--flat"><h3>{it.title}</h3><p>{it.text}</p></li>)}
          </CardGrid>
        </Section>
      ))}
      <Section labelledBy="categories-title" alt={area.sections.length % 2 === 0}>
        <SectionHead id="categories-title" title={area.categoriesHeading} intro={area.categoriesIntro} />
        <ul className={`category-grid cards cards--c3`}>
          {categories.map((c) => <li key={c.href}><a className="category-link" href={href(c.href)}><strong>{c.name}</strong><span>{c.summary}</span></a></li>)}
        </ul>
      </Section>
      <CtaSection id="area-cta" cta={area.cta} waitlist={waitlist} alt={area.sections.length % 2 !== 0} />
    </div>
  );
}
