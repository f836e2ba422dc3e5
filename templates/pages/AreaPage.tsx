// An area page (online, hybrid, brick-and-mortar): a hero with the waitlist form, marketing sections,
// figures, 15 category links, and the closing form.
import type { Area } from '../schemas/core.ts';
import WaitlistForm, { type WaitlistFormProps } from '../islands/WaitlistForm.tsx';
import { CtaSection } from '../components/CtaSection.tsx';
import { Badge, CardGrid, Section, SectionHead, Stats } from '../components/ui.tsx';
import { href } from '../lib/props.ts';

export function AreaPage({ area, categories, waitlist, heroWaitlist }: { area: Area; categories: { href: string; name: string; summary: string }[]; waitlist: WaitlistFormProps; heroWaitlist: WaitlistFormProps }) {
  return (
    <div data-theme={area.theme === 'default' ? undefined : area.theme}>
      <section className="hero hero--center" aria-labelledby="area-title">
        <div className="container">
          <Badge>{area.badge}</Badge>
          <h1 id="area-title">{area.headline}</h1>
          <p className="lead">{area.intro}</p>
          <WaitlistForm {...heroWaitlist} />
          {area.stats.length ? <div className="hero__stats"><Stats items={area.stats} /></div> : null}
        </div>
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
